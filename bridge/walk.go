package bridge

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/dialect"
	"github.com/cobramcp/cobramcp/flagschema"
)

// groupAnnotation marks the command group that Command returns, so that the
// walk leaves it out by identity rather than by name.
const groupAnnotation = "cobramcp.group"

// MaxNameLen is the longest tool name produced. MCP allows 128 characters,
// but Claude Desktop and OpenAI reject a whole tool list holding a longer
// name than 64.
const MaxNameLen = 64

var validName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// Tool is one served command: its MCP definition and how to run it.
type Tool struct {
	// MCP is the definition tools/list returns.
	MCP *mcp.Tool
	// Command is the command the tool runs.
	Command *cobra.Command
	// Path is the command path below the root ("get", "pods").
	Path []string
	// Flags holds the served flags, local and inherited; a flag not in it
	// cannot be set by a call.
	Flags *pflag.FlagSet
	// Timeout bounds a call; negative means no bound.
	Timeout time.Duration

	noParse bool // the command has DisableFlagParsing

	resolveOnce sync.Once
	resolved    *jsonschema.Resolved // a private copy of the input schema, resolved at the first call
	resolveErr  error
}

// validator returns the resolved input schema. It resolves a private deep
// copy at the first call: the published schema shares the subschemas of
// inherited flags with other tools, and resolving writes into a schema.
func (t *Tool) validator() (*jsonschema.Resolved, error) {
	t.resolveOnce.Do(func() {
		t.resolved, t.resolveErr = t.inputSchema().CloneSchemas().Resolve(nil)
		if t.resolveErr != nil {
			t.resolveErr = fmt.Errorf("input schema does not resolve: %w", t.resolveErr)
		}
	})
	return t.resolved, t.resolveErr
}

// Problem is a command or flag left out, with the reason.
type Problem struct {
	Command string // the command's full path
	Tool    string // the tool name, when one was derived
	Flag    string // the flag's name, when the problem is a flag's
	Err     error
}

func (p Problem) String() string {
	s := p.Command
	if p.Tool != "" {
		s += " (tool " + p.Tool + ")"
	}
	if p.Flag != "" {
		s += " flag --" + p.Flag
	}
	return s + ": " + p.Err.Error()
}

// outputSchema is the fixed output schema of every tool.
func outputSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"stdout":   {Type: "string", Description: "what the command wrote to standard output"},
			"stderr":   {Type: "string", Description: "what the command wrote to standard error"},
			"exitCode": {Type: "integer", Description: "the command's exit code; -1 when it was ended by a signal or did not start"},
		},
		PropertyOrder: []string{"stdout", "stderr", "exitCode"},
		Required:      []string{"stdout", "stderr", "exitCode"},
	}
}

// walker reflects one tree.
type walker struct {
	cfg      *Config
	root     *cobra.Command
	tools    []*Tool
	problems []Problem
	flags    map[*pflag.Flag]flagEntry // one schema per flag, shared by every tool that serves it
}

// flagEntry is a flag's schema, checked once.
type flagEntry struct {
	schema     *jsonschema.Schema
	annotation error // the annotation was rejected
	invalid    error // the schema does not resolve or its default does not validate
}

// flagSchema returns f's schema, building and checking it at first use.
func (w *walker) flagSchema(f *pflag.Flag) flagEntry {
	if e, ok := w.flags[f]; ok {
		return e
	}
	var e flagEntry
	e.schema, e.annotation = flagschema.For(f)
	if _, err := e.schema.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true}); err != nil {
		e.invalid = err
	}
	if w.flags == nil {
		w.flags = map[*pflag.Flag]flagEntry{}
	}
	w.flags[f] = e
	return e
}

func (w *walker) problem(c *cobra.Command, tool, flag string, err error) {
	p := Problem{Command: c.CommandPath(), Tool: tool, Flag: flag, Err: err}
	w.problems = append(w.problems, p)
	w.cfg.Logger.Warn("left out of the MCP tools", "command", p.Command, "tool", tool, "flag", flag, "reason", err)
}

func (w *walker) walk(c *cobra.Command) {
	if c.Annotations[groupAnnotation] != "" || isCobraDefault(c) {
		return
	}
	if c.Hidden || c.Deprecated != "" {
		return
	}
	if c.Runnable() {
		if sel, ok := w.selector(c); ok {
			if t, err := w.safeTool(c, sel); err != nil {
				w.problem(c, "", "", err)
			} else {
				w.tools = append(w.tools, t)
			}
		}
	}
	for _, sub := range c.Commands() {
		w.walk(sub)
	}
}

