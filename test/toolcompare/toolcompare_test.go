package toolcompare

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/pflag"
)

// tool is a tool named name whose input schema has the given flags and
// args properties (nil leaves one out).
func tool(name string, flags map[string]*jsonschema.Schema, required []string, args *jsonschema.Schema) *mcp.Tool {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}}
	if flags != nil {
		s.Properties["flags"] = &jsonschema.Schema{Type: "object", Properties: flags, Required: required}
	}
	if args != nil {
		s.Properties["args"] = args
	}
	return &mcp.Tool{Name: name, Description: "d", InputSchema: s}
}

func TestTools(t *testing.T) {
	str := &jsonschema.Schema{Type: "string"}
	integer := &jsonschema.Schema{Type: "integer"}
	intDefault := &jsonschema.Schema{Type: "integer", Default: []byte("2")}
	strs := &jsonschema.Schema{Type: "array", Items: str}
	described := &jsonschema.Schema{Type: "string", Description: "other words"}
	oneArg := &jsonschema.Schema{Type: "array", Items: str, MaxItems: new(int)}
	one := 1
	for _, tc := range []struct {
		name      string
		in, out   []*mcp.Tool
		annotated map[string]bool
		want      []string
	}{
		{"same", []*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": str}, nil, nil)},
			[]*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": str}, nil, nil)}, nil, nil},
		{"tools", []*mcp.Tool{tool("a", nil, nil, nil)}, []*mcp.Tool{tool("b", nil, nil, nil)}, nil,
			[]string{"tool-extra", "tool-missing"}},
		{"flags", []*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": str, "y": str}, nil, nil)},
			[]*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": str, "z": str}, nil, nil)}, nil,
			[]string{"flag-extra", "flag-missing"}},
		{"type", []*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": str, "y": strs}, nil, nil)},
			[]*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": integer, "y": &jsonschema.Schema{Type: "array", Items: integer}}, nil, nil)}, nil,
			[]string{"flag-type", "flag-type"}},
		{"default", []*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": integer}, nil, nil)},
			[]*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": intDefault}, nil, nil)}, nil,
			[]string{"flag-default"}},
		{"schema", []*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": str}, nil, nil)},
			[]*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": described}, nil, nil)}, nil,
			[]string{"flag-schema"}},
		{"annotated", []*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": str}, nil, nil)},
			[]*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": integer}, nil, nil)}, map[string]bool{"x": true},
			[]string{"flag-annotation"}},
		{"default unseen", []*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": intDefault}, nil, nil)},
			[]*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": integer}, nil, nil)}, nil,
			[]string{"flag-default-unseen"}},
		{"range", []*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": {Type: "integer", Minimum: jsonschema.Ptr(-3.0), Maximum: jsonschema.Ptr(3.0)}}, nil, nil)},
			[]*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": integer}, nil, nil)}, nil,
			[]string{"flag-range"}},
		// A default the outside does not see, with something else changed
		// too, is that other kind (a schema change here), not the unseen
		// default alone.
		{"default unseen and more", []*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": intDefault}, nil, nil)},
			[]*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": {Type: "integer", Description: "other words"}}, nil, nil)}, nil,
			[]string{"flag-schema"}},
		{"default unseen and range", []*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": {Type: "integer", Default: []byte("2"), Maximum: jsonschema.Ptr(3.0)}}, nil, nil)},
			[]*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": integer}, nil, nil)}, nil,
			[]string{"flag-range"}},
		// Bounds the outside adds or narrows refuse calls the CLI takes.
		{"bounds added", []*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": integer}, nil, nil)},
			[]*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": {Type: "integer", Minimum: jsonschema.Ptr(0.0), Maximum: jsonschema.Ptr(3.0)}}, nil, nil)}, nil,
			[]string{"flag-schema"}},
		{"bounds narrowed", []*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": {Type: "integer", Maximum: jsonschema.Ptr(9.0)}}, nil, nil)},
			[]*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": {Type: "integer", Maximum: jsonschema.Ptr(3.0)}}, nil, nil)}, nil,
			[]string{"flag-schema"}},
		{"optional value", []*mcp.Tool{tool("a", map[string]*jsonschema.Schema{
			"x": {Type: "string", Description: "how (if given without a value: fast)"},
			"y": {Type: "integer", Description: "n (type: count; if given without a value: 2)"}}, nil, nil)},
			[]*mcp.Tool{tool("a", map[string]*jsonschema.Schema{
				"x": {Type: "string", Description: "how"},
				"y": {Type: "integer", Description: "n (type: count)"}}, nil, nil)}, nil,
			[]string{"flag-optional-value", "flag-optional-value"}},
		{"custom type's default unseen", []*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": {Type: "string", Description: "Memory limit (type: bytes)", Default: []byte(`"0"`)}}, nil, nil)},
			[]*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": {Type: "string", Description: "Memory limit (type: bytes)"}}, nil, nil)}, nil,
			[]string{"flag-default-unseen"}},
		{"usage wrapped", []*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": {Type: "string", Description: "Format output:\n'json': Print in JSON format"}}, nil, nil)},
			[]*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": {Type: "string", Description: "Format output:\n'json': Print in\nJSON format"}}, nil, nil)}, nil,
			[]string{"flag-usage-wrapped"}},
		{"usage words differ", []*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": {Type: "string", Description: "Print in JSON format"}}, nil, nil)},
			[]*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": {Type: "string", Description: "Print in\nJSON"}}, nil, nil)}, nil,
			[]string{"flag-schema"}},
		{"custom type", []*mcp.Tool{tool("a", map[string]*jsonschema.Schema{
			"x": {Type: "string", Description: "embed (type: tristate; if given without a value: true)"},
			"y": {Type: "string", Description: "modules (type: moduleSpec)"}}, nil, nil)},
			[]*mcp.Tool{tool("a", map[string]*jsonschema.Schema{
				"x": {Type: "boolean", Description: "embed"},
				"y": {Type: "string", Description: "modules"}}, nil, nil)}, nil,
			[]string{"flag-custom-type", "flag-custom-type"}},
		{"required", []*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": str}, []string{"x"}, nil)},
			[]*mcp.Tool{tool("a", map[string]*jsonschema.Schema{"x": str}, nil, nil)}, nil,
			[]string{"flag-required"}},
		{"args refused", []*mcp.Tool{tool("a", nil, nil, strs)}, []*mcp.Tool{tool("a", nil, nil, oneArg)}, nil,
			[]string{"args-refused"}},
		{"args accepted", []*mcp.Tool{tool("a", nil, nil, oneArg)}, []*mcp.Tool{tool("a", nil, nil, strs)}, nil,
			[]string{"args-arity"}},
		{"args required", []*mcp.Tool{tool("a", nil, nil, strs)}, []*mcp.Tool{tool("a", nil, nil, &jsonschema.Schema{Type: "array", Items: str, MinItems: &one})}, nil,
			[]string{"args-refused"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, d := range Tools(tc.in, tc.out, tc.annotated) {
				got = append(got, d.Kind)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("kinds %v, want %v", got, tc.want)
			}
		})
	}
}

func TestToolsDescription(t *testing.T) {
	in, out := tool("a", nil, nil, nil), tool("a", nil, nil, nil)
	in.Description, out.Description = "Do it.\n\nAt most one of --a, --b may be set.", "Do it."
	got := Tools([]*mcp.Tool{in}, []*mcp.Tool{out}, nil)
	if len(got) != 1 || got[0].Kind != "flag-groups" {
		t.Errorf("group sentences only: %v, want one flag-groups", got)
	}
	in.Description = "Do something else."
	got = Tools([]*mcp.Tool{in}, []*mcp.Tool{out}, nil)
	if len(got) != 1 || got[0].Kind != "description" {
		t.Errorf("other text: %v, want one description", got)
	}
	in.Description, out.Description = "Short\n\nLong.\n\nUsage: x", "Long.\n\nUsage: x"
	if got := Tools([]*mcp.Tool{in}, []*mcp.Tool{out}, nil); len(got) != 1 || got[0].Kind != "description-missing" {
		t.Errorf("lines left out: %v, want one description-missing", got)
	}
	out.Description = "Short\n\nLong.\n\nMore words of the help.\n\nUsage: x"
	if got := Tools([]*mcp.Tool{in}, []*mcp.Tool{out}, nil); len(got) != 1 || got[0].Kind != "description-extra" {
		t.Errorf("lines added: %v, want one description-extra", got)
	}
	out.Description = "Long.\n\nUsage: x\n\nMore."
	if got := Tools([]*mcp.Tool{in}, []*mcp.Tool{out}, nil); len(got) != 1 || got[0].Kind != "description" {
		t.Errorf("lines left out and added: %v, want one description", got)
	}
	if c := Count(append(got, got...)); c["description"] != 2 || len(c) != 1 {
		t.Errorf("Count = %v", c)
	}
}

func TestAnnotated(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.String("plain", "", "")
	fs.String("enum", "", "")
	if err := fs.SetAnnotation("enum", "jsonschema", []string{`{"enum":["a"]}`}); err != nil {
		t.Fatal(err)
	}
	if got := Annotated(fs); !reflect.DeepEqual(got, map[string]bool{"enum": true}) {
		t.Errorf("Annotated = %v", got)
	}
}

func TestKnownLimits(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "doc.md")
	if err := os.WriteFile(doc, []byte("| kind | why |\n| --- | --- |\n| `tags` | x |\n| `flag-groups` | y |\n| `NotAKind` | z |\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := KnownLimits(doc)
	if err != nil || !reflect.DeepEqual(got, map[string]bool{"tags": true, "flag-groups": true}) {
		t.Errorf("KnownLimits = %v, %v", got, err)
	}
	if err := os.WriteFile(doc, []byte("no table\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := KnownLimits(doc); err == nil {
		t.Error("a document without the table: no error")
	}
	if k, err := KnownLimits("../../docs/external.md"); err != nil || !k["args-arity"] {
		t.Errorf("docs/external.md: %v, %v", k, err)
	}
}
