package toolset

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/cobramcp/cobramcp/internal/rank"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Search mode lists four tools instead of one per command: search (a
// query to the best matching commands, ranked by package rank), list (the
// commands under a group, two levels an answer), describe (one command's
// schema and help) and run (a command with its flags and args, through the
// call path of the per-command tool). See docs/design.md.

// Defaults and bounds of the search tool's limit.
const (
	searchDefaultLimit = 8
	searchMaxLimit     = 25
)

// searchMode holds the tools of search mode and the index behind search.
type searchMode struct {
	cli                             string  // the root command's name
	served                          []*Tool // the served tools, sorted by name
	byName                          map[string]*Tool
	searchName, describe, run, list string
	defs                            []*mcp.Tool
	pathOf                          map[string]*Tool // the served tools by path below the root
	tree                            *commandNode     // the served commands as a tree, for list
	docs                            []rank.Doc       // served[i] as rank reads it
	index                           func() *rank.Index
}

func newSearchMode(s *Served) *searchMode {
	ts := s.ts
	prefix := ts.root.Name()
	if ts.cfg.ToolPrefix != "" {
		prefix = ts.cfg.ToolPrefix
	}
	m := &searchMode{
		cli:    ts.root.Name(),
		served: s.tools,
		byName: s.byName,
		pathOf: map[string]*Tool{},
		docs:   make([]rank.Doc, len(s.tools)),
	}
	m.searchName, m.describe, m.run, m.list = searchToolNames(toolName(prefix), ts.byName)
	for i, t := range s.tools {
		m.pathOf[relPath(t.Command)] = t
		m.docs[i] = rankDoc(t)
	}
	m.tree = commandTree(ts.root, s.tools)
	// Built at the first search: a server that is never asked pays nothing.
	m.index = sync.OnceValue(func() *rank.Index { return rank.New(m.docs) })
	m.defs = m.definitions("")
	if room := searchListingRoom(ts.root.Name(), serverVersion(ts.root)) - listingBytes(m.defs); room > 0 {
		if v := m.vocabulary(room); v != "" {
			m.defs = m.definitions(v)
		}
	}
	return m
}

// maxSearchResponse is the most bytes of search mode's whole tools/list
// response, as the go-sdk writes it on the wire.
const maxSearchResponse = 4096

// searchListingRoom is the most bytes of search mode's tools/list result
// ({"tools": [...]}) for the server named name at version: 4 KB less the
// response's envelope, which the go-sdk fills with the JSON-RPC id and,
// from protocol 2026-07-28 on, the server's name and version, the result's
// type and its caching hints; 32 bytes are kept for what a newer go-sdk
// adds.
func searchListingRoom(name, version string) int {
	env, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      int64(1) << 53,
		"result": map[string]any{
			"resultType": "complete",
			"_meta":      map[string]any{"io.modelcontextprotocol/serverInfo": map[string]string{"name": name, "version": version}},
			"ttlMs":      0,
			"cacheScope": "public",
		},
	})
	return maxSearchResponse - len(env) - 32
}

// listingBytes is the size of a tools/list result holding defs.
func listingBytes(defs []*mcp.Tool) int {
	b, err := json.Marshal(map[string]any{"tools": defs})
	if err != nil {
		return 0
	}
	return len(b)
}

// searchToolNames returns the names of the search, describe, run and list
// tools for the tool prefix p: never a name that a command of the tree
// has in full mode (kubectl has its own describe and run, docker and gh
// their own search), so that a name means one thing in every mode.
func searchToolNames(p string, full map[string]*Tool) (search, describe, run, list string) {
	names := []string{p + "_search_commands", p + "_describe_command", p + "_run_command", p + "_list_commands"}
	for _, n := range names {
		if full[n] != nil {
			// A full-mode name joins the path with "_" after the prefix:
			// none has "-" right after it.
			names = []string{p + "-search-commands", p + "-describe-command", p + "-run-command", p + "-list-commands"}
			break
		}
	}
	for i, n := range names {
		names[i] = toolName(n)
	}
	return names[0], names[1], names[2], names[3]
}

// rankDoc is t's command as the ranking reads it: its path, its own and
// its parents' aliases, its descriptions and examples, and its own served
// flags (inherited ones would make the words of a few global flags part
// of every command).
func rankDoc(t *Tool) rank.Doc {
	c := t.Command
	d := rank.Doc{Short: c.Short, Long: c.Long, Example: c.Example}
	if rp := relPath(c); rp != "" {
		d.Path = strings.Split(rp, " ")
	}
	if t.expanded.Title != "" {
		d.Short += "\n" + t.expanded.Title
	}
	for p := c; p.HasParent(); p = p.Parent() {
		d.Aliases = append(d.Aliases, p.Aliases...)
	}
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if t.Flags.Lookup(f.Name) != nil {
			d.Flags = append(d.Flags, rank.Flag{Name: f.Name, Usage: f.Usage})
		}
	})
	return d
}

// names lists the tools' names, for messages.
func (m *searchMode) names() string {
	return m.searchName + ", " + m.list + ", " + m.describe + " and " + m.run
}

