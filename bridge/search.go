package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Search mode lists three tools instead of one per command: search (a
// query to the best matching commands), describe (one command's schema and
// help) and run (a command with its flags and args, through the call path
// of the per-command tool). See docs/design.md.

// Defaults and bounds of the search tool's limit.
const (
	searchDefaultLimit = 8
	searchMaxLimit     = 25
)

// searchMode holds the three tools of search mode and the index behind
// search.
type searchMode struct {
	ts                        *Toolset
	searchName, describe, run string
	defs                      []*mcp.Tool
	docs                      []searchDoc
	df                        map[string]int // documents containing each term
	pathOf                    map[string]*Tool
}

// searchDoc is one command as the search sees it: its terms with the
// weight of the field they come from (the best one).
type searchDoc struct {
	tool  *Tool
	terms map[string]float64
	path  string   // the command path below the root
	words []string // the path's terms
}

// Weights of the fields a term is found in.
const (
	weightPath  = 3.0
	weightShort = 2.0
	weightFlag  = 1.0
	weightLong  = 0.5
	// Example comments ("# List all pods in ps output format") say in
	// words what a command is for, as a person would ask for it.
	weightExample = 1.0
	// pathCoverage is how much a command's score depends on how much
	// of its path the query explains.
	pathCoverage = 0.65
)

func newSearchMode(ts *Toolset) *searchMode {
	prefix := ts.root.Name()
	if ts.cfg.ToolPrefix != "" {
		prefix = ts.cfg.ToolPrefix
	}
	m := &searchMode{
		ts:         ts,
		searchName: ToolName(prefix + "_search"),
		describe:   ToolName(prefix + "_describe"),
		run:        ToolName(prefix + "_run"),
		df:         map[string]int{},
		pathOf:     map[string]*Tool{},
	}
	for _, t := range ts.tools {
		d := searchDoc{tool: t, terms: map[string]float64{}, path: relPath(t.Command)}
		d.words = terms(d.path)
		add := func(text string, w float64) {
			for _, term := range terms(text) {
				if d.terms[term] < w {
					d.terms[term] = w
				}
			}
		}
		for c := t.Command; c.HasParent(); c = c.Parent() {
			add(c.Name(), weightPath)
			for _, a := range c.Aliases {
				add(a, weightPath)
			}
		}
		add(t.Command.Short, weightShort)
		if t.MCP.Title != "" {
			add(t.MCP.Title, weightShort)
		}
		t.Flags.VisitAll(func(f *pflagFlag) {
			add(f.Name, weightFlag)
			if t.Command.LocalFlags().Lookup(f.Name) != nil {
				add(f.Usage, weightLong)
			}
		})
		add(firstParagraph(t.Command.Long), weightLong)
		add(exampleComments(t.Command.Example), weightExample)
		for term := range d.terms {
			m.df[term]++
		}
		m.docs = append(m.docs, d)
		m.pathOf[d.path] = t
	}
	m.defs = m.definitions()
	return m
}

// names lists the three tools' names, for messages.
func (m *searchMode) names() string {
	return m.searchName + ", " + m.describe + " and " + m.run
}

// tools returns the three definitions, sorted by name.
func (m *searchMode) tools() []*mcp.Tool { return m.defs }

// handler returns the call of the tool named name, or nil.
func (m *searchMode) handler(name string) func(context.Context, json.RawMessage, progressFunc) *mcp.CallToolResult {
	switch name {
	case m.searchName:
		return func(_ context.Context, a json.RawMessage, _ progressFunc) *mcp.CallToolResult { return m.callSearch(a) }
	case m.describe:
		return func(_ context.Context, a json.RawMessage, _ progressFunc) *mcp.CallToolResult {
			return m.callDescribe(a)
		}
	case m.run:
		return m.callRun
	}
	return nil
}

func (m *searchMode) definitions() []*mcp.Tool {
	cli := m.ts.root.Name()
	n := len(m.ts.tools)
	str := func(desc string) *jsonschema.Schema { return &jsonschema.Schema{Type: "string", Description: desc} }
	no := &jsonschema.Schema{Not: &jsonschema.Schema{}}
	f := false
	commandDesc := "the command: its name from " + m.searchName + " (e.g. " + m.ts.tools[0].MCP.Name + ") or its path (\"" + relPathOr(m.ts.tools[0]) + "\")"
	search := &mcp.Tool{
		Name:  m.searchName,
		Title: "Search " + cli + " commands",
		Description: fmt.Sprintf("Find the %s commands for a task: %d commands are served through this search. "+
			"Returns the best matches, each with its name, what it does and its usage line. "+
			"Then call %s for a command's flags and args, and %s to run it.%s",
			cli, n, m.describe, m.run, m.topWords()),
		InputSchema: &jsonschema.Schema{
			Type: "object",
			Properties: map[string]*jsonschema.Schema{
				"query": str("what you want to do, in words or command names, e.g. \"list pods in a namespace\""),
				"limit": {Type: "integer", Minimum: ptr(1.0), Maximum: ptr(float64(searchMaxLimit)), Description: fmt.Sprintf("at most this many results (default %d)", searchDefaultLimit)},
			},
			PropertyOrder:        []string{"query", "limit"},
			Required:             []string{"query"},
			AdditionalProperties: no,
		},
		Annotations: &mcp.ToolAnnotations{Title: "Search " + cli + " commands", ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: &f, OpenWorldHint: &f},
	}
	describe := &mcp.Tool{
		Name:        m.describe,
		Title:       "Describe a " + cli + " command",
		Description: fmt.Sprintf("Describe one %s command: its help, usage, examples and the full JSON Schema of the arguments %s takes for it ({\"flags\": {...}, \"args\": [...]}).", cli, m.run),
		InputSchema: &jsonschema.Schema{
			Type:                 "object",
			Properties:           map[string]*jsonschema.Schema{"command": str(commandDesc)},
			Required:             []string{"command"},
			AdditionalProperties: no,
		},
		Annotations: &mcp.ToolAnnotations{Title: "Describe a " + cli + " command", ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: &f, OpenWorldHint: &f},
	}
	run := &mcp.Tool{
		Name:  m.run,
		Title: "Run a " + cli + " command",
		Description: fmt.Sprintf("Run one %s command with its flags and positional args, validated against the schema %s shows "+
			"(an unknown flag or a wrong type is refused and nothing runs). Returns the command's stdout, stderr and exit code.", cli, m.describe),
		InputSchema: &jsonschema.Schema{
			Type: "object",
			Properties: map[string]*jsonschema.Schema{
				"command": str(commandDesc),
				"flags":   {Type: "object", Description: "the command's flags by long name, as " + m.describe + " shows them; a flag left out keeps its default"},
				"args":    {Type: "array", Items: &jsonschema.Schema{Type: "string"}, Description: "positional args"},
				"argsAfterDash": {Type: "array", Items: &jsonschema.Schema{Type: "string"},
					Description: "the words after \"--\", for a command whose usage shows \" -- \" (" + m.describe + " shows whether it takes them)"},
			},
			PropertyOrder: []string{"command", "flags", "args", "argsAfterDash"},
			Required:      []string{"command"},
		},
		OutputSchema: outputSchema(),
		Annotations:  m.runAnnotations(),
	}
	run.Title = run.Annotations.Title
	defs := []*mcp.Tool{search, describe, run}
	sort.Slice(defs, func(i, j int) bool { return defs[i].Name < defs[j].Name })
	return defs
}

func ptr[T any](v T) *T { return &v }

// relPathOr is t's command path below the root, or the root's name for
// the root itself.
func relPathOr(t *Tool) string {
	if p := relPath(t.Command); p != "" {
		return p
	}
	return t.Command.Name()
}

// topWords names the first words of the served commands' paths, at most
// about 400 bytes of them, so that a model knows the vocabulary.
func (m *searchMode) topWords() string {
	seen := map[string]bool{}
	var words []string
	for _, d := range m.docs {
		w, _, _ := strings.Cut(d.path, " ")
		if w != "" && !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	sort.Strings(words)
	var b strings.Builder
	for i, w := range words {
		if b.Len()+len(w) > 400 {
			fmt.Fprintf(&b, ", and %d more", len(words)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(w)
	}
	if b.Len() == 0 {
		return ""
	}
	return " Top-level commands: " + b.String() + "."
}

// runAnnotations are the run tool's hints, true to every command it can
// run: read-only only when all are, destructive when any may be, and so on
// (MCP's defaults: not read-only, destructive, not idempotent, open world).
func (m *searchMode) runAnnotations() *mcp.ToolAnnotations {
	ro, idem, destr, open := true, true, false, false
	for _, t := range m.ts.tools {
		a := t.MCP.Annotations
		if a == nil {
			a = &mcp.ToolAnnotations{}
		}
		ro = ro && a.ReadOnlyHint
		idem = idem && a.IdempotentHint
		if !a.ReadOnlyHint && (a.DestructiveHint == nil || *a.DestructiveHint) {
			destr = true
		}
		if a.OpenWorldHint == nil || *a.OpenWorldHint {
			open = true
		}
	}
	title := "Run a " + m.ts.root.Name() + " command"
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: ro, IdempotentHint: idem, DestructiveHint: &destr, OpenWorldHint: &open}
}

// decodeMeta decodes the arguments of a search-mode tool into v, refusing
// unknown members.
func decodeMeta(arguments json.RawMessage, v any) error {
	a := bytes.TrimSpace(arguments)
	if len(a) == 0 || bytes.Equal(a, []byte("null")) {
		a = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(a))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("invalid arguments: %v", err)
	}
	return nil
}

// searchResult is one command found by search.
type searchResult struct {
	Command  string `json:"command"`
	Summary  string `json:"summary,omitempty"`
	Usage    string `json:"usage"`
	ReadOnly bool   `json:"readOnly,omitempty"`
}

// searchOutput is the search tool's result.
type searchOutput struct {
	Results []searchResult `json:"results"`
	More    int            `json:"more,omitempty"` // further matches beyond the limit
	Next    string         `json:"next"`
}

func (m *searchMode) callSearch(arguments json.RawMessage) *mcp.CallToolResult {
	var in struct {
		Query *string `json:"query"`
		Limit *int    `json:"limit"`
	}
	if err := decodeMeta(arguments, &in); err != nil {
		return errorResult(fmt.Sprintf("%s: %v; want {\"query\": \"...\", \"limit\": N}", m.searchName, err))
	}
	if in.Query == nil || strings.TrimSpace(*in.Query) == "" {
		return errorResult(fmt.Sprintf("%s: \"query\" is required: say in words what you want to do", m.searchName))
	}
	limit := searchDefaultLimit
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > searchMaxLimit {
			return errorResult(fmt.Sprintf("%s: \"limit\" %d: want 1 to %d", m.searchName, *in.Limit, searchMaxLimit))
		}
		limit = *in.Limit
	}
	found := m.Search(*in.Query)
	out := searchOutput{Results: []searchResult{}}
	for i, t := range found {
		if i == limit {
			out.More = len(found) - limit
			break
		}
		out.Results = append(out.Results, searchResult{
			Command:  t.MCP.Name,
			Summary:  oneLine(t.Command.Short),
			Usage:    t.Command.UseLine(),
			ReadOnly: t.ReadOnly(),
		})
	}
	if len(out.Results) == 0 {
		out.Next = "no command matches; try other words or a command name." + m.topWords()
	} else {
		out.Next = fmt.Sprintf("call %s {\"command\": NAME} for a command's flags, then %s {\"command\": NAME, \"flags\": {...}, \"args\": [...]}", m.describe, m.run)
	}
	return jsonResult(out)
}

// jsonResult is a successful result carrying v as structured content and
// as JSON text.
func jsonResult(v any) *mcp.CallToolResult {
	b, err := json.Marshal(v)
	if err != nil {
		return errorResult(fmt.Sprintf("encoding the result: %v", err))
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}
}

// Search returns the served commands matching query, best first: each
// query word (lower case, plural and -ing forms folded, a few synonyms
// such as list/get) counts by where the command has it (path, short
// description, flag names, long description) and by how rare it is among
// the commands; two adjacent words also count joined ("roll back" finds
// rollback).
func (m *searchMode) Search(query string) []*Tool {
	q := terms(query)
	if len(q) == 0 {
		return nil
	}
	raw := words(query)
	for i := 0; i+1 < len(raw); i++ {
		q = append(q, stem(raw[i]+raw[i+1]))
	}
	n := float64(len(m.docs))
	type scored struct {
		d     *searchDoc
		score float64
	}
	var hits []scored
	norm := strings.Join(raw, " ")
	for i := range m.docs {
		d := &m.docs[i]
		score, matched := 0.0, 0
		for _, term := range q {
			w, df := d.match(term, m.df)
			if w == 0 {
				continue
			}
			matched++
			score += w * math.Log(1+n/float64(df))
		}
		if score == 0 {
			continue
		}
		if strings.Contains(norm, d.path) {
			score *= 1.5 // the query names the command
		}
		// Prefer a command whose path the query explains: "list pods"
		// is get (list is a synonym) more than top pod.
		if len(d.words) > 0 {
			covered := 0
			for _, w := range d.words {
				for _, term := range q {
					if term == w || slices.Contains(synonyms()[term], w) {
						covered++
						break
					}
				}
			}
			score *= 1 - pathCoverage + pathCoverage*float64(covered)/float64(len(d.words))
		}
		score *= 1 + float64(matched)/float64(len(q))
		hits = append(hits, scored{d, score})
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		li, lj := strings.Count(hits[i].d.path, " "), strings.Count(hits[j].d.path, " ")
		if li != lj {
			return li < lj
		}
		return hits[i].d.tool.MCP.Name < hits[j].d.tool.MCP.Name
	})
	out := make([]*Tool, len(hits))
	for i, h := range hits {
		out[i] = h.d.tool
	}
	return out
}