// isCobraDefault reports whether c is cobra's own help or completion
// command, which cobra adds to the root.
func isCobraDefault(c *cobra.Command) bool {
	if c.Parent() == nil || c.Parent().HasParent() {
		return false
	}
	switch c.Name() {
	case "help":
		return c.Short == "Help about any command"
	case "completion", cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd:
		return c.Name() != "completion" || strings.HasPrefix(c.Short, "Generate the autocompletion script")
	}
	return false
}

func (w *walker) selector(c *cobra.Command) (Selector, bool) {
	if len(w.cfg.Selectors) == 0 {
		return Selector{}, true
	}
	for _, s := range w.cfg.Selectors {
		if s.Cmd == nil || s.Cmd(c) {
			return s, true
		}
	}
	return Selector{}, false
}

// toolName derives the name of the tool for c: the command path joined
// with "_", the root's name replaced by the prefix, characters outside
// [a-zA-Z0-9_-] mapped to "_", and names over MaxNameLen shortened with a
// hash of the full name so that they stay distinct.
func (w *walker) toolName(c *cobra.Command) string {
	first := w.root.Name()
	if w.cfg.ToolPrefix != "" {
		first = w.cfg.ToolPrefix
	}
	parts := []string{first}
	if rp := relPath(c); rp != "" {
		parts = append(parts, strings.Split(rp, " ")...)
	}
	return ToolName(strings.Join(parts, "_"))
}

// ToolName maps s to a valid tool name: characters outside [a-zA-Z0-9_-]
// become "_", and a name longer than MaxNameLen keeps its first 55
// characters followed by "_" and 8 hex digits of the SHA-256 of s.
func ToolName(s string) string {
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, s)
	if name == "" {
		name = "_"
	}
	if len(name) > MaxNameLen {
		sum := sha256.Sum256([]byte(s))
		name = name[:MaxNameLen-9] + "_" + hex.EncodeToString(sum[:4])
	}
	return name
}

// safeTool is tool with a panic turned into an error: cobra and pflag panic
// on a broken command (a shorthand used by a local and an inherited flag),
// which must cost that command, not every tool.
func (w *walker) safeTool(c *cobra.Command, sel Selector) (t *Tool, err error) {
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, fmt.Errorf("reflecting the command panicked: %v", r)
		}
	}()
	return w.tool(c, sel)
}

