// Package external reflects a Cobra CLI from outside: an installed binary
// that does not link cobramcp. It builds a cobra command tree with real
// pflag flags of the types it finds, which package bridge serves unchanged;
// calls run the binary itself.
//
//	r, err := external.Load(ctx, "kubectl", nil)
//	if err != nil {
//		return err
//	}
//	ts, err := toolset.New(r.Root, &toolset.Config{Executable: r.Path})
//
// The tree is read through cobra's hidden completion command and the help
// texts: sub-commands from the completion of cobra's help command, flags
// and shorthands from flag-name completion (which also names the required
// flags), types and defaults from pflag's help format, and, where the help
// prints no types (kubectl), from the flag parser's answers to probe values
// given through completion, which parses flags but runs no command. A flag
// whose type stays unknown is served as a string and reported in
// Result.Notes.
//
// Every process discovery starts has stdin closed, a short timeout and its
// own process group, ended when it is over. Discovery never asks for
// argument completion (kubectl's completes resource names from its API
// server), points the proxy variables at a closed port and turns cobra's
// active help off; it cannot keep a CLI's start-up code from reaching the
// network (docs/external.md).
//
// A reflection has a budget (Options.Timeout, MaxCommands, MaxProcesses,
// MaxTimeouts): reaching a limit is a *LimitError that names it, so that a
// CLI whose tree has no end, or whose helps hang, stops by itself. A slow
// one logs its progress every Options.ProgressInterval.
//
// Reflections are cached per binary (path, size, modification time, Go
// build info, and version where cobra's --version flag gives one) under
// os.UserCacheDir(); a cache directory or entry that another user owns, or
// that its group or others may write, is refused (a *CacheError saying how
// to fix it). An Overlay corrects what reflection cannot know:
// types and schemas of flags, MCP hints, descriptions, commands to leave
// out. What differs from the in-process reflection of the same CLI is
// listed in docs/external.md.
package external
