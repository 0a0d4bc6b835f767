package toolset

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/cobramcp/cobramcp/internal/toolmeta"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Config chooses what is served and how calls run. The zero value (or a nil
// *Config) serves every runnable command with every flag.
type Config struct {
	// CommandName is the name of the command group that Command returns;
	// "mcp" when empty.
	CommandName string

	// ToolPrefix replaces the root command's name as the first part of
	// every tool name ("mycli_get_pods" becomes "k_get_pods" with "k").
	ToolPrefix string

	// Namespace, when set, identifies the tools as "namespace:name" in
	// their _meta (id and namespace); without it _meta has no id, which
	// would be the tool's name.
	Namespace string

	// Selectors choose commands and their flags. The first selector whose
	// Cmd matches a command decides which of its flags are served; a command
	// that no selector matches is left out. An empty list serves every
	// command with every flag.
	Selectors []Selector

	// Middleware wraps every call, outermost first. It can log, audit,
	// refuse or alter a call before it runs.
	Middleware []Middleware

	// Timeout bounds each call; 2 minutes when zero, no bound when
	// negative. A command overrides it with its mcp.timeout annotation
	// (bridge.AnnotationTimeout).
	Timeout time.Duration

	// MaxOutput caps each of stdout and stderr per call, in bytes;
	// 1 MiB when zero, no cap when negative. Past the cap the
	// output keeps its head and tail around a marker.
	MaxOutput int

	// MaxParallel is how many calls run at once; 32 when zero. Further
	// calls wait for a free slot, shared fairly between a server's
	// callers, up to a cap (ServerOptions.Limits).
	MaxParallel int

	// Env is the environment of each call's process; nil inherits the
	// server's environment.
	Env []string

	// DefaultEnv names environment variables (such as PATH) whose current
	// values `mcp CLIENT enable` writes into a client's configuration,
	// since clients start servers with a minimal environment.
	DefaultEnv []string

	// Executable is the binary that calls run; os.Executable() when empty.
	Executable string

	// Instructions is the author's text for the server instructions that
	// the initialize result carries, before the generated part (what the
	// CLI is, how tools are called, the shared flags). The whole is cut
	// at 2048 bytes.
	Instructions string

	// RepeatableTypes names the Type() of custom pflag values whose Set
	// accumulates, one value per occurrence on the command line (docker's
	// "filter", "mount", "network"...): every flag of such a type is
	// served as an array and written as one --name=ELEMENT per element,
	// as bridge.FlagAnnotationRepeatable does for one flag. The walk
	// applies it to its own copy of each flag; the tree is not changed.
	// pflag's own types (a "string", a "stringSlice") are not affected,
	// nor a flag with a jsonschema annotation. Values that implement
	// pflag.SliceValue, and the type "list", are repeatable without it.
	RepeatableTypes []string

	// Logger receives the reflector's and server's logs; when nil, the mcp
	// commands log to stderr and library calls log nowhere.
	Logger *slog.Logger
}

// Selector chooses commands and, for those it matches, their flags.
type Selector struct {
	// Cmd reports whether the selector applies to a command; nil matches
	// every command.
	Cmd func(*cobra.Command) bool
	// LocalFlag reports whether a flag defined on the command itself is
	// served; nil serves all.
	LocalFlag func(*pflag.Flag) bool
	// InheritedFlag reports whether a flag from an ancestor is served: a
	// persistent flag inherited from a parent, or, when the root has
	// TraverseChildren, an ancestor's local flag (see Tool.Traversed);
	// nil serves all.
	InheritedFlag func(*pflag.Flag) bool
	// HiddenFlag reports whether a hidden flag is served (it must also
	// pass LocalFlag or InheritedFlag). nil serves none: by default hidden
	// flags are left out. etcdctl, say, hides its connection flags
	// (--endpoints, --user, --cacert...), which an author may serve with
	// func(*pflag.Flag) bool { return true }.
	HiddenFlag func(*pflag.Flag) bool
}

// Call is one tool call on its way to a process, as middleware sees it.
type Call struct {
	Tool    string         // the tool's name
	Command *cobra.Command // the command the tool runs
	Flags   map[string]any // the flags the call asked for, null values removed (a view's pinned flags are in Argv only)
	Args    []string       // the positional args asked for
	// ArgsAfterDash are the words asked for after "--" (argsAfterDash).
	ArgsAfterDash []string
	Path          string     // the binary that runs
	Argv          []string   // the arguments after the binary: command path, flags, args ("--" where needed)
	Options       RunOptions // the limits of the run
}

// RunFunc runs a call.
type RunFunc func(ctx context.Context, call *Call) (*Result, error)

// Middleware wraps a RunFunc.
type Middleware func(next RunFunc) RunFunc

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// relPath is c's path below the root, words separated by single spaces.
func relPath(c *cobra.Command) string {
	var parts []string
	for p := c; p.HasParent(); p = p.Parent() {
		parts = append(parts, p.Name())
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, " ")
}

// withDefaults returns a copy of cfg with zero fields set to their defaults.
func withDefaults(cfg *Config) Config {
	var c Config
	if cfg != nil {
		c = *cfg
	}
	if c.CommandName == "" {
		c.CommandName = toolmeta.DefaultCommandName
	}
	if c.Timeout == 0 {
		c.Timeout = toolmeta.DefaultTimeout
	}
	if c.MaxParallel <= 0 {
		c.MaxParallel = toolmeta.DefaultMaxParallel
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}
