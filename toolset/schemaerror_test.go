package toolset

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/internal/flagschema"
)

// durationSchema is the schema of a duration flag as flagschema gives it.
func durationSchema() *jsonschema.Schema {
	fs := pflag.NewFlagSet("", pflag.ContinueOnError)
	fs.Duration("n", 0, "")
	s, _ := flagschema.For(fs.Lookup("n"))
	return s
}

// TestSchemaErrorPlainNumbers validates real instances with jsonschema-go
// and checks the message a model reads: numbers as JSON writes them, never
// fractions ("-1/1") or fixed six decimals ("0.000000"), the limit read
// from the schema.
func TestSchemaErrorPlainNumbers(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		name   string
		schema *jsonschema.Schema
		value  string
		want   string
	}{
		{"minimum", &jsonschema.Schema{Type: "integer", Minimum: f(0)}, `-1`, "flags.n: -1, want at least 0"},
		{"maximum", &jsonschema.Schema{Type: "integer", Maximum: f(65535)}, `70000`, "flags.n: 70000, want at most 65535"},
		{"fraction", &jsonschema.Schema{Type: "number", Minimum: f(0.5)}, `0.25`, "flags.n: 0.25, want at least 0.5"},
		{"tiny limit", &jsonschema.Schema{Type: "number", Minimum: f(1e-7)}, `0`, "flags.n: 0, want at least 1e-7"},
		{"third", &jsonschema.Schema{Type: "number", Maximum: f(0)}, `0.3333333333333333`, "flags.n: 0.3333333333333333, want at most 0"},
		{"large", &jsonschema.Schema{Type: "number", Maximum: f(1e21)}, `2e21`, "flags.n: 2e+21, want at most 1e+21"},
		{"exclusive minimum", &jsonschema.Schema{Type: "number", ExclusiveMinimum: f(0)}, `0`, "flags.n: 0, want more than 0"},
		{"exclusive maximum", &jsonschema.Schema{Type: "number", ExclusiveMaximum: f(1.5)}, `2`, "flags.n: 2, want less than 1.5"},
		{"multiple of", &jsonschema.Schema{Type: "number", MultipleOf: f(0.5)}, `0.3`, "flags.n: 0.3, want a multiple of 0.5"},
		{"array item", &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "integer", Minimum: f(1)}}, `[3, 0]`, "flags.n[1]: 0, want at least 1"},
		{"not a number", &jsonschema.Schema{Type: "integer"}, `"three"`, `flags.n: "three" is a string, want integer`},
		{"duration", durationSchema(), `"5 minutes"`, `flags.n: "5 minutes", want a Go duration such as 30s, 5m, 1h30m`},
		{"an annotation's pattern", &jsonschema.Schema{Type: "string", Pattern: "^[a-z]+$"}, `"A"`, `flags.n: "A", want a match of the pattern "^[a-z]+$"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
				"flags": {Type: "object", Properties: map[string]*jsonschema.Schema{"n": tt.schema}},
			}}
			rs, err := root.Resolve(nil)
			if err != nil {
				t.Fatal(err)
			}
			var v any
			if err := json.Unmarshal([]byte(`{"flags": {"n": `+tt.value+`}}`), &v); err != nil {
				t.Fatal(err)
			}
			err = rs.Validate(v)
			if err == nil {
				t.Fatalf("%s validates against %+v", tt.value, tt.schema)
			}
			if got := schemaProblem(err, root, "", v); got != tt.want {
				t.Errorf("schemaProblem(%q)\n got %q\nwant %q", err, got, tt.want)
			}
		})
	}
}