// match returns the weight with which d has term (exactly, or as a
// synonym or a prefix, for less) and the document frequency to use.
func (d *searchDoc) match(term string, df map[string]int) (float64, int) {
	best, bdf := d.terms[term], df[term]
	for _, s := range synonyms()[term] {
		if w := d.terms[s] * 0.7; w > best {
			best, bdf = w, df[s]
		}
	}
	if best > 0 {
		return best, bdf
	}
	if len(term) >= 4 {
		for t, w := range d.terms {
			if len(t) >= 4 && (strings.HasPrefix(t, term) || strings.HasPrefix(term, t)) && w*0.5 > best {
				best, bdf = w*0.5, df[t]
			}
		}
	}
	return best, bdf
}

// synonyms maps a (stemmed) word to words of the same meaning in CLIs.
var synonyms = sync.OnceValue(func() map[string][]string {
	groups := [][]string{
		{"list", "get", "ls", "show", "display", "view", "print"},
		{"delete", "remove", "rm", "destroy", "erase", "uninstall", "del"},
		{"create", "add", "new", "make", "install"},
		{"rollback", "undo", "revert"},
		{"update", "edit", "modify", "change", "patch", "upgrade"},
		{"run", "exec", "execute"},
		{"stop", "kill", "halt", "terminate"},
		{"describe", "inspect", "detail", "info"},
		{"scale", "resize", "replica"},
		{"copy", "cp"},
		{"move", "mv", "rename"},
		{"namespace", "ns"},
		{"restart", "reboot"},
		{"search", "find", "lookup"},
		{"config", "configuration", "setting"},
		{"secret", "credential", "password"},
		{"log", "output"},
		{"label", "tag"},
		{"use", "switch", "select"},
	}
	m := map[string][]string{}
	for _, g := range groups {
		for _, w := range g {
			w = stem(w)
			for _, o := range g {
				if o = stem(o); o != w {
					m[w] = append(m[w], o)
				}
			}
		}
	}
	return m
})