// tool builds the tool for c with the flags that sel serves.
func (w *walker) tool(c *cobra.Command, sel Selector) (*Tool, error) {
	name := w.toolName(c)
	t := &Tool{Command: c, noParse: c.DisableFlagParsing}
	if rp := relPath(c); rp != "" {
		t.Path = strings.Split(rp, " ")
	}
	// The child finds its command by these names; a name that another
	// command earlier in its parent's list has as its name or alias would
	// run that command instead.
	if found, _, err := w.root.Find(t.Path); err != nil || found != c {
		other := "an error"
		if found != nil {
			other = found.CommandPath()
		}
		return nil, fmt.Errorf("its command line %q finds %s, not this command (a name or alias used twice)", strings.Join(t.Path, " "), other)
	}
	timeout := w.cfg.Timeout
	if v, ok := c.Annotations[AnnotationTimeout]; ok {
		d, err := time.ParseDuration(v)
		if err != nil {
			return nil, fmt.Errorf("annotation %s=%q: %w", AnnotationTimeout, v, err)
		}
		timeout = d
	}
	t.Timeout = timeout

	t.Flags = pflag.NewFlagSet(name, pflag.ContinueOnError)
	flagsSchema := &jsonschema.Schema{
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
		Description:          "The command's flags by long name. A flag left out keeps its default.",
	}
	if !t.noParse {
		add := func(f *pflag.Flag, keep func(*pflag.Flag) bool) {
			if f.Hidden || f.Deprecated != "" || f.Name == "help" || len(f.Annotations[cobra.FlagSetByCobraAnnotation]) > 0 {
				return
			}
			if t.Flags.Lookup(f.Name) != nil || (keep != nil && !keep(f)) {
				return
			}
			e := w.flagSchema(f)
			if e.annotation != nil {
				w.problem(c, name, f.Name, fmt.Errorf("jsonschema annotation rejected, using the generated schema: %w", e.annotation))
			}
			if e.invalid != nil {
				w.problem(c, name, f.Name, fmt.Errorf("flag left out: its schema is invalid: %w", e.invalid))
				return
			}
			t.Flags.AddFlag(f)
			flagsSchema.Properties[f.Name] = e.schema
			if isRequired(f) {
				flagsSchema.Required = append(flagsSchema.Required, f.Name)
			}
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) { add(f, sel.LocalFlag) })
		c.InheritedFlags().VisitAll(func(f *pflag.Flag) { add(f, sel.InheritedFlag) })
		// A required flag that is not served would make every call fail
		// inside the command: leave the command out and say why.
		var missing []string
		visit := func(f *pflag.Flag) {
			if isRequired(f) && t.Flags.Lookup(f.Name) == nil && !slices.Contains(missing, f.Name) {
				missing = append(missing, f.Name)
			}
		}
		c.LocalFlags().VisitAll(visit)
		c.InheritedFlags().VisitAll(visit)
		if len(missing) > 0 {
			return nil, fmt.Errorf("required flag %s is not served (hidden, deprecated, excluded by a selector or with an invalid schema), so no call could succeed", flagList(missing))
		}
	}
	sort.Strings(flagsSchema.Required)
	groupText := addFlagGroups(flagsSchema, t.Flags)

	input := &jsonschema.Schema{
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
		PropertyOrder:        []string{"flags", "args"},
	}
	if len(flagsSchema.Properties) > 0 {
		input.Properties["flags"] = flagsSchema
		if len(flagsSchema.Required) > 0 {
			input.Required = []string{"flags"}
		}
	}
	if args := argsSchema(c); args != nil {
		input.Properties["args"] = args
		if args.MinItems != nil && *args.MinItems > 0 {
			input.Required = append(input.Required, "args")
		}
	}

	t.MCP = &mcp.Tool{
		Name:         name,
		Description:  description(c, groupText),
		InputSchema:  input,
		OutputSchema: outputSchema(),
		Annotations:  annotations(c),
	}
	if t.MCP.Annotations != nil {
		t.MCP.Title = t.MCP.Annotations.Title
	}
	t.MCP.Meta = w.meta(c, name)
	return t, nil
}

// meta is the tool record of a tool (seed 003): its id "namespace:name",
// the namespace, the CLI's version and the tags from the command's cobra
// group (its own or its nearest ancestor's) and its AnnotationTags.
func (w *walker) meta(c *cobra.Command, name string) mcp.Meta {
	m := mcp.Meta{"id": dialect.ToolID(w.cfg.Namespace, name)}
	if w.cfg.Namespace != "" {
		m["namespace"] = w.cfg.Namespace
	}
	if v := w.root.Version; v != "" {
		m["version"] = v
	}
	var raw []string
	for p := c; p != nil; p = p.Parent() {
		if p.GroupID != "" {
			raw = append(raw, p.GroupID)
			break
		}
	}
	if v := c.Annotations[AnnotationTags]; v != "" {
		raw = append(raw, strings.Split(v, ",")...)
	}
	if tags := dialect.NormalizeTags(raw); len(tags) > 0 {
		m["tags"] = tags
	}
	return m
}

func isRequired(f *pflag.Flag) bool {
	v := f.Annotations[cobra.BashCompOneRequiredFlag]
	return len(v) > 0 && v[0] == "true"
}

// flagGroups returns cobra's flag groups of one kind among fs's flags,
// each restricted to the served flags, in a stable order.
func flagGroups(fs *pflag.FlagSet, annotation string) [][]string {
	seen := map[string]bool{}
	var groups [][]string
	fs.VisitAll(func(f *pflag.Flag) {
		for _, g := range f.Annotations[annotation] {
			if seen[g] {
				continue
			}
			seen[g] = true
			var names []string
			for _, n := range strings.Fields(g) {
				if fs.Lookup(n) != nil {
					names = append(names, n)
				}
			}
			if len(names) > 0 {
				groups = append(groups, names)
			}
		}
	})
	return groups
}

