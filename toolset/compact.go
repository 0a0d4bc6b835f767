package toolset

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The compact listing (the default; Listing.Expanded turns it off) states
// each byte a model needs once:
//
//   - the shared flags (see sharedFlags) leave every tool's listed schema;
//     the server instructions state them once with their meanings, the
//     listed "flags" object names them with their JSON types in its
//     description (see sharedFlagsNote), and it does not forbid other
//     names, so a client that validates
//     arguments against the listed schema lets them through. The server
//     validates every call against the tool's expanded schema, exactly as
//     in the expanded listing.
//   - the description is the first paragraph of Long (or Short), the usage
//     line, the flag groups and at most maxExamples examples, never over
//     maxDescription bytes; what is left out is marked.
//   - the output schema states {stdout, stderr, exitCode} without prose.

// maxDescription is the most bytes of a tool description in the compact
// listing: Claude Code cuts longer descriptions.
const maxDescription = 2048

// maxExamples is how many examples a compact description keeps.
const maxExamples = 3

// cutMark ends a text that was cut to fit.
const cutMark = " …(cut)"

// sharedFlags returns the flags that are stated once rather than in every
// tool, sorted by name: each flag inherited from an ancestor that every
// tool parsing flags either serves (the same flag) or shadows with a flag
// of its own of that name, except the required ones and those in a flag
// group (they stay in each tool, where their rules are stated). A tool's
// own flag of a shared name stays in its schema. There are none unless at
// least two tools parse flags. served maps a flag of the tree to the one
// the tools serve in its place (see walker.servedFlag), when they differ.
func sharedFlags(tools []*Tool, served map[*pflag.Flag]*pflag.Flag) []*pflag.Flag {
	var withFlags []*Tool
	for _, t := range tools {
		if !t.noParse {
			withFlags = append(withFlags, t)
		}
	}
	if len(withFlags) < 2 {
		return nil
	}
	candidates := map[*pflag.Flag]bool{}
	for _, t := range withFlags {
		t.Command.InheritedFlags().VisitAll(func(f *pflag.Flag) {
			if s, ok := served[f]; ok {
				f = s
			}
			if t.Flags.Lookup(f.Name) == f && !isRequired(f) && !inGroup(f) {
				candidates[f] = true
			}
		})
	}
	var out []*pflag.Flag
	for f := range candidates {
		everywhere := true
		for _, t := range withFlags {
			served := t.Flags.Lookup(f.Name) != nil
			shadowed := served && t.Flags.Lookup(f.Name) != f
			if !served && t.Command.Flags().Lookup(f.Name) != nil {
				shadowed = true // its own flag of that name, not served
			}
			if !served && !shadowed {
				everywhere = false
				break
			}
		}
		if everywhere {
			out = append(out, f)
		}
	}
	// Two different inherited flags of one name (a sub-tree redefines a
	// persistent flag, as kubectl config does --kubeconfig) cannot both be
	// stated once under that name: keep the one more tools serve, neither
	// on a tie.
	servedBy := func(f *pflag.Flag) int {
		n := 0
		for _, t := range withFlags {
			if t.Flags.Lookup(f.Name) == f {
				n++
			}
		}
		return n
	}
	slices.SortFunc(out, func(a, b *pflag.Flag) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return servedBy(b) - servedBy(a)
	})
	for i := 0; i+1 < len(out); {
		if out[i].Name != out[i+1].Name {
			i++
			continue
		}
		n, tie := out[i].Name, servedBy(out[i]) == servedBy(out[i+1])
		first := out[i]
		out = slices.DeleteFunc(out, func(f *pflag.Flag) bool { return f.Name == n && (tie || f != first) })
		if !tie {
			i++
		}
	}
	return out
}

// inGroup reports whether f belongs to one of cobra's flag groups.
func inGroup(f *pflag.Flag) bool {
	for _, a := range []string{annRequiredTogether, annOneRequired, annMutuallyExclusive} {
		if len(f.Annotations[a]) > 0 {
			return true
		}
	}
	return false
}