func (*searchMode) mode() ToolMode { return ToolModeSearch }

// tools returns the definitions, sorted by name.
func (m *searchMode) tools() []*mcp.Tool { return m.defs }

func (m *searchMode) registered() []*mcp.Tool {
	defs, _ := encodeDefs(m.defs)
	return defs
}

// call runs the search, describe or run tool; the last two read the
// pins of s and run through it. Search, list and describe wait for the
// Toolset's lookup limit; run waits for a call slot.
func (m *searchMode) call(ctx context.Context, s *Served, name string, a json.RawMessage, o callOptions) (*mcp.CallToolResult, bool) {
	if name == m.searchName || name == m.describe || name == m.list {
		release, refused := s.ts.lookups.acquire(ctx, name)
		if refused != nil {
			return refused, true
		}
		defer release()
	}
	switch name {
	case m.searchName:
		return m.callSearch(ctx, a), true
	case m.describe:
		return m.callDescribe(ctx, s, a), true
	case m.run:
		return m.callRun(ctx, s, a, o), true
	case m.list:
		return m.callList(a), true
	}
	return nil, false
}

func (m *searchMode) unknown(_ *Served, name string, _ bool) error {
	return fmt.Errorf("unknown tool %q (in search mode the tools are %s)", name, m.names())
}

func (m *searchMode) definitions(vocabulary string) []*mcp.Tool {
	cli := m.cli
	n := len(m.served)
	str := func(desc string) *jsonschema.Schema { return &jsonschema.Schema{Type: "string", Description: desc} }
	no := &jsonschema.Schema{Not: &jsonschema.Schema{}}
	f := false
	commandDesc := "the command: its name from " + m.searchName + " (e.g. " + m.served[0].Name + ") or its path (\"" + relPathOr(m.served[0]) + "\")"
	search := &mcp.Tool{
		Name:  m.searchName,
		Title: "Search " + cli + " commands",
		Description: fmt.Sprintf("Find the %s commands for a task: %d commands are served through this search. "+
			"Returns the best matches, each with its name, what it does and its usage line. "+
			"Then call %s for a command's flags and args, and %s to run it; %s walks the commands group by group, as --help does.%s",
			cli, n, m.describe, m.run, m.list, vocabulary),
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
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: &f, OpenWorldHint: &f},
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
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: &f, OpenWorldHint: &f},
	}
	run := &mcp.Tool{
		Name:  m.run,
		Title: "Run a " + cli + " command",
		Description: fmt.Sprintf("Run one %s command with its flags and args, checked against the schema %s shows "+
			"(a wrong flag or type is refused; nothing runs). Returns its stdout, stderr and exit code.", cli, m.describe),
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
		OutputSchema: compactOutputSchema(),
		Annotations:  m.runAnnotations(),
	}
	run.Title = "Run a " + cli + " command"
	list := &mcp.Tool{
		Name:  m.list,
		Title: "List " + cli + " commands",
		Description: fmt.Sprintf("List the %s commands under a group, as `%s GROUP --help` does: each with its path, "+
			"its name for %s and %s, what it does, and the commands under it. {} lists the top level.", cli, cli, m.describe, m.run),
		InputSchema: &jsonschema.Schema{
			Type:                 "object",
			Properties:           map[string]*jsonschema.Schema{"group": str("a group's path (e.g. \"" + firstGroup(m.tree) + "\"); none for the top level")},
			AdditionalProperties: no,
		},
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: &f, OpenWorldHint: &f},
	}
	defs := []*mcp.Tool{search, describe, run, list}
	sort.Slice(defs, func(i, j int) bool { return defs[i].Name < defs[j].Name })
	return defs
}

func ptr[T any](v T) *T { return &v }

// firstGroup is the path of the first group of the tree, for an example;
// the first command when there is no group.
func firstGroup(n *commandNode) string {
	for _, ch := range n.children {
		if len(ch.children) > 0 {
			return ch.path
		}
	}
	if len(n.children) > 0 {
		return n.children[0].path
	}
	return ""
}

// relPathOr is t's command path below the root, or the root's name for
// the root itself.
func relPathOr(t *Tool) string {
	if p := relPath(t.Command); p != "" {
		return p
	}
	return t.Command.Name()
}

