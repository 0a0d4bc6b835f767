package toolset_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/internal/dialect"
	"github.com/cobramcp/cobramcp/internal/flagschema"
	"github.com/cobramcp/cobramcp/test/roundtrip"
	"github.com/cobramcp/cobramcp/test/strictcheck"
	"github.com/cobramcp/cobramcp/toolset"
)

// unionTree has maps that stand in a branch of an anyOf, as a jsonschema
// annotation may write them: a map or a string, and an object one of
// whose branches holds a map.
func unionTree() *cobra.Command {
	root := &cobra.Command{Use: "app"}
	set := &cobra.Command{Use: "set", Args: cobra.NoArgs, Run: func(*cobra.Command, []string) {}}
	fl := set.Flags()
	fl.String("alt", "", "a map or a name")
	fl.String("nested", "", "an object holding a map")
	annotate := func(name, schema string) {
		if err := fl.SetAnnotation(name, flagschema.Annotation, []string{schema}); err != nil {
			panic(err)
		}
	}
	annotate("alt", `{"anyOf":[{"type":"object","additionalProperties":{"type":"string"}},{"type":"string"}]}`)
	annotate("nested", `{"type":"object","properties":{"env":{"anyOf":[{"type":"object","additionalProperties":{"type":"integer"}},{"type":"null"}]}},"additionalProperties":false}`)
	root.AddCommand(set)
	return root
}

// strictKeyShapes are map keys that need care somewhere between a JSON
// object, its strict {key, value} form and a command line: pflag's map
// separators, quotes, blanks, control characters, non-ASCII, empty.
var strictKeyShapes = []string{"a,b", "a,b,c", ",", "[a", "a]", "[a]", "a[b]", "[", "]", "a=b",
	"a\nb", "\n", "a\tb", "a\rb", "a\r\nb", "a\x00b", "\x01", "a\x7fb", "\"a\"", "a b", " a ",
	"é,日", "a\u2028b", "\U0001F600", ""}

// TestStrictMapKeyShapes: for every map of the table (pflag's three map
// types on mycli and on a tree of its own, and maps that an annotation
// puts in a branch of an anyOf) and every key of strictKeyShapes, an
// input that the tool's MCP schema accepts is accepted by the OpenAI
// strict schema in its {key, value} pairs form, the call path gives both
// forms the same argv (or the same refusal), and when it runs, the tree's
// own parser reads the map back exactly. No input the MCP schema accepts
// may be refused by the strict form.
func TestStrictMapKeyShapes(t *testing.T) {
	tests := []struct {
		tree  func() *cobra.Command
		tool  string
		flag  string
		value any                                   // the map's one value
		input func(m map[string]any) map[string]any // the arguments holding the map
		read  func(got any) any                     // what the command saw, as the map
	}{
		{mycli.New, "mycli_echo", "map", "v", flagsWith("map", nil), nil},
		{mycli.New, "mycli_run", "labels", "v", func(m map[string]any) map[string]any {
			return map[string]any{"flags": map[string]any{"labels": m, "image": "nginx"}, "args": []string{"web"}}
		}, nil},
		{pairsTree, "app_set", "labels", "v", flagsWith("labels", nil), nil},
		{pairsTree, "app_set", "limits", 7, flagsWith("limits", nil), nil},
		{pairsTree, "app_set", "sizes", 7, flagsWith("sizes", nil), nil},
		{unionTree, "app_set", "alt", "v", flagsWith("alt", nil), jsonText},
		{unionTree, "app_set", "nested", 7, flagsWith("nested", func(m map[string]any) any { return map[string]any{"env": m} }), func(got any) any {
			return jsonText(got).(map[string]any)["env"]
		}},
	}
	inputs, refused, ran := 0, 0, 0
	for _, tt := range tests {
		var argv []string
		capture := func(toolset.RunFunc) toolset.RunFunc {
			return func(_ context.Context, c *toolset.Call) (*toolset.Result, error) {
				argv = c.Argv
				return &toolset.Result{}, nil
			}
		}
		ts := mustTools(t, tt.tree(), &toolset.Config{Middleware: []toolset.Middleware{capture}})
		tool, ok := ts.Lookup(tt.tool)
		if !ok {
			t.Fatalf("%s left out: %v", tt.tool, ts.Problems())
		}
		v := fullView(ts)
		strict, ok := strictcheck.StrictParameters(t, v)[dialect.NameFor(dialect.OpenAI, tt.tool)]
		if !ok {
			t.Fatalf("%s is not exported as a strict function", tt.tool)
		}
		strictSchema := strictcheck.Resolve(t, strict)
		mcpSchema := strictcheck.Resolve(t, tool.Definition().InputSchema)
		call := func(args any) (string, []string) {
			raw, err := json.Marshal(args)
			if err != nil {
				t.Fatal(err)
			}
			argv = nil
			res, err := v.Call(context.Background(), tt.tool, raw)
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError {
				return resultText(res), nil
			}
			return "", slices.Clone(argv)
		}
		for _, key := range strictKeyShapes {
			t.Run(fmt.Sprintf("%s --%s %q", tt.tool, tt.flag, key), func(t *testing.T) {
				want := map[string]any{key: tt.value}
				orig := tt.input(want)
				if strictcheck.Validate(t, mcpSchema, orig) != nil {
					return // the MCP schema refuses it: no strict form is owed
				}
				inputs++
				sent := strictcheck.StrictForm(strict, orig)
				if err := strictcheck.Validate(t, strictSchema, sent); err != nil {
					refused++
					b, _ := json.Marshal(sent)
					t.Fatalf("the strict schema refuses %s: %v", b, err)
				}
				wantText, wantArgv := call(orig)
				gotText, gotArgv := call(sent)
				if wantText != gotText || !slices.Equal(wantArgv, gotArgv) {
					refused++
					t.Fatalf("the strict form is read as %q %q, the MCP form as %q %q", gotArgv, gotText, wantArgv, wantText)
				}
				if wantArgv == nil {
					return // refused alike in both forms: the command line cannot carry it
				}
				res, err := roundtrip.Execute(tt.tree(), wantArgv)
				if err != nil {
					t.Fatalf("%q: %v", wantArgv, err)
				}
				got := res.Flags[tt.flag]
				if tt.read != nil {
					got = tt.read(got)
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%q is read back as %#v, want %#v", wantArgv, got, want)
				}
				ran++
			})
		}
	}
	if inputs < 100 || ran < 80 {
		t.Errorf("%d inputs valid for the MCP schema, %d ran: too few to say anything", inputs, ran)
	}
	t.Logf("%d map inputs valid for the MCP schema: %d refused by the strict form, %d ran and were read back exactly", inputs, refused, ran)
}

// flagsWith returns the arguments {"flags": {name: wrap(m)}} (m itself
// when wrap is nil).
func flagsWith(name string, wrap func(map[string]any) any) func(map[string]any) map[string]any {
	return func(m map[string]any) map[string]any {
		var v any = m
		if wrap != nil {
			v = wrap(m)
		}
		return map[string]any{"flags": map[string]any{name: v}}
	}
}

// jsonText decodes the JSON text a string flag holding an annotated value
// received, numbers as float64 (printed as the integers they are).
func jsonText(got any) any {
	s, _ := got.(string)
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return got
	}
	return v
}