// sharedFlagsNote is the description of a compact "flags" object when
// shared flags were left out of it: it names them with their JSON types
// (name to type in unlisted, less those in skip), so that a model whose
// client drops the server instructions, and an exported listing, which
// has none, can still set them. The instructions state their meanings
// once. With nothing to name it says only what the object is.
func sharedFlagsNote(unlisted map[string]string, skip func(string) bool) string {
	byType := map[string][]string{}
	for name, typ := range unlisted {
		if skip == nil || !skip(name) {
			byType[typ] = append(byType[typ], name)
		}
	}
	if len(byType) == 0 {
		return "The command's flags."
	}
	types := slices.SortedFunc(maps.Keys(byType), func(a, b string) int {
		if c := typeRank(a) - typeRank(b); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(types))
	for i, typ := range types {
		slices.Sort(byType[typ])
		parts[i] = typ + ": " + strings.Join(byType[typ], ", ")
	}
	return "The command's flags; also, not listed, the shared flags (" + strings.Join(parts, "; ") + ")."
}

// typeRank orders the types of sharedFlagsNote: the common ones first.
func typeRank(typ string) int {
	if i := slices.Index([]string{"string", "boolean", "integer", "number", "array", "object"}, typ); i >= 0 {
		return i
	}
	return 6
}

// jsonType names the JSON type of a flag's schema for sharedFlagsNote:
// its type, its types joined with "|", or "any".
func jsonType(s *jsonschema.Schema) string {
	switch {
	case s.Type != "":
		return s.Type
	case len(s.Types) > 0:
		return strings.Join(s.Types, "|")
	}
	return "any"
}

// compactTool returns the compact definition of t: its expanded
// definition without the shared flags, with a short description and a
// small output schema (output, shared by every tool). The expanded
// definition is not changed.
//
// It also sets t.unlisted, the shared flags left out of the schema.
func compactTool(t *Tool, shared map[*pflag.Flag]bool, brief func(*jsonschema.Schema) *jsonschema.Schema, output *jsonschema.Schema) *mcp.Tool {
	full := t.expanded
	cp := *full
	cp.Description = compactDescription(t.Command, t.groupText)
	cp.OutputSchema = output
	in := *t.inputSchema()
	in.Properties = maps.Clone(in.Properties)
	if flags := in.Properties["flags"]; flags != nil {
		f := *flags
		f.Properties = map[string]*jsonschema.Schema{}
		t.unlisted = map[string]string{}
		for name, p := range flags.Properties {
			if shared[t.Flags.Lookup(name)] {
				t.unlisted[name] = jsonType(p)
			} else {
				f.Properties[name] = brief(p)
			}
		}
		if len(t.unlisted) > 0 {
			f.AdditionalProperties = nil
			f.Description = sharedFlagsNote(t.unlisted, nil)
		}
		in.Properties["flags"] = &f
	}
	cp.InputSchema = &in
	return &cp
}

// compactOutputSchema is the output schema of the compact listing: the
// fields of Output and their types, without prose.
func compactOutputSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"stdout":   {Type: "string"},
			"stderr":   {Type: "string"},
			"exitCode": {Type: "integer"},
			"timedOut": {Type: "boolean"},
		},
		PropertyOrder: []string{"stdout", "stderr", "exitCode", "timedOut"},
		Required:      []string{"stdout", "stderr", "exitCode"},
	}
}

// compactDescription is a tool's description in the compact listing: the
// first paragraph of Long (Short when Long is empty), marked "…" when more
// paragraphs follow; the usage line; the flag groups; at most maxExamples
// examples, with the count of those left out. The whole is cut at
// maxDescription bytes with cutMark.
func compactDescription(c *cobra.Command, groups []string) string {
	var parts []string
	lead := strings.TrimSpace(c.Short)
	if paras := paragraphs(c.Long); len(paras) > 0 {
		lead = paras[0]
		if len(paras) > 1 {
			lead += " …"
		}
	}
	if lead != "" {
		parts = append(parts, lead)
	}
	parts = append(parts, "Usage: "+c.UseLine())
	if len(groups) > 0 {
		parts = append(parts, strings.Join(groups, " "))
	}
	if ex := examples(c.Example); len(ex) > 0 {
		text := "Examples:\n" + strings.Join(ex[:min(len(ex), maxExamples)], "\n")
		if n := len(ex) - maxExamples; n > 0 {
			text += "\n  …" + plural(n, " more example", " more examples")
		}
		parts = append(parts, text)
	}
	return cut(strings.Join(parts, "\n\n"), maxDescription)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1" + one
	}
	return strconv.Itoa(n) + many
}

