package docker

import (
	"context"
	"encoding/json"
	"fmt"

	"slices"
	"sort"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cobramcp/cobramcp/dialect"
	"github.com/cobramcp/cobramcp/test/roundtrip"
)

// strictKeys are map keys that need care on a command line: the
// separators of pflag's map syntax (",", "=", "[", "]"), quotes, blanks
// and control characters.
var strictKeys = []string{"a,b", "a,b,c", ",", "[a", "a]", "[a]", "a[b]", "[", "]", "\x01", "a\tb", "\n", "a\rb", "a\r\nb", "a\x00b", "\x7f", "\"a\"", "a b", " a ", "é,日", "a\u2028b", "\U0001F600", "a=b", ""}

// TestDockerStrictMapKeys: for every map flag of every docker command
// (context create and update's --docker, ...), a call setting it to one
// entry whose key is each of strictKeys is read the same in both forms:
// when the tool's MCP schema accepts the input, the OpenAI strict schema
// accepts its {key, value} pairs form, the call path gives both the same
// argv (or the same refusal), and docker's own tree reads that argv back
// as exactly the map given.
func TestDockerStrictMapKeys(t *testing.T) {
	var argv []string
	ts := toolsOf(t, &argv)
	v := fullView(ts)
	doc, _, err := dialect.Export(dialect.OpenAI, v.Tools(), dialect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var fns []struct {
		Function struct {
			Name       string         `json:"name"`
			Strict     bool           `json:"strict"`
			Parameters map[string]any `json:"parameters"`
		} `json:"function"`
	}
	if err := json.Unmarshal(doc, &fns); err != nil {
		t.Fatal(err)
	}
	strict := map[string]map[string]any{}
	for _, f := range fns {
		if f.Function.Strict {
			strict[f.Function.Name] = f.Function.Parameters
		}
	}
	call := func(name string, in any) (string, []string) {
		raw, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		argv = nil
		res, err := v.Call(context.Background(), name, raw)
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError {
			return fmt.Sprint(res.Content[0]), nil
		}
		return "", slices.Clone(argv)
	}
	inputs, refused, read := 0, 0, 0
	for _, tl := range ts.List() {
		params, ok := strict[dialect.NameFor(dialect.OpenAI, tl.Name)]
		if !ok {
			continue
		}
		in := tl.Definition().InputSchema.(*jsonschema.Schema)
		orig, err := in.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		strictSchema := resolveJSON(t, params)
		var args []string
		if a := in.Properties["args"]; a != nil && a.MinItems != nil {
			for i := range *a.MinItems {
				args = append(args, "arg"+string(rune('0'+i)))
			}
		}
		flags := in.Properties["flags"]
		if flags == nil {
			continue
		}
		for _, name := range mapsKeys(flags.Properties) {
			fs := flags.Properties[name]
			if fs.Type != "object" || fs.AdditionalProperties == nil || len(fs.Properties) > 0 {
				continue
			}
			for _, key := range strictKeys {
				var value any = "v"
				if fs.AdditionalProperties.Type == "integer" {
					value = 7
				}
				input := map[string]any{"flags": map[string]any{name: map[string]any{key: value}}}
				if args != nil {
					input["args"] = args
				}
				if validateJSON(t, orig, input) != nil {
					continue
				}
				inputs++
				sent := strictFormOf(params, input)
				if err := validateJSON(t, strictSchema, sent); err != nil {
					refused++
					b, _ := json.Marshal(sent)
					t.Errorf("%s --%s key %q: the strict schema refuses %s: %v", tl.Name, name, key, b, err)
					continue
				}
				wantText, wantArgv := call(tl.Name, input)
				gotText, gotArgv := call(tl.Name, sent)
				if wantText != gotText || !slices.Equal(wantArgv, gotArgv) {
					t.Errorf("%s --%s key %q: strict form read as %q %q, want %q %q", tl.Name, name, key, gotArgv, gotText, wantArgv, wantText)
					continue
				}
				if wantArgv == nil {
					continue
				}
				res, err := roundtrip.Execute(New(), wantArgv)
				if err != nil {
					t.Errorf("%s: docker %q: %v", tl.Name, wantArgv, err)
					continue
				}
				want := map[string]any{key: value}
				got := res.Flags[name]
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s: docker reads %q as --%s %#v, want %#v", tl.Name, wantArgv, name, got, want)
					continue
				}
				read++
			}
		}
	}
	if inputs < 20 || read < 10 {
		t.Errorf("%d inputs valid for the MCP schema, %d read back by docker: too few to say anything", inputs, read)
	}
	t.Logf("%d inputs with unusual map keys valid for the MCP schema: %d refused by the strict schema, %d read back by docker", inputs, refused, read)
}

func mapsKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// resolveJSON compiles a schema given as a JSON value.
func resolveJSON(t *testing.T, v any) *jsonschema.Resolved {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// validateJSON validates v as a client sends it: as JSON text.
func validateJSON(t *testing.T, rs *jsonschema.Resolved, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	return rs.Validate(back)
}

// strictFormOf writes v in the form strict schema s asks for: a map as a
// list of {key, value} pairs, every property s lists and v leaves out as
// null.
func strictFormOf(s map[string]any, v any) any {
	if alts, ok := s["anyOf"].([]any); ok {
		for _, a := range alts {
			if b, _ := a.(map[string]any); b != nil && b["type"] != "null" {
				s = b
				break
			}
		}
	}
	switch x := v.(type) {
	case map[string]any:
		if items, _ := s["items"].(map[string]any); s["type"] == "array" && items != nil {
			props, _ := items["properties"].(map[string]any)
			vs, _ := props["value"].(map[string]any)
			var pairs []any
			for _, k := range mapsKeys(x) {
				pairs = append(pairs, map[string]any{"key": k, "value": strictFormOf(vs, x[k])})
			}
			return pairs
		}
		props, _ := s["properties"].(map[string]any)
		out := map[string]any{}
		for k, ps := range props {
			if e, ok := x[k]; ok {
				out[k] = strictFormOf(ps.(map[string]any), e)
			} else {
				out[k] = nil
			}
		}
		return out
	case []string:
		return x
	}
	return v
}