// Cobra's flag group annotations (flag_groups.go).
const (
	annRequiredTogether  = "cobra_annotation_required_if_others_set"
	annOneRequired       = "cobra_annotation_one_required"
	annMutuallyExclusive = "cobra_annotation_mutually_exclusive"
)

// addFlagGroups expresses cobra's flag groups in the flags schema and
// returns the sentences that state them in the description.
func addFlagGroups(s *jsonschema.Schema, fs *pflag.FlagSet) []string {
	var text []string
	var all []*jsonschema.Schema
	for _, g := range flagGroups(fs, annMutuallyExclusive) {
		if len(g) < 2 {
			continue
		}
		var pairs []*jsonschema.Schema
		for i := range g {
			for j := i + 1; j < len(g); j++ {
				pairs = append(pairs, &jsonschema.Schema{Required: []string{g[i], g[j]}})
			}
		}
		all = append(all, &jsonschema.Schema{Not: &jsonschema.Schema{AnyOf: pairs}})
		text = append(text, "At most one of "+flagList(g)+" may be set.")
	}
	for _, g := range flagGroups(fs, annRequiredTogether) {
		if len(g) < 2 {
			continue
		}
		if s.DependentRequired == nil {
			s.DependentRequired = map[string][]string{}
		}
		for _, n := range g {
			var others []string
			for _, m := range g {
				if m != n {
					others = append(others, m)
				}
			}
			s.DependentRequired[n] = appendUnique(s.DependentRequired[n], others...)
		}
		text = append(text, "Flags "+flagList(g)+" must be set together.")
	}
	for _, g := range flagGroups(fs, annOneRequired) {
		var alts []*jsonschema.Schema
		for _, n := range g {
			alts = append(alts, &jsonschema.Schema{Required: []string{n}})
		}
		all = append(all, &jsonschema.Schema{AnyOf: alts})
		text = append(text, "At least one of "+flagList(g)+" must be set.")
	}
	if len(all) == 1 {
		if all[0].Not != nil {
			s.Not = all[0].Not
		} else {
			s.AnyOf = all[0].AnyOf
		}
	} else if len(all) > 1 {
		s.AllOf = all
	}
	return text
}

func appendUnique(list []string, xs ...string) []string {
	for _, x := range xs {
		if !slices.Contains(list, x) {
			list = append(list, x)
		}
	}
	return list
}

func flagList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "--" + n
	}
	return strings.Join(q, ", ")
}

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

// description composes the tool description from the command's texts.
func description(c *cobra.Command, groups []string) string {
	var parts []string
	short, long := strings.TrimSpace(c.Short), strings.TrimSpace(c.Long)
	if short != "" {
		parts = append(parts, short)
	}
	if long != "" && long != short {
		parts = append(parts, long)
	}
	parts = append(parts, "Usage: "+c.UseLine())
	if len(groups) > 0 {
		parts = append(parts, strings.Join(groups, " "))
	}
	if ex := strings.TrimRight(c.Example, " \n"); strings.TrimSpace(ex) != "" {
		parts = append(parts, "Examples:\n"+ex)
	}
	return strings.Join(parts, "\n\n")
}

func annotations(c *cobra.Command) *mcp.ToolAnnotations {
	a := &mcp.ToolAnnotations{Title: c.Annotations[AnnotationTitle]}
	set := false
	if b, ok := boolAnnotation(c, AnnotationReadOnly); ok {
		a.ReadOnlyHint, set = b, true
	}
	if b, ok := boolAnnotation(c, AnnotationIdempotent); ok {
		a.IdempotentHint, set = b, true
	}
	if b, ok := boolAnnotation(c, AnnotationDestructive); ok {
		a.DestructiveHint, set = &b, true
	}
	if b, ok := boolAnnotation(c, AnnotationOpenWorld); ok {
		a.OpenWorldHint, set = &b, true
	}
	if !set && a.Title == "" {
		return nil
	}
	return a
}

func boolAnnotation(c *cobra.Command, key string) (bool, bool) {
	v, ok := c.Annotations[key]
	if !ok {
		return false, false
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "1", "yes":
		return true, true
	case "false", "0", "no":
		return false, true
	}
	return false, false
}

// inputSchema is the tool's input schema as built by the walk.
func (t *Tool) inputSchema() *jsonschema.Schema { return t.MCP.InputSchema.(*jsonschema.Schema) }