// paragraphs splits text at blank lines, each paragraph trimmed, empty
// ones dropped.
func paragraphs(text string) []string {
	var out []string
	var cur []string
	flush := func() {
		if p := strings.TrimSpace(strings.Join(cur, "\n")); p != "" {
			out = append(out, p)
		}
		cur = cur[:0]
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		cur = append(cur, line)
	}
	flush()
	return out
}

// examples splits a cobra Example into examples: blocks separated by blank
// lines (a comment and its command lines, as kubectl writes them), or,
// when there is a single block of several commands without comments, its
// lines. Indentation is kept.
func examples(text string) []string {
	var blocks []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			blocks = append(blocks, strings.Join(cur, "\n"))
		}
		cur = nil
	}
	for _, line := range strings.Split(strings.TrimRight(text, " \t\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		cur = append(cur, strings.TrimRight(line, " \t"))
	}
	flush()
	if len(blocks) == 1 && !strings.Contains(blocks[0], "#") && !strings.Contains(blocks[0], "\\\n") {
		return strings.Split(blocks[0], "\n")
	}
	return blocks
}

// cut returns s if it fits in max bytes, else its longest prefix that fits
// with cutMark appended, cut at a rune boundary.
func cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := max - len(cutMark)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.TrimRight(s[:n], " \n") + cutMark
}

// compact replaces each tool's listed definition by its compact form;
// served is the walk's map of flags served in place of the tree's.
func (ts *Toolset) compact(served map[*pflag.Flag]*pflag.Flag) {
	ts.shared = sharedFlags(ts.tools, served)
	set := make(map[*pflag.Flag]bool, len(ts.shared))
	for _, f := range ts.shared {
		set[f] = true
	}
	briefs := map[*jsonschema.Schema]*jsonschema.Schema{}
	brief := func(p *jsonschema.Schema) *jsonschema.Schema {
		if b, ok := briefs[p]; ok {
			return b
		}
		b := p
		if d := briefUsage(p.Description); d != p.Description {
			cp := *p
			cp.Description = d
			b = &cp
		}
		briefs[p] = b
		return b
	}
	output := compactOutputSchema()
	for _, t := range ts.tools {
		t.compact = compactTool(t, set, brief, output)
	}
}

// maxBriefUsage is the length above which a flag's description is
// shortened to its first sentence in the compact listing.
const maxBriefUsage = 160

// briefUsage shortens a long flag description to its first sentence,
// marked " …", keeping a closing parenthesis that flagschema appended
// (the value's syntax, its default when given without a value). A text
// without a sentence end is kept whole.
func briefUsage(d string) string {
	if len(d) <= maxBriefUsage {
		return d
	}
	end := sentenceEnd(d)
	if end < 0 || end >= len(d)-1 {
		return d
	}
	tail := ""
	if strings.HasSuffix(d, ")") {
		if p := strings.LastIndex(d, " ("); p > end {
			tail = d[p:]
		}
	}
	return d[:end] + " …" + tail
}

// sentenceEnd returns the index just past the first sentence of d: a '.'
// followed by white space and an upper-case letter or a quote. It returns
// -1 when there is none.
func sentenceEnd(d string) int {
	for i := 0; i+2 < len(d); i++ {
		if d[i] != '.' || (d[i+1] != ' ' && d[i+1] != '\n') {
			continue
		}
		j := i + 1
		for j < len(d) && (d[j] == ' ' || d[j] == '\n') {
			j++
		}
		if j < len(d) && (d[j] >= 'A' && d[j] <= 'Z' || d[j] == '"' || d[j] == '\'') {
			return i + 1
		}
	}
	return -1
}

// describedSchema is the input schema a describe answer shows for t: the
// expanded one (the shared flags included, with their whole descriptions),
// without the flags a pin fixes.
func (s *Served) describedSchema(t *Tool) any {
	if p := s.pins[t.Name]; p != nil {
		return p.check.schema
	}
	return t.expanded.InputSchema
}

// sharedUnless is shared, or nothing when the listing is expanded.
func sharedUnless(shared []*pflag.Flag, expanded bool) []*pflag.Flag {
	if expanded {
		return nil
	}
	return shared
}
