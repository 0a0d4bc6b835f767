package bridge

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/toolset"
)

// The names below are package toolset's, given here so that an adopter
// needs bridge alone for the one-line adoption, its Config, the command
// annotations and middleware.

// Middleware wraps the run of every tool call (Config.Middleware): it may
// log the call, refuse it, or change its argv and limits before calling
// next; see toolset.Middleware.
type Middleware = toolset.Middleware

// RunFunc runs a call; a Middleware receives the next one.
type RunFunc = toolset.RunFunc

// Call is one tool call on its way to a process, as middleware sees it:
// the tool, its command, the flags and args asked for, the argv and the
// limits of the run.
type Call = toolset.Call

// Result is what a call's process produced: what a RunFunc returns. A
// non-zero exit is a Result, not an error; see toolset.Result.
type Result = toolset.Result

// AllowCmds returns a command predicate, for Selector.Cmd, matching the
// commands named and their sub-commands, by path below the root ("get
// pods", or "get").
func AllowCmds(paths ...string) func(*cobra.Command) bool { return toolset.AllowCmds(paths...) }

// ExcludeCmds returns a command predicate, for Selector.Cmd, matching every
// command except the ones named and their sub-commands.
func ExcludeCmds(paths ...string) func(*cobra.Command) bool { return toolset.ExcludeCmds(paths...) }

// AllowFlags returns a flag predicate, for Selector.LocalFlag or
// InheritedFlag, matching the flags named.
func AllowFlags(names ...string) func(*pflag.Flag) bool { return toolset.AllowFlags(names...) }

// ExcludeFlags returns a flag predicate matching every flag except the
// ones named.
func ExcludeFlags(names ...string) func(*pflag.Flag) bool { return toolset.ExcludeFlags(names...) }

// Annotation keys read from a command's Annotations: MCP metadata on a
// command without new API (see toolset.AnnotationTitle).
const (
	AnnotationTitle       = toolset.AnnotationTitle       // the tool's human-readable title
	AnnotationReadOnly    = toolset.AnnotationReadOnly    // "true": the command changes nothing
	AnnotationDestructive = toolset.AnnotationDestructive // "true"/"false": the command may destroy data
	AnnotationIdempotent  = toolset.AnnotationIdempotent  // "true": repeating the call has no further effect
	AnnotationOpenWorld   = toolset.AnnotationOpenWorld   // "true"/"false": the command reaches outside systems
	AnnotationTimeout     = toolset.AnnotationTimeout     // a Go duration overriding Config.Timeout for this command
	AnnotationTags        = toolset.AnnotationTags        // comma-separated tags for the tool record
)