// runAnnotations are the run tool's hints, true to every command it can
// run: read-only only when all are, destructive when any may be, and so on
// (MCP's defaults: not read-only, destructive, not idempotent, open world).
func (m *searchMode) runAnnotations() *mcp.ToolAnnotations {
	ro, idem, destr, open := true, true, false, false
	for _, t := range m.served {
		a := t.expanded.Annotations
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
	return &mcp.ToolAnnotations{ReadOnlyHint: ro, IdempotentHint: idem, DestructiveHint: &destr, OpenWorldHint: &open}
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

func (m *searchMode) callSearch(ctx context.Context, arguments json.RawMessage) *mcp.CallToolResult {
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
	found, err := m.search(ctx, *in.Query)
	var qe *rank.QueryError
	switch {
	case errors.As(err, &qe):
		return errorResult(fmt.Sprintf("%s: %v (say what you want to do, e.g. \"list pods in a namespace\")", m.searchName, err))
	case err != nil:
		return errorResult(fmt.Sprintf("%s: the search was stopped: %v", m.searchName, err))
	}
	out := searchOutput{Results: []searchResult{}}
	for i, t := range found {
		if i == limit {
			out.More = len(found) - limit
			break
		}
		out.Results = append(out.Results, searchResult{
			Command:  t.Name,
			Summary:  oneLine(t.Command.Short),
			Usage:    t.Command.UseLine(),
			ReadOnly: t.readOnly(),
		})
	}
	if len(out.Results) == 0 {
		out.Next = "no command matches; try other words or a command name." + m.vocabulary(1500)
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

// search returns the served commands matching query, best first (see
// package rank); the error is a *rank.QueryError for a query over rank's
// bounds, or ctx's once it is done.
func (m *searchMode) search(ctx context.Context, query string) ([]*Tool, error) {
	hits, err := m.index().SearchContext(ctx, query, 0)
	if err != nil {
		return nil, err
	}
	out := make([]*Tool, len(hits))
	for i, h := range hits {
		out[i] = m.served[h.Doc]
	}
	return out, nil
}

// oneLine is s on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// lookupCommand finds a served command by tool name or by command path,
// with or without the CLI's name in front.
func (m *searchMode) lookupCommand(ctx context.Context, name string) (*Tool, error) {
	if t, ok := m.byName[name]; ok {
		return t, nil
	}
	p := strings.Join(strings.Fields(name), " ")
	if t := m.pathOf[p]; t != nil {
		return t, nil
	}
	if rest, ok := strings.CutPrefix(p, m.cli+" "); ok {
		if t := m.pathOf[rest]; t != nil {
			return t, nil
		}
	}
	msg := fmt.Sprintf("no served command %q", name)
	if found, _ := m.search(ctx, name); len(found) > 0 {
		var names []string
		for i, t := range found {
			if i == 3 {
				break
			}
			names = append(names, t.Name)
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
	Pinned      []string             `json:"pinned,omitempty"` // the flags a pin fixes; their values are not shown (a pin may hold a secret)
	Annotations *mcp.ToolAnnotations `json:"annotations,omitempty"`
	Call        string               `json:"call"`
}

func (m *searchMode) callDescribe(ctx context.Context, s *Served, arguments json.RawMessage) *mcp.CallToolResult {
	var in struct {
		Command *string `json:"command"`
	}
	if err := decodeMeta(arguments, &in); err != nil {
		return errorResult(fmt.Sprintf("%s: %v; want {\"command\": NAME}", m.describe, err))
	}
	if in.Command == nil || *in.Command == "" {
		return errorResult(fmt.Sprintf("%s: \"command\" is required (a name from %s)", m.describe, m.searchName))
	}
	t, err := m.lookupCommand(ctx, *in.Command)
	if err != nil {
		return errorResult(fmt.Sprintf("%s: %v", m.describe, err))
	}
	c := t.Command
	out := describeOutput{
		Command:     t.Name,
		Path:        c.CommandPath(),
		Summary:     oneLine(c.Short),
		Description: strings.TrimSpace(c.Long),
		Usage:       c.UseLine(),
		Aliases:     c.Aliases,
		Examples:    c.Example,
		InputSchema: s.describedSchema(t),
		Annotations: t.expanded.Annotations,
		Call:        fmt.Sprintf("%s {\"command\": %q, \"flags\": {...}, \"args\": [...]}", m.run, t.Name),
	}
	out.Pinned = s.pinned(t)
	return jsonResult(out)
}

func (m *searchMode) callRun(ctx context.Context, s *Served, arguments json.RawMessage, o callOptions) *mcp.CallToolResult {
	a := bytes.TrimSpace(arguments)
	var top map[string]json.RawMessage
	if err := json.Unmarshal(a, &top); err != nil || top == nil {
		o.trace.refuse(OutcomeInvalid)
		return errorResult(fmt.Sprintf("%s: the arguments must be a JSON object {\"command\": NAME, \"flags\": {...}, \"args\": [...]}. Nothing was run.", m.run))
	}
	var name string
	if raw, ok := top["command"]; !ok || json.Unmarshal(raw, &name) != nil || name == "" {
		o.trace.refuse(OutcomeInvalid)
		return errorResult(fmt.Sprintf("%s: \"command\" must name the command to run (a name from %s). Nothing was run.", m.run, m.searchName))
	}
	t, err := m.lookupCommand(ctx, name)
	if err != nil {
		o.trace.refuse(OutcomeInvalid)
		return errorResult(fmt.Sprintf("%s: %v. Nothing was run.", m.run, err))
	}
	delete(top, "command")
	rest, err := json.Marshal(top)
	if err != nil {
		o.trace.refuse(OutcomeInvalid)
		return errorResult(fmt.Sprintf("%s: %v. Nothing was run.", m.run, err))
	}
	return s.call(ctx, t, rest, o)
}

// serverVersion is the version the server of root states: root's, or
// "devel".
func serverVersion(root *cobra.Command) string {
	if root.Version == "" {
		return "devel"
	}
	return root.Version
}
