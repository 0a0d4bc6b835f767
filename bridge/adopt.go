package bridge

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/internal/flagschema"
	"github.com/cobramcp/cobramcp/internal/toolmeta"
	"github.com/cobramcp/cobramcp/toolset"
)

// The names an adopter's code uses, so that it needs bridge alone for the
// one-line adoption, its Config, the annotations and middleware. The types
// are package toolset's (the library's), each named here once.

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
func AllowCmds(paths ...string) func(*cobra.Command) bool {
	return func(c *cobra.Command) bool { return matchPath(c, paths) }
}

// ExcludeCmds returns a command predicate, for Selector.Cmd, matching every
// command except the ones named and their sub-commands.
func ExcludeCmds(paths ...string) func(*cobra.Command) bool {
	return func(c *cobra.Command) bool { return !matchPath(c, paths) }
}

// AllowFlags returns a flag predicate, for Selector.LocalFlag or
// InheritedFlag, matching the flags named (long names).
func AllowFlags(names ...string) func(*pflag.Flag) bool {
	return func(f *pflag.Flag) bool { return slices.Contains(names, f.Name) }
}

// ExcludeFlags returns a flag predicate matching every flag except the
// ones named (long names).
func ExcludeFlags(names ...string) func(*pflag.Flag) bool {
	return func(f *pflag.Flag) bool { return !slices.Contains(names, f.Name) }
}

// matchPath reports whether c, or an ancestor below the root, is one of
// paths (words separated by any white space).
func matchPath(c *cobra.Command, paths []string) bool {
	var words []string
	for p := c; p.HasParent(); p = p.Parent() {
		words = append(words, p.Name())
	}
	slices.Reverse(words)
	rp := strings.Join(words, " ")
	for _, p := range paths {
		p = strings.Join(strings.Fields(p), " ")
		if rp == p || strings.HasPrefix(rp, p+" ") {
			return true
		}
	}
	return false
}

// Annotation keys read from a command's Annotations: MCP metadata on a
// command without new API. Ophis's keys ("title", "readOnlyHint",
// "destructiveHint", "idempotentHint", "openWorldHint") are read as
// aliases of the first five; ours win. An unknown mcp.* key, or a value
// that is not a boolean, is logged when the tree is reflected.
const (
	AnnotationTitle       = toolmeta.AnnotationTitle       // the tool's human-readable title
	AnnotationReadOnly    = toolmeta.AnnotationReadOnly    // "true": the command changes nothing
	AnnotationDestructive = toolmeta.AnnotationDestructive // "true"/"false": the command may destroy data
	AnnotationIdempotent  = toolmeta.AnnotationIdempotent  // "true": repeating the call has no further effect
	AnnotationOpenWorld   = toolmeta.AnnotationOpenWorld   // "true"/"false": the command reaches outside systems
	AnnotationTimeout     = toolmeta.AnnotationTimeout     // a Go duration overriding Config.Timeout for this command; "0s" or negative: no limit
	AnnotationTags        = toolmeta.AnnotationTags        // comma-separated tags for the tool record
)

// Annotation keys read from a flag's Annotations (pflag's
// Flag.Annotations, set with cmd.Flags().SetAnnotation).
const (
	// FlagAnnotationSchema is a JSON Schema (one element, JSON text) that
	// the flag's value must satisfy, in place of the one its type gives:
	// an enum, a pattern, a range. One without a "type" is completed from
	// the flag's type; one that is refused leaves the generated schema,
	// logged.
	FlagAnnotationSchema = flagschema.Annotation
	// FlagAnnotationRepeatable ("true") says that the flag's custom value
	// accumulates, one value per occurrence on the command line: it is
	// served as an array and written as one --name=ELEMENT per element
	// (Config.RepeatableTypes names whole types so).
	FlagAnnotationRepeatable = flagschema.AnnotationRepeatable
)