// stopWords are dropped from queries and documents.
var stopWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"a": true, "an": true, "the": true, "in": true, "on": true, "of": true, "for": true, "to": true,
		"from": true, "with": true, "by": true, "and": true, "or": true, "all": true, "my": true, "me": true,
		"i": true, "is": true, "are": true, "be": true, "it": true, "its": true, "this": true, "that": true,
		"what": true, "how": true, "do": true, "does": true, "can": true, "please": true, "some": true,
		"any": true, "each": true, "every": true, "into": true, "via": true, "using": true, "at": true,
		"want": true, "need": true, "one": true, "or-more": true, "many": true, "given": true, "which": true,
	}
})

// words splits text into lower-case words of letters and digits.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// terms returns the stemmed words of text without stop words.
func terms(text string) []string {
	var out []string
	for _, w := range words(text) {
		if stopWords()[w] {
			continue
		}
		out = append(out, stem(w))
	}
	return out
}

// stem folds plural and -ing/-ed forms: pods -> pod, releases -> release,
// policies -> policy, running -> run.
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:len(w)-1]
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		w = w[:len(w)-3]
		if n := len(w); n > 2 && w[n-1] == w[n-2] {
			w = w[:n-1] // running -> run
		}
		return w
	}
	return w
}

// exampleComments returns the comment lines of a command's Example, the
// words that say what each example does ("# List all pods").
func exampleComments(ex string) string {
	var b strings.Builder
	for _, l := range strings.Split(ex, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "#") {
			b.WriteString(strings.TrimLeft(l, "# "))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// firstParagraph is the text up to the first blank line.
func firstParagraph(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "\n\n"); i >= 0 {
		return s[:i]
	}
	return s
}

// oneLine is s on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// lookupCommand finds a served command by tool name or by command path,
// with or without the CLI's name in front.
func (m *searchMode) lookupCommand(name string) (*Tool, error) {
	if t, ok := m.ts.byName[name]; ok {
		return t, nil
	}
	p := strings.Join(strings.Fields(name), " ")
	if t := m.pathOf[p]; t != nil {
		return t, nil
	}
	if rest, ok := strings.CutPrefix(p, m.ts.root.Name()+" "); ok {
		if t := m.pathOf[rest]; t != nil {
			return t, nil
		}
	}
	msg := fmt.Sprintf("no served command %q", name)
	if found := m.Search(name); len(found) > 0 {
		var names []string
		for i, t := range found {
			if i == 3 {
				break
			}
			names = append(names, t.MCP.Name)
		}
		msg += "; did you mean " + strings.Join(names, ", ") + "?"
	} else {
		msg += "; find one with " + m.searchName
	}
	return nil, fmt.Errorf("%s", msg)
}

// describeOutput is the describe tool's result.
type describeOutput struct {
	Command     string               `json:"command"`
	Path        string               `json:"path"`
	Summary     string               `json:"summary,omitempty"`
	Description string               `json:"description,omitempty"`
	Usage       string               `json:"usage"`
	Aliases     []string             `json:"aliases,omitempty"`
	Examples    string               `json:"examples,omitempty"`
	InputSchema any                  `json:"inputSchema"`
	Pinned      map[string]any       `json:"pinned,omitempty"`
	Annotations *mcp.ToolAnnotations `json:"annotations,omitempty"`
	Call        string               `json:"call"`
}

func (m *searchMode) callDescribe(arguments json.RawMessage) *mcp.CallToolResult {
	var in struct {
		Command *string `json:"command"`
	}
	if err := decodeMeta(arguments, &in); err != nil {
		return errorResult(fmt.Sprintf("%s: %v; want {\"command\": NAME}", m.describe, err))
	}
	if in.Command == nil || *in.Command == "" {
		return errorResult(fmt.Sprintf("%s: \"command\" is required (a name from %s)", m.describe, m.searchName))
	}
	t, err := m.lookupCommand(*in.Command)
	if err != nil {
		return errorResult(fmt.Sprintf("%s: %v", m.describe, err))
	}
	c := t.Command
	out := describeOutput{
		Command:     t.MCP.Name,
		Path:        c.CommandPath(),
		Summary:     oneLine(c.Short),
		Description: strings.TrimSpace(c.Long),
		Usage:       c.UseLine(),
		Aliases:     c.Aliases,
		Examples:    c.Example,
		InputSchema: m.ts.describedSchema(t),
		Annotations: t.MCP.Annotations,
		Call:        fmt.Sprintf("%s {\"command\": %q, \"flags\": {...}, \"args\": [...]}", m.run, t.MCP.Name),
	}
	if pins := m.ts.view.pins[t.MCP.Name]; len(pins) > 0 {
		out.Pinned = map[string]any{}
		for k, v := range pins {
			out.Pinned[k] = v
		}
	}
	return jsonResult(out)
}

func (m *searchMode) callRun(ctx context.Context, arguments json.RawMessage, progress progressFunc) *mcp.CallToolResult {
	a := bytes.TrimSpace(arguments)
	var top map[string]json.RawMessage
	if err := json.Unmarshal(a, &top); err != nil || top == nil {
		return errorResult(fmt.Sprintf("%s: the arguments must be a JSON object {\"command\": NAME, \"flags\": {...}, \"args\": [...]}. Nothing was run.", m.run))
	}
	var name string
	if raw, ok := top["command"]; !ok || json.Unmarshal(raw, &name) != nil || name == "" {
		return errorResult(fmt.Sprintf("%s: \"command\" must name the command to run (a name from %s). Nothing was run.", m.run, m.searchName))
	}
	t, err := m.lookupCommand(name)
	if err != nil {
		return errorResult(fmt.Sprintf("%s: %v. Nothing was run.", m.run, err))
	}
	delete(top, "command")
	rest, err := json.Marshal(top)
	if err != nil {
		return errorResult(fmt.Sprintf("%s: %v. Nothing was run.", m.run, err))
	}
	return m.ts.callServed(ctx, t, rest, progress)
}
