package dialect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/internal/jsonvalue"
)

// Format names a tool dialect.
type Format string

// The dialects Export writes.
const (
	// MCP is the tools as tools/list returns them: a JSON array sorted by
	// name. Nothing is translated and nothing is lost.
	MCP Format = "mcp"
	// Canonical is {name, description, parameters} per tool.
	Canonical Format = "canonical"
	// OpenAI is the Chat Completions "tools" array of
	// {"type":"function","function":{...,"strict":true}}.
	OpenAI Format = "openai"
	// Anthropic is the Messages API "tools" array of
	// {name, description, input_schema}.
	Anthropic Format = "anthropic"
	// Gemini is {"tools":[{"functionDeclarations":[...]}]} within Gemini's
	// OpenAPI-subset Schema.
	Gemini Format = "gemini"
	// ToolVault is the list envelope {"tools":[...], "version", "description"}.
	ToolVault Format = "toolvault"
)

// Formats returns every format Export accepts, MCP (the default) first.
func Formats() []Format {
	return []Format{MCP, Canonical, OpenAI, Anthropic, Gemini, ToolVault}
}

// ParseFormat returns the format named s (case-insensitive); the empty
// string means MCP.
func ParseFormat(s string) (Format, error) {
	if s == "" {
		return MCP, nil
	}
	f := Format(strings.ToLower(strings.TrimSpace(s)))
	if slices.Contains(Formats(), f) {
		return f, nil
	}
	names := make([]string, 0, len(Formats()))
	for _, x := range Formats() {
		names = append(names, string(x))
	}
	return "", fmt.Errorf("unknown format %q: want one of %s", s, strings.Join(names, ", "))
}

// Kind tells a loss from a change that loses nothing but is still worth
// reporting.
type Kind int

const (
	// Loss is something the dialect cannot carry: a keyword dropped, a
	// constraint weakened, a limit exceeded, a name changed. With
	// [Options.Strict] a loss is an error.
	Loss Kind = iota
	// Restated is a constraint the dialect has no keyword for, stated
	// exactly in words in a description instead: which properties an
	// object may, must or must not hold together (cobra's flag groups).
	// It is reported, and it does not fail [Options.Strict]; the server
	// still enforces the constraint on every call.
	Restated
)

// String returns "loss" or "restated".
func (k Kind) String() string {
	if k == Restated {
		return "restated"
	}
	return "loss"
}

// Warning reports one change a dialect forced on one tool: a loss (a
// keyword dropped, a constraint weakened, a limit exceeded, a name
// changed) or a constraint restated in words.
type Warning struct {
	// Kind is Loss or Restated.
	Kind Kind
	// Tool is the tool's MCP name (before any renaming).
	Tool string
	// Path is a JSON Pointer into the tool as MCP describes it, such as
	// /inputSchema/properties/flags/properties/since/default, or /name.
	// Below a $ref the path follows the schema as the dialect sees it,
	// with the reference inlined.
	Path string
	// Format is the dialect that forced the change.
	Format Format
	// Message says what changed and why.
	Message string
}

// String renders w like a compiler diagnostic:
// "tool: /path: format: message", with "restated: " before the message of
// a Restated warning.
func (w Warning) String() string {
	var b strings.Builder
	b.WriteString(w.Tool)
	b.WriteString(": ")
	if w.Path != "" {
		b.WriteString(w.Path)
		b.WriteString(": ")
	}
	b.WriteString(string(w.Format))
	b.WriteString(": ")
	if w.Kind == Restated {
		b.WriteString("restated: ")
	}
	b.WriteString(w.Message)
	return b.String()
}

// Envelope describes the tool set as a whole, from the root command. Only
// the toolvault format uses it.
type Envelope struct {
	Name        string // the CLI's name (no format writes it today)
	Version     string // the CLI's version; left out when empty
	Description string // the CLI's description; left out when empty
}

// Options control Export.
type Options struct {
	// Envelope fills the toolvault list envelope.
	Envelope Envelope
	// Strict turns every loss into an error: when the export produces any
	// warning of kind Loss, Export returns a *LossError listing all of
	// them and no output. Restated warnings are no loss.
	Strict bool
}

// LossError is returned by Export in strict mode when the dialect cannot
// carry the tools without loss.
type LossError struct {
	Format   Format
	Warnings []Warning // the losses only
}

// Error lists every loss, one per line after the summary.
func (e *LossError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d loss(es) in strict mode", e.Format, len(e.Warnings))
	for _, w := range e.Warnings {
		b.WriteString("\n\t")
		b.WriteString(w.String())
	}
	return b.String()
}

// Export translates tools into format and returns the document, indented
// JSON without a trailing newline. The tools are written sorted by name,
// whatever their order in the slice. Every change the format forces is
// returned as a Warning, in tool order; with opts.Strict any loss (a
// warning of kind Loss) is an error. An error is also returned for an unknown format, a nil tool, two
// tools with one name, a schema that is not a JSON object, and two tools
// whose names the format's name rule maps to one name.
func Export(format Format, tools []*mcp.Tool, opts Options) (json.RawMessage, []Warning, error) {
	if format == "" {
		format = MCP
	}
	if !slices.Contains(Formats(), format) {
		_, err := ParseFormat(string(format))
		return nil, nil, err
	}
	sorted, err := sortTools(tools)
	if err != nil {
		return nil, nil, err
	}
	var doc any
	var warns []Warning
	if format == MCP {
		doc = sorted
	} else {
		doc, warns, err = translate(format, sorted, opts.Envelope)
		if err != nil {
			return nil, warns, err
		}
	}
	if opts.Strict {
		if losses := Losses(warns); len(losses) > 0 {
			return nil, warns, &LossError{Format: format, Warnings: losses}
		}
	}
	out, err := encode(doc)
	if err != nil {
		return nil, warns, fmt.Errorf("%s: encoding: %w", format, err)
	}
	return out, warns, nil
}

