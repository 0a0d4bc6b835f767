package bridge

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"
)

// Positional args: the arity a command accepts, inferred by probing
// cmd.Args, and the words of its Use line that name them.

// maxProbe is how many positional args argsSchema tries; a validator that
// accepts this many is taken to accept any number.
const maxProbe = 16

// argsSchema infers the positional args a command accepts by probing
// cmd.Args with 0..maxProbe placeholders. It returns nil when the command
// takes no args.
func argsSchema(c *cobra.Command) *jsonschema.Schema {
	s := &jsonschema.Schema{
		Type:  "array",
		Items: &jsonschema.Schema{Type: "string"},
	}
	use := "Positional arguments, in order: " + argsUsage(c.Use)
	if c.DisableFlagParsing {
		s.Description = use + ". The command parses its own arguments: flags go here too, as the command's usage shows."
		return s
	}
	validator := c.Args
	if validator == nil {
		if c.HasSubCommands() && !c.HasParent() {
			return nil // cobra's legacy rule: a root with sub-commands takes no args
		}
		s.Description = use + ". The command does not declare how many it takes."
		return s
	}
	accepts := func(n int, placeholder string) (ok bool) {
		defer func() {
			if recover() != nil {
				ok = false
			}
		}()
		args := make([]string, n)
		for i := range args {
			args[i] = placeholder
		}
		return validator(c, args) == nil
	}
	probe := func(placeholder string) []bool {
		res := make([]bool, maxProbe+1)
		for n := range res {
			res[n] = accepts(n, placeholder)
		}
		return res
	}
	ok := probe("cobramcp-probe")
	var enum []any
	if !slices.Contains(ok, true) && len(c.ValidArgs) > 0 {
		// The validator refuses arbitrary values: try a valid one.
		if ok2 := probe(validArg(c.ValidArgs[0])); slices.Contains(ok2, true) {
			ok = ok2
			for _, v := range c.ValidArgs {
				enum = append(enum, validArg(v))
			}
		}
	}
	if !slices.Contains(ok, true) {
		// Nothing passes the probe (the validator looks at values): invent
		// no limit.
		s.Description = use + "."
		return s
	}
	lo := slices.Index(ok, true)
	hi := lo
	for hi+1 <= maxProbe && ok[hi+1] {
		hi++
	}
	if hi == 0 {
		return nil // NoArgs
	}
	if lo > 0 {
		s.MinItems = jsonschema.Ptr(lo)
	}
	contiguous := !slices.Contains(ok[hi+1:], true)
	if hi < maxProbe && contiguous {
		s.MaxItems = jsonschema.Ptr(hi)
	}
	if enum != nil {
		s.Items.Enum = enum
	}
	switch {
	case s.MaxItems != nil && lo == hi:
		s.Description = fmt.Sprintf("%s. Exactly %d.", use, lo)
	case s.MaxItems != nil:
		s.Description = fmt.Sprintf("%s. From %d to %d.", use, lo, hi)
	case lo > 0:
		s.Description = fmt.Sprintf("%s. At least %d.", use, lo)
	default:
		s.Description = use + "."
	}
	return s
}

// argsUsage is the part of a command's Use line that names positional
// args: the command's name, "[flags]" and flag-like words (with the value
// placeholder that follows one) are dropped, since flags go in "flags".
func argsUsage(use string) string {
	words := strings.Fields(use)
	if len(words) > 0 {
		words = words[1:]
	}
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		bare := strings.TrimLeft(w, "[(")
		switch {
		case w == "|" || strings.EqualFold(strings.Trim(w, "[]"), "flags"):
			continue
		case strings.HasPrefix(bare, "-"):
			// A flag; its value placeholder follows it unless written --f=V
			// or the flag closes a bracket.
			if !strings.Contains(bare, "=") && !strings.ContainsAny(w, "])") && i+1 < len(words) {
				next := strings.TrimRight(words[i+1], "])")
				if next != "" && next == strings.ToUpper(next) && !strings.HasPrefix(next, "[") {
					i++
				}
			}
			continue
		}
		out = append(out, w)
	}
	if len(out) == 0 {
		return "(none named in the usage line)"
	}
	return strings.Join(out, " ")
}

// validArg strips the "\tdescription" that ValidArgs entries may carry.
func validArg(v string) string {
	if i := strings.IndexByte(v, '\t'); i >= 0 {
		return v[:i]
	}
	return v
}
