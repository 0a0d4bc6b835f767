package toolset

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/internal/exec"
)

// Positional args: the arity a command accepts, inferred by probing
// cmd.Args, and the words of its Use line that name them.

// maxProbe is how many positional args probeArity tries; a validator that
// accepts this many is taken to accept any number.
const maxProbe = 16

// arity is what probing a command's cmd.Args found.
type arity struct {
	none    bool   // the command takes no args
	known   bool   // the validator accepts a range of counts, lo..hi
	lo, hi  int    // hi < 0: no upper bound
	enum    []any  // the values the validator accepts (from ValidArgs), or nil
	unknown string // when !known and !none: the sentence that says so, or ""
}

// probeArity infers the number of positional args a command accepts by
// probing cmd.Args with 0..maxProbe placeholders. cobra applies cmd.Args
// to commands with DisableFlagParsing too, so they are probed alike. The
// count is of all the args cobra passes, before and after "--".
func probeArity(c *cobra.Command) arity {
	validator := c.Args
	if validator == nil {
		if c.HasSubCommands() && !c.HasParent() {
			return arity{none: true} // cobra's legacy rule: a root with sub-commands takes no args
		}
		return arity{unknown: "The command does not declare how many it takes."}
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
	var a arity
	if !slices.Contains(ok, true) && len(c.ValidArgs) > 0 {
		// The validator refuses arbitrary values: try a valid one.
		if ok2 := probe(validArg(c.ValidArgs[0])); slices.Contains(ok2, true) {
			ok = ok2
			for _, v := range c.ValidArgs {
				a.enum = append(a.enum, validArg(v))
			}
		}
	}
	if !slices.Contains(ok, true) {
		// Nothing passes the probe (the validator looks at values): invent
		// no limit.
		return arity{}
	}
	lo := slices.Index(ok, true)
	hi := lo
	for hi+1 <= maxProbe && ok[hi+1] {
		hi++
	}
	if hi == 0 {
		return arity{none: true} // NoArgs
	}
	a.known, a.lo, a.hi = true, lo, hi
	if hi >= maxProbe || slices.Contains(ok[hi+1:], true) {
		a.hi = -1
	}
	return a
}

// count describes the arity in words: " Exactly 2.", " From 1 to 3.",
// " At least 1.", or "".
func (a arity) count() string {
	switch {
	case !a.known:
		return ""
	case a.hi >= 0 && a.lo == a.hi:
		return fmt.Sprintf(" Exactly %d.", a.lo)
	case a.hi >= 0:
		return fmt.Sprintf(" From %d to %d.", a.lo, a.hi)
	case a.lo > 0:
		return fmt.Sprintf(" At least %d.", a.lo)
	}
	return ""
}

// check reports a count of args that the probed arity refuses: n is what
// cobra counts, the "--" before argsAfterDash included when dash is set.
func (a arity) check(n int, dash bool) error {
	if !a.known || n >= a.lo && (a.hi < 0 || n <= a.hi) {
		return nil
	}
	want := strings.TrimSuffix(strings.TrimPrefix(strings.ToLower(a.count()), " "), ".")
	if dash {
		return fmt.Errorf("args, the \"--\" and argsAfterDash make %d args, and the command takes %s (the command gets the \"--\" as an arg, and cobra counts all)", n, want)
	}
	return fmt.Errorf("args and argsAfterDash hold %d words together, and the command takes %s (cobra counts both)", n, want)
}

// flagsStopAtFirstArg reports whether c's flags stop at its first
// positional arg (pflag's SetInterspersed(false), as docker run and exec
// have, so that the container's command keeps its own flags): every word
// after that arg, "--" included, is then an arg. pflag has no getter for
// it, so a copy of the flag set parses "word --": the "--" after an arg
// is taken as the end of the flags, and dropped from the args, only when
// flags and args may mix. The args tell, not ArgsLenAtDash, which a parse
// sets only when it meets a "--": a command that already ran keeps the
// one of its run. No flag is set, and c's own flag set is not touched.
func flagsStopAtFirstArg(c *cobra.Command) bool {
	probe := *c.Flags()
	if err := probe.Parse([]string{"cobramcp-probe", "--"}); err != nil {
		return false
	}
	return len(probe.Args()) == 2
}

// dashIsArg reports whether the "--" written before argsAfterDash reaches
// the command as an arg, counted by cobra: always for a command that
// parses its own arguments, and after the first positional arg for a
// command whose flags stop there.
func (t *Tool) dashIsArg() bool { return t.noParse || t.stopsAtArg }

// dashCounted reports whether cobra passes the command the "--" before
// in's argsAfterDash as an arg.
func (t *Tool) dashCounted(in *input) bool {
	return len(in.afterDash) > 0 && (t.noParse || t.stopsAtArg && len(in.args) > 0)
}

// argsCount is the number of args cobra passes the command for in, the
// count cmd.Args judges: args, argsAfterDash, and the "--" between them
// when cobra passes it too.
func (t *Tool) argsCount(in *input) int {
	n := len(in.args) + len(in.afterDash)
	if t.dashCounted(in) {
		n++
	}
	return n
}

// usesDash reports whether a command's Use line shows " -- ", the mark of
// a command that gives "--" a meaning of its own (kubectl exec POD --
// COMMAND): such a tool has the input property argsAfterDash.
func usesDash(c *cobra.Command) bool {
	return strings.Contains(" "+c.Use+" ", " -- ")
}

// argsSchema is the schema of the "args" property, from the probed arity,
// or nil when the command takes no args. With dash (the tool has
// argsAfterDash too), the count covers both properties, so it is stated
// in words and checked by the call path rather than by minItems; with
// dashIsArg it covers the "--" between them too.
func argsSchema(c *cobra.Command, a arity, dash, dashIsArg bool) *jsonschema.Schema {
	if a.none {
		return nil
	}
	s := &jsonschema.Schema{
		Type:  "array",
		Items: &jsonschema.Schema{Type: "string"},
	}
	use := endSentence("Positional arguments, in order: " + argsUsage(c.Use))
	if dash {
		use = endSentence("Positional arguments, placed before \"--\": " + argsUsage(beforeDash(c.Use)))
	}
	if a.enum != nil {
		s.Items.Enum = a.enum
	}
	switch {
	case dash && a.known:
		if a.hi >= 0 {
			s.MaxItems = jsonschema.Ptr(a.hi)
		}
		s.Description = use + " Together with argsAfterDash (" + countsBoth(c, dashIsArg) + "):" + strings.ToLower(a.count())
		if a.count() == "" {
			s.Description = use
		}
	case a.known:
		if a.lo > 0 {
			s.MinItems = jsonschema.Ptr(a.lo)
		}
		if a.hi >= 0 {
			s.MaxItems = jsonschema.Ptr(a.hi)
		}
		s.Description = use + a.count()
	case a.unknown != "" && !c.DisableFlagParsing:
		s.Description = use + " " + a.unknown
	default:
		s.Description = use
	}
	if c.DisableFlagParsing {
		s.Description += " The command parses its own arguments: flags go here too, as the command's usage shows."
	}
	return s
}

// countsBoth says how cobra counts args and argsAfterDash: both, and the
// "--" when the command gets it as an arg (dashIsArg).
func countsBoth(c *cobra.Command, dashIsArg bool) string {
	switch {
	case dashIsArg && c.DisableFlagParsing:
		return "cobra counts both, and the \"--\" before argsAfterDash: the command parses its own arguments, so it gets the \"--\" as an arg"
	case dashIsArg:
		return "cobra counts both, and the \"--\" between them when args is not empty: the command's flags stop at its first arg, so it gets that \"--\" as an arg"
	}
	return "cobra counts both"
}

// afterDashSchema is the schema of the "argsAfterDash" property of a
// command whose Use line shows " -- ", or nil for other commands and for
// commands that take no args.
func afterDashSchema(c *cobra.Command, a arity, dashIsArg bool) *jsonschema.Schema {
	if a.none || !usesDash(c) {
		return nil
	}
	_, after, _ := strings.Cut(" "+c.Use+" ", " -- ")
	s := &jsonschema.Schema{
		Type:  "array",
		Items: &jsonschema.Schema{Type: "string"},
		Description: "The words that go after \"--\", verbatim and in order (" + strings.TrimSpace(after) +
			"): they are passed as they are, even when they begin with \"-\", and are never read as this command's flags.",
	}
	if c.DisableFlagParsing {
		s.Description = "The words that go after \"--\", verbatim and in order (" + strings.TrimSpace(after) + ")."
	}
	if a.known {
		if a.hi >= 0 {
			s.MaxItems = jsonschema.Ptr(a.hi)
		}
		if n := a.count(); n != "" {
			s.Description += " Together with args (" + countsBoth(c, dashIsArg) + "):" + strings.ToLower(n)
		}
	}
	return s
}

// beforeDash is the part of a Use line before " -- ".
func beforeDash(use string) string {
	before, _, _ := strings.Cut(use+" ", " -- ")
	return before
}

// endSentence ends s with a full stop, unless it ends with one already
// (a usage line ending "ID...").
func endSentence(s string) string {
	if strings.HasSuffix(s, ".") {
		return s
	}
	return s + "."
}

// argsUsage is the part of a command's Use line that names positional
// args: the command's name, "[flags]" (or docker's "[OPTIONS]") and flag-like words (with the value
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
		case w == "|" || strings.EqualFold(strings.Trim(w, "[]"), "flags") || strings.EqualFold(strings.Trim(w, "[]"), "options"):
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

// subCommandOf returns the predicate exec.CommandLine.SubCommand for c:
// whether cobra's Find, given word as c's first positional arg, would
// take it for a sub-command of c, and run that instead: its name or an
// alias (in any case under cobra's EnableCaseInsensitive), or a prefix
// that one sub-command alone has (under EnablePrefixMatching; cobra
// compares prefixes as written). For the root it also holds the commands
// cobra adds when it executes (help, completion, __complete), which the
// tree may not hold yet; and a root without Args refuses every word
// before "--" as an unknown command (cobra's legacy rule), so there it
// reports true. The matching is the process's own cobra settings, or
// what exec.AnnotationMatching on c or its root says (a tree read from
// outside); under exec.MatchUnknown it reports true for every word. It
// returns nil when c has no sub-commands.
func subCommandOf(c *cobra.Command) func(string) bool {
	var cmds [][]string // each command's name and aliases
	seen := map[string]bool{}
	for _, sub := range c.Commands() {
		cmds = append(cmds, append([]string{sub.Name()}, sub.Aliases...))
		seen[sub.Name()] = true
	}
	root := !c.HasParent()
	if root && len(cmds) > 0 {
		if !seen["help"] {
			cmds = append(cmds, []string{"help"})
		}
		if !seen[compCmdName] && !c.CompletionOptions.DisableDefaultCmd {
			cmds = append(cmds, []string{compCmdName})
		}
		if !seen[cobra.ShellCompRequestCmd] {
			cmds = append(cmds, []string{cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd})
		}
	}
	if len(cmds) == 0 {
		return nil
	}
	setting, known := matchingOf(c)
	if setting == exec.MatchUnknown || root && c.Args == nil && !c.TraverseChildren {
		return func(string) bool { return true }
	}
	return func(w string) bool {
		prefix, fold := cobra.EnablePrefixMatching, cobra.EnableCaseInsensitive
		if known {
			prefix = strings.Contains(setting, exec.MatchPrefix)
			fold = strings.Contains(setting, exec.MatchCase)
		}
		matches := 0
		for _, names := range cmds {
			hit := false
			for _, n := range names {
				if n == w || fold && strings.EqualFold(n, w) {
					return true
				}
				hit = hit || prefix && strings.HasPrefix(n, w)
			}
			if hit {
				matches++
			}
		}
		return matches == 1
	}
}

// compCmdName is the name of cobra's default completion command.
const compCmdName = "completion"

// matchingOf returns exec.AnnotationMatching of c, or else of its root,
// and whether either has it.
func matchingOf(c *cobra.Command) (string, bool) {
	if m, ok := c.Annotations[exec.AnnotationMatching]; ok {
		return m, true
	}
	m, ok := c.Root().Annotations[exec.AnnotationMatching]
	return m, ok
}

// traverseSubCommand returns, when the root has TraverseChildren and c has
// sub-commands, the function naming the sub-command that cobra's Traverse
// could take a positional arg for, or nil. Traverse takes the "--" before
// the args for a flag awaiting a value and looks the args after the first
// up as sub-commands (hidden and left-out ones too), so "get -- a secret"
// runs "get secret". Matching is by name or alias in any case (whatever
// cobra's EnableCaseInsensitive), and by prefix when cobra's
// EnablePrefixMatching is set.
func traverseSubCommand(c *cobra.Command) func(string) string {
	if !c.Root().TraverseChildren || !c.HasSubCommands() {
		return nil
	}
	return func(a string) string {
		for _, sub := range c.Commands() {
			for _, n := range append([]string{sub.Name()}, sub.Aliases...) {
				if strings.EqualFold(n, a) || cobra.EnablePrefixMatching && strings.HasPrefix(strings.ToLower(n), strings.ToLower(a)) {
					return sub.Name()
				}
			}
		}
		return ""
	}
}