// Losses returns the warnings of kind Loss, in order.
func Losses(warns []Warning) []Warning {
	var out []Warning
	for _, w := range warns {
		if w.Kind == Loss {
			out = append(out, w)
		}
	}
	return out
}

// sortTools returns the tools sorted by name and rejects nil tools and
// duplicate names.
func sortTools(tools []*mcp.Tool) ([]*mcp.Tool, error) {
	sorted := make([]*mcp.Tool, 0, len(tools))
	for i, t := range tools {
		if t == nil {
			return nil, fmt.Errorf("tool %d is nil", i)
		}
		sorted = append(sorted, t)
	}
	slices.SortStableFunc(sorted, func(a, b *mcp.Tool) int { return strings.Compare(a.Name, b.Name) })
	for i := 1; i < len(sorted); i++ {
		if sorted[i].Name == sorted[i-1].Name {
			return nil, fmt.Errorf("two tools are named %q", sorted[i].Name)
		}
	}
	return sorted, nil
}

// encode writes v as indented JSON without HTML escaping.
func encode(v any) (json.RawMessage, error) {
	b, err := jsonvalue.Marshal(v)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimSuffix(b, []byte("\n"))), nil
}

// tool is one MCP tool with its schemas decoded.
type tool struct {
	name   string
	desc   string
	input  *object // never nil
	output *object // nil when the tool has none
}

// report collects the warnings of one tool in one format.
type report struct {
	format Format
	tool   string
	warns  []Warning
	// draft07 is set when the tool's input schema declares draft-07 (or
	// draft-06 or -04), where "dependencies" is a keyword.
	draft07 bool
}

// declaresDraft07 reports whether the schema o declares a draft in which
// "dependencies" is a keyword: draft-04, -06 or -07.
func declaresDraft07(o *object) bool {
	s, _ := o.m["$schema"].(string)
	for _, d := range []string{"draft-04/", "draft-06/", "draft-07/"} {
		if strings.Contains(s, "json-schema.org/"+d) {
			return true
		}
	}
	return false
}

// add reports a loss.
func (r *report) add(path, format string, args ...any) {
	r.warns = append(r.warns, Warning{Tool: r.tool, Path: path, Format: r.format, Message: fmt.Sprintf(format, args...)})
}

// restated reports keyword k at path, with no form in the dialect, as
// stated in words in the description of the object at the path's parent.
func (r *report) restated(path, k string, sentences []string) {
	r.warns = append(r.warns, Warning{Kind: Restated, Tool: r.tool, Path: path, Format: r.format,
		Message: fmt.Sprintf("keyword %q is stated in words in the object's description instead (%s has no form for it): %s", k, r.format, strings.Join(sentences, " "))})
}

// restateKeyword states keyword k, with value v, of an object schema in
// words when it only says which properties are present: ok is set when
// k is dealt with so, and sentences go in the object's description. Nothing
// is lost: the server checks every call against the full schema. A keyword
// that says nothing (dependentRequired: {"a": []}) gives no sentence and
// no warning.
func (r *report) restateKeyword(at, k string, v any) (sentences []string, ok bool) {
	switch {
	case k == "dependencies" && r.draft07:
		// Draft-07's property dependencies (arrays of names) are
		// dependentRequired; a dependency on a schema is not restated.
		sentences, ok = dependentSentences(v)
	case slices.Contains(presenceKeywords, k):
		sentences, ok = restate(k, v)
	default:
		return nil, false
	}
	if ok && len(sentences) > 0 {
		r.restated(at, k, sentences)
	}
	return sentences, ok
}

// decodeTool decodes t's schemas.
func decodeTool(t *mcp.Tool) (*tool, error) {
	in, err := schemaObject(t.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("tool %q: inputSchema: %w", t.Name, err)
	}
	if in == nil {
		return nil, fmt.Errorf("tool %q: no inputSchema", t.Name)
	}
	out, err := schemaObject(t.OutputSchema)
	if err != nil {
		return nil, fmt.Errorf("tool %q: outputSchema: %w", t.Name, err)
	}
	return &tool{name: t.Name, desc: t.Description, input: in, output: out}, nil
}

// translate builds the document of a translating format.
func translate(format Format, tools []*mcp.Tool, env Envelope) (any, []Warning, error) {
	rule := nameRules()[format]
	var all []Warning
	taken := map[string]string{} // dialect name -> MCP name
	var entries []any
	for _, mt := range tools {
		t, err := decodeTool(mt)
		if err != nil {
			return nil, all, err
		}
		r := &report{format: format, tool: t.name, draft07: declaresDraft07(t.input)}
		name := rule.apply(t.name, r)
		if prev, ok := taken[name]; ok {
			return nil, all, fmt.Errorf("%s: tools %q and %q both become %q under the name rule %s", format, prev, t.name, name, rule.pattern)
		}
		taken[name] = t.name
		var e any
		switch format {
		case Canonical:
			e = canonicalTool(name, t, r)
		case OpenAI:
			e = openaiTool(name, t, r)
		case Anthropic:
			e = anthropicTool(name, t, r)
		case Gemini:
			e = geminiTool(name, t, r)
		case ToolVault:
			e = toolvaultTool(name, t)
		default:
			return nil, all, errors.New("unreachable: format " + string(format))
		}
		entries = append(entries, e)
		all = append(all, r.warns...)
	}
	if entries == nil {
		entries = []any{}
	}
	switch format {
	case Gemini:
		return geminiDoc(entries), all, nil
	case ToolVault:
		return toolvaultDoc(entries, env), all, nil
	}
	return entries, all, nil
}
