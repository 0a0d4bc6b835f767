package dialect_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/internal/dialect"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/dialect")

// goldenDir holds one export per format of the fixture tools, and the
// warnings it produced.
const goldenDir = "../../testdata/dialect"

func TestExportGolden(t *testing.T) {
	for _, f := range dialect.Formats() {
		t.Run(string(f), func(t *testing.T) {
			out, warns, err := dialect.Export(f, fixtureTools(), dialect.Options{Envelope: dialect.Envelope{Name: "mycli", Version: "1.2.3", Description: "A demo CLI."}})
			if err != nil {
				t.Fatalf("Export: %v", err)
			}
			if !json.Valid(out) {
				t.Fatalf("output is not valid JSON:\n%s", out)
			}
			var lines []string
			for _, w := range warns {
				lines = append(lines, w.String())
			}
			text := strings.Join(lines, "\n")
			if text != "" {
				text += "\n"
			}
			golden(t, string(f)+".json", append(out, '\n'))
			golden(t, string(f)+".warnings.txt", []byte(text))
		})
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(goldenDir, name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./dialect -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test ./dialect -update rewrites it):\n%s", name, got)
	}
}

// exportJSON exports the fixtures in f and decodes the result.
func exportJSON(t *testing.T, f dialect.Format, tools []*mcp.Tool) (any, []dialect.Warning) {
	t.Helper()
	out, warns, err := dialect.Export(f, tools, dialect.Options{})
	if err != nil {
		t.Fatalf("Export(%s): %v", f, err)
	}
	var v any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("Export(%s) output: %v", f, err)
	}
	return v, warns
}

