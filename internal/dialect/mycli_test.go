package dialect_test

import (
	"strings"
	"testing"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/internal/dialect"
	"github.com/cobramcp/cobramcp/toolset"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mycliTools reflects the demo CLI as the bridge serves it: tools nobody
// shaped for this package.
func mycliTools(t *testing.T) []*mcp.Tool {
	t.Helper()
	root := mycli.New()
	root.AddCommand(bridge.Command(nil))
	ts, err := toolset.New(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ts.View(toolset.Listing{})
	if err != nil {
		t.Fatal(err)
	}
	tools := v.Tools()
	if len(tools) < 3 {
		t.Fatalf("mycli has %d tools", len(tools))
	}
	return tools
}

// TestMycliExport runs every provider check on mycli's real tools.
func TestMycliExport(t *testing.T) {
	tools := mycliTools(t)
	for _, f := range dialect.Formats() {
		t.Run(string(f), func(t *testing.T) {
			v, warns := exportJSON(t, f, tools)
			if f != dialect.MCP {
				for _, n := range dialectNames(t, f, v) {
					if !nameRE[f].MatchString(n) {
						t.Errorf("name %q breaks %s's rule", n, f)
					}
				}
			}
			for _, w := range warns {
				if w.Tool == "" || w.Format != f || w.Message == "" || (w.Path != "" && !strings.HasPrefix(w.Path, "/")) {
					t.Errorf("malformed warning %#v", w)
				}
			}
			switch f {
			case dialect.OpenAI:
				strict := 0
				for _, e := range v.([]any) {
					fn := e.(map[string]any)["function"].(map[string]any)
					name := fn["name"].(string)
					if fn["strict"] != true {
						if !hasWarning(warns, mcpTool(t, tools, dialect.OpenAI, name).Name, "/inputSchema", "strict mode off") {
							t.Errorf("%s is not strict and no warning says why", name)
						}
						continue
					}
					strict++
					params := fn["parameters"].(map[string]any)
					checkOpenAIStrict(t, name, params)
					for _, p := range optionalProps(originalInput(t, tools, dialect.OpenAI, name)) {
						if s, ok := lookup(params, p); ok && !acceptsNull(s) {
							t.Errorf("%s %s: optional property does not accept null", name, p)
						}
					}
				}
				if strict == 0 {
					t.Errorf("no mycli tool is strict")
				}
			case dialect.Gemini:
				decls := v.(map[string]any)["tools"].([]any)[0].(map[string]any)["functionDeclarations"].([]any)
				for _, d := range decls {
					m := d.(map[string]any)
					for _, k := range []string{"parameters", "response"} {
						if s, ok := m[k].(map[string]any); ok {
							checkGemini(t, m["name"].(string)+" "+k, s)
						}
					}
				}
			case dialect.Anthropic, dialect.ToolVault, dialect.MCP:
				if len(warns) != 0 {
					t.Errorf("%s lost something on mycli: %v", f, warns)
				}
			}
		})
	}
}
