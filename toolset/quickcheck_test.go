package toolset_test

import (
	"encoding/json"
	mathrand "math/rand"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/toolset"
)

// TestFastCheckDecidesAsJSONSchemaGo sends random arguments, shaped by
// each tool's own schema and often wrong, to every tool of mycli and of
// the large and policy test trees, and requires the call's decoding with
// the fast checker first to end exactly as with jsonschema-go alone: the
// same flags and args, or the same error. Every tool's schema must be one
// the fast checker evaluates, or calls to it would pay for the general
// validator.
func TestFastCheckDecidesAsJSONSchemaGo(t *testing.T) {
	trees := map[string]*toolset.Toolset{"mycli": myTree()}
	for name, root := range map[string]func() *toolset.Toolset{
		"large":  func() *toolset.Toolset { return mustNew(t, largeTree()) },
		"policy": func() *toolset.Toolset { return mustNew(t, policyTree(mathrand.New(mathrand.NewSource(7)))) },
	} {
		trees[name] = root()
	}
	r := rand.New(rand.NewPCG(3, 4))
	for tree, ts := range trees {
		valid, calls := 0, 0
		for _, tool := range ts.List() {
			schema := tool.Definition().InputSchema.(*jsonschema.Schema)
			for range 25 {
				args := randArguments(r, schema)
				fast, general, covered := toolset.DecodeBoth(ts, tool.Name, args)
				if !covered {
					t.Fatalf("%s: %s: the fast checker does not evaluate its input schema", tree, tool.Name)
				}
				if fast != general {
					t.Fatalf("%s: %s %s:\nwith the fast checker: %s\njsonschema-go alone:  %s", tree, tool.Name, args, fast, general)
				}
				calls++
				if fast[:5] != "error" {
					valid++
				}
			}
		}
		// The draws must exercise both verdicts.
		if valid < calls/20 || valid > calls*19/20 {
			t.Errorf("%s: %d of %d random calls decoded: the draws miss one side", tree, valid, calls)
		}
	}
}

func mustNew(t *testing.T, root *cobra.Command) *toolset.Toolset {
	t.Helper()
	ts, err := toolset.New(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// randArguments draws a call's arguments for a tool's input schema: each
// flag with a value of its type most of the time (an enum's member, an
// integer in range...), sometimes of another type, out of range, null, or
// a flag the tool does not have.
func randArguments(r *rand.Rand, schema *jsonschema.Schema) json.RawMessage {
	doc := map[string]any{}
	if fs := schema.Properties["flags"]; fs != nil {
		flags := map[string]any{}
		names := make([]string, 0, len(fs.Properties))
		for n := range fs.Properties {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			if r.IntN(4) == 0 {
				flags[n] = randFor(r, fs.Properties[n], 0)
			}
		}
		if r.IntN(20) == 0 {
			flags["no-such-flag"] = true
		}
		if len(flags) > 0 || r.IntN(2) == 0 {
			doc["flags"] = flags
		}
	}
	for _, name := range []string{"args", "argsAfterDash"} {
		if s := schema.Properties[name]; s != nil && r.IntN(2) == 0 {
			doc[name] = randFor(r, s, 0)
		}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return b
}

func randFor(r *rand.Rand, s *jsonschema.Schema, depth int) any {
	if r.IntN(12) == 0 || depth > 2 {
		return []any{nil, "x", 1.5, -3.0, true, []any{}, map[string]any{"k": "v"}}[r.IntN(7)]
	}
	if len(s.Enum) > 0 && r.IntN(4) != 0 {
		return s.Enum[r.IntN(len(s.Enum))]
	}
	for _, alt := range s.AnyOf { // an optional flag's {"type": "null"} branch and its own
		if alt.Type != "null" {
			return randFor(r, alt, depth+1)
		}
	}
	typ := s.Type
	if typ == "" && len(s.Types) > 0 {
		typ = s.Types[r.IntN(len(s.Types))]
	}
	switch typ {
	case "boolean":
		return r.IntN(2) == 0
	case "integer":
		return []any{0.0, 1.0, 3.0, -1.0, 127.0, 128.0, 65536.0, 2.5, 1e20}[r.IntN(9)]
	case "number":
		return []any{0.0, 0.5, -2.25, 1e6}[r.IntN(4)]
	case "array":
		n := r.IntN(4)
		a := make([]any, n)
		for i := range a {
			if s.Items != nil {
				a[i] = randFor(r, s.Items, depth+1)
			} else {
				a[i] = "v"
			}
		}
		return a
	case "object":
		m := map[string]any{}
		for range r.IntN(3) {
			k := []string{"a", "key", "", "k=v", "A B"}[r.IntN(5)]
			if s.AdditionalProperties != nil {
				m[k] = randFor(r, s.AdditionalProperties, depth+1)
			} else {
				m[k] = "v"
			}
		}
		return m
	}
	return []any{"", "value", "15m", "10s", "1.5h", "a,b", "key=value", "-dash", "é"}[r.IntN(9)]
}