func TestMCPIsUnchanged(t *testing.T) {
	tools := fixtureTools()
	got, warns := exportJSON(t, dialect.MCP, tools)
	if len(warns) != 0 {
		t.Errorf("mcp export warned: %v", warns)
	}
	list := got.([]any)
	if len(list) != len(tools) {
		t.Fatalf("got %d tools, want %d", len(list), len(tools))
	}
	prev := ""
	for _, e := range list {
		name := e.(map[string]any)["name"].(string)
		if name < prev {
			t.Errorf("tools not sorted by name: %q after %q", name, prev)
		}
		prev = name
		var orig *mcp.Tool
		for _, tl := range tools {
			if tl.Name == name {
				orig = tl
			}
		}
		want, _ := json.Marshal(orig)
		gotJSON, _ := json.Marshal(e)
		var a, b any
		json.Unmarshal(want, &a)
		json.Unmarshal(gotJSON, &b)
		if !jsonEqual(a, b) {
			t.Errorf("%s changed:\n got %s\nwant %s", name, gotJSON, want)
		}
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestNamesFollowEachRule(t *testing.T) {
	for _, f := range []dialect.Format{dialect.Canonical, dialect.OpenAI, dialect.Anthropic, dialect.Gemini, dialect.ToolVault} {
		t.Run(string(f), func(t *testing.T) {
			v, warns := exportJSON(t, f, fixtureTools())
			names := dialectNames(t, f, v)
			if len(names) != len(fixtureTools()) {
				t.Fatalf("got %d names, want %d", len(names), len(fixtureTools()))
			}
			seen := map[string]bool{}
			for _, n := range names {
				if !nameRE[f].MatchString(n) {
					t.Errorf("name %q breaks %s's rule %s", n, f, nameRE[f])
				}
				if seen[n] {
					t.Errorf("name %q used twice", n)
				}
				seen[n] = true
			}
			// "mycli.version" had to change, and the change is reported.
			if !hasWarning(warns, "mycli.version", "/name", "renamed") {
				t.Errorf("renaming mycli.version was not reported: %v", warns)
			}
		})
	}
}

// dialectNames pulls the tool names out of an export.
func dialectNames(t *testing.T, f dialect.Format, v any) []string {
	t.Helper()
	var list []any
	switch f {
	case dialect.Gemini:
		list = v.(map[string]any)["tools"].([]any)[0].(map[string]any)["functionDeclarations"].([]any)
	case dialect.ToolVault:
		list = v.(map[string]any)["tools"].([]any)
	default:
		list = v.([]any)
	}
	var names []string
	for _, e := range list {
		m := e.(map[string]any)
		if f == dialect.OpenAI {
			m = m["function"].(map[string]any)
		}
		names = append(names, m["name"].(string))
	}
	return names
}

func hasWarning(warns []dialect.Warning, tool, pathPrefix, msg string) bool {
	for _, w := range warns {
		if w.Tool == tool && strings.HasPrefix(w.Path, pathPrefix) && strings.Contains(w.Message, msg) {
			return true
		}
	}
	return false
}

func TestExportErrors(t *testing.T) {
	good := &mcp.Tool{Name: "a", InputSchema: json.RawMessage(version)}
	tests := []struct {
		name   string
		format dialect.Format
		tools  []*mcp.Tool
		want   string
	}{
		{"unknown format", "yaml", []*mcp.Tool{good}, "unknown format"},
		{"nil tool", dialect.OpenAI, []*mcp.Tool{good, nil}, "nil"},
		{"duplicate", dialect.Anthropic, []*mcp.Tool{good, {Name: "a", InputSchema: json.RawMessage(version)}}, "two tools"},
		{"schema not an object", dialect.Gemini, []*mcp.Tool{{Name: "b", InputSchema: json.RawMessage(`[1]`)}}, "not an object"},
		{"no input schema", dialect.Canonical, []*mcp.Tool{{Name: "b"}}, "no inputSchema"},
		{"collision", dialect.OpenAI, []*mcp.Tool{{Name: "a.b", InputSchema: json.RawMessage(version)}, {Name: "a_b", InputSchema: json.RawMessage(version)}}, "both become"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := dialect.Export(tt.format, tt.tools, dialect.Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestStrictOption(t *testing.T) {
	// The fixtures lose something in every translating format.
	for _, f := range []dialect.Format{dialect.Canonical, dialect.OpenAI, dialect.Anthropic, dialect.Gemini, dialect.ToolVault} {
		t.Run(string(f), func(t *testing.T) {
			_, lossy, err := dialect.Export(f, fixtureTools(), dialect.Options{})
			if err != nil {
				t.Fatal(err)
			}
			out, warns, err := dialect.Export(f, fixtureTools(), dialect.Options{Strict: true})
			var le *dialect.LossError
			if !errors.As(err, &le) {
				t.Fatalf("err = %v, want a *LossError", err)
			}
			if out != nil {
				t.Errorf("strict export wrote output despite losses")
			}
			losses := dialect.Losses(lossy)
			if len(le.Warnings) != len(losses) || len(warns) != len(lossy) {
				t.Errorf("LossError holds %d warnings, want all %d losses (and Export returns all %d warnings, not %d)", len(le.Warnings), len(losses), len(lossy), len(warns))
			}
			for _, w := range lossy {
				if listed := strings.Contains(err.Error(), w.String()); listed != (w.Kind == dialect.Loss) {
					t.Errorf("error lists %q: %v, want it listed only if it is a loss", w, listed)
				}
			}
		})
	}
	// A tool every format carries whole passes strict mode.
	plain := []*mcp.Tool{{Name: "plain", Description: "d", InputSchema: json.RawMessage(
		`{"type":"object","properties":{"flags":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}},"required":["flags"],"additionalProperties":false}`)}}
	for _, f := range dialect.Formats() {
		if _, warns, err := dialect.Export(f, plain, dialect.Options{Strict: true}); err != nil || len(warns) != 0 {
			t.Errorf("%s: strict export of a plain tool: %v %v", f, warns, err)
		}
	}
}

func TestToolVaultEnvelope(t *testing.T) {
	v, _ := exportJSON(t, dialect.ToolVault, fixtureTools())
	m := v.(map[string]any)
	if m["version"] != nil || m["description"] != nil {
		t.Errorf("empty envelope fields written: %v %v", m["version"], m["description"])
	}
	out, _, err := dialect.Export(dialect.ToolVault, fixtureTools(), dialect.Options{Envelope: dialect.Envelope{Version: "v2", Description: "demo"}})
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(out, &m)
	if m["version"] != "v2" || m["description"] != "demo" {
		t.Errorf("envelope = %v %v, want v2 demo", m["version"], m["description"])
	}
	for _, e := range m["tools"].([]any) {
		tl := e.(map[string]any)
		for _, k := range []string{"name", "description", "inputSchema", "outputSchema"} {
			if _, ok := tl[k]; !ok {
				t.Errorf("tool %v has no %s", tl["name"], k)
			}
		}
	}
}

func TestWarningString(t *testing.T) {
	tests := []struct {
		w    dialect.Warning
		want string
	}{
		{dialect.Warning{Tool: "mycli_get_pods", Path: "/inputSchema/properties/flags/properties/since/default", Format: dialect.OpenAI, Message: `dropped keyword "default"`},
			`mycli_get_pods: /inputSchema/properties/flags/properties/since/default: openai: dropped keyword "default"`},
		{dialect.Warning{Tool: "t", Format: dialect.Gemini, Message: "m"}, "t: gemini: m"},
		{dialect.Warning{Kind: dialect.Restated, Tool: "t", Path: "/inputSchema/not", Format: dialect.OpenAI, Message: "m"}, "t: /inputSchema/not: openai: restated: m"},
	}
	for _, tt := range tests {
		if got := tt.w.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

func TestParseFormat(t *testing.T) {
	tests := []struct {
		in   string
		want dialect.Format
		ok   bool
	}{
		{"", dialect.MCP, true},
		{"openai", dialect.OpenAI, true},
		{" Gemini ", dialect.Gemini, true},
		{"ToolVault", dialect.ToolVault, true},
		{"claude", "", false},
	}
	for _, tt := range tests {
		got, err := dialect.ParseFormat(tt.in)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestExportLeavesToolsAlone(t *testing.T) {
	tools := fixtureTools()
	before, _ := json.Marshal(tools)
	for _, f := range dialect.Formats() {
		if _, _, err := dialect.Export(f, tools, dialect.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	after, _ := json.Marshal(tools)
	if !bytes.Equal(before, after) {
		t.Errorf("Export changed its input")
	}
	if tools[0].Name != "mycli_label" {
		t.Errorf("Export reordered its input")
	}
}

func TestExportIsDeterministic(t *testing.T) {
	for _, f := range dialect.Formats() {
		a, _, _ := dialect.Export(f, fixtureTools(), dialect.Options{})
		rev := fixtureTools()
		for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
			rev[i], rev[j] = rev[j], rev[i]
		}
		b, _, _ := dialect.Export(f, rev, dialect.Options{})
		if !bytes.Equal(a, b) {
			t.Errorf("%s: output depends on the order of the tools", f)
		}
	}
}

func BenchmarkExport(b *testing.B) {
	tools := fixtureTools()
	for _, f := range dialect.Formats() {
		b.Run(string(f), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := dialect.Export(f, tools, dialect.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
