package strictcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/internal/dialect"
	"github.com/cobramcp/cobramcp/test/roundtrip"
	"github.com/cobramcp/cobramcp/toolset"
)

// Case says what [MapKeys] checks.
type Case struct {
	// New returns a fresh tree; it is called once for the toolset and
	// once per argv read back.
	New func() *cobra.Command
	// Config is the toolset configuration; MapKeys appends a middleware
	// that captures the argv instead of running the command.
	Config toolset.Config
	// Keys are the map keys tried, each alone in a one-entry map.
	Keys []string
	// Reader names the tree in failure messages ("docker").
	Reader string
}

// Counts says how many inputs [MapKeys] tried.
type Counts struct {
	// Inputs is the number of inputs valid for the MCP schema.
	Inputs int
	// Refused is how many of them the strict schema refused.
	Refused int
	// Read is how many of them ran and were read back as the map given.
	Read int
}

// MapKeys checks every map flag of every tool of c.New() with every key of
// c.Keys, reporting each mismatch through t, and returns the counts.
func MapKeys(t testing.TB, c Case) Counts {
	t.Helper()
	var argv []string
	cfg := c.Config
	cfg.Middleware = append(slices.Clone(cfg.Middleware), func(toolset.RunFunc) toolset.RunFunc {
		return func(_ context.Context, call *toolset.Call) (*toolset.Result, error) {
			argv = call.Argv
			return &toolset.Result{}, nil
		}
	})
	ts, err := toolset.New(c.New(), &cfg)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ts.View(toolset.Listing{})
	if err != nil {
		t.Fatal(err)
	}
	strict := StrictParameters(t, v)
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
	var n Counts
	for _, tl := range v.List() {
		params, ok := strict[dialect.NameFor(dialect.OpenAI, tl.Name)]
		if !ok {
			continue
		}
		in := tl.Definition().InputSchema.(*jsonschema.Schema)
		orig, err := in.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		strictSchema := Resolve(t, params)
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
		for _, name := range slices.Sorted(maps.Keys(flags.Properties)) {
			fs := flags.Properties[name]
			if fs.Type != "object" || fs.AdditionalProperties == nil || len(fs.Properties) > 0 {
				continue
			}
			for _, key := range c.Keys {
				var value any = "v"
				if fs.AdditionalProperties.Type == "integer" {
					value = 7
				}
				input := map[string]any{"flags": map[string]any{name: map[string]any{key: value}}}
				if args != nil {
					input["args"] = args
				}
				if Validate(t, orig, input) != nil {
					continue
				}
				n.Inputs++
				sent := StrictForm(params, input)
				if err := Validate(t, strictSchema, sent); err != nil {
					n.Refused++
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
				res, err := roundtrip.Execute(c.New(), wantArgv)
				if err != nil {
					t.Errorf("%s: %s %q: %v", tl.Name, c.Reader, wantArgv, err)
					continue
				}
				if got, want := fmt.Sprint(res.Flags[name]), fmt.Sprint(map[string]any{key: value}); got != want {
					t.Errorf("%s: %s reads %q as --%s %s, want %s", tl.Name, c.Reader, wantArgv, name, got, want)
					continue
				}
				n.Read++
			}
		}
	}
	return n
}

// StrictParameters exports v's tools in the OpenAI dialect and maps the
// name of each strict function to its parameters schema.
func StrictParameters(t testing.TB, v *toolset.Served) map[string]map[string]any {
	t.Helper()
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
	return strict
}

// Resolve compiles a schema given as a JSON value with jsonschema-go.
func Resolve(t testing.TB, v any) *jsonschema.Resolved {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("schema does not parse: %v\n%s", err, b)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("schema does not resolve: %v\n%s", err, b)
	}
	return rs
}

// Validate validates v against rs as a client sends it: as JSON text.
func Validate(t testing.TB, rs *jsonschema.Resolved, v any) error {
	t.Helper()
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

// StrictForm writes v in the form strict schema s asks for: a map as a
// list of {key, value} pairs (keys sorted), every property s lists and v
// leaves out as null; a list's elements are written the same way.
func StrictForm(s map[string]any, v any) any {
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
			for _, k := range slices.Sorted(maps.Keys(x)) {
				pairs = append(pairs, map[string]any{"key": k, "value": StrictForm(vs, x[k])})
			}
			return pairs
		}
		props, _ := s["properties"].(map[string]any)
		out := map[string]any{}
		for k, ps := range props {
			if e, ok := x[k]; ok {
				out[k] = StrictForm(ps.(map[string]any), e)
			} else {
				out[k] = nil
			}
		}
		return out
	case []any:
		items, _ := s["items"].(map[string]any)
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = StrictForm(items, e)
		}
		return out
	}
	return v
}
