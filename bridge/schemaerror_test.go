package bridge

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// TestSchemaErrorPlainNumbers validates real instances with jsonschema-go
// and checks the message a model reads: numbers as JSON writes them, never
// fractions ("-1/1") or fixed six decimals ("0.000000").
func TestSchemaErrorPlainNumbers(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		name   string
		schema *jsonschema.Schema
		value  string
		want   string
	}{
		{"minimum", &jsonschema.Schema{Type: "integer", Minimum: f(0)}, `-1`, "flag --n: minimum: -1 is less than 0"},
		{"maximum", &jsonschema.Schema{Type: "integer", Maximum: f(65535)}, `70000`, "flag --n: maximum: 70000 is greater than 65535"},
		{"fraction", &jsonschema.Schema{Type: "number", Minimum: f(0.5)}, `0.25`, "flag --n: minimum: 0.25 is less than 0.5"},
		{"tiny limit", &jsonschema.Schema{Type: "number", Minimum: f(1e-7)}, `0`, "flag --n: minimum: 0 is less than 1e-7"},
		{"third", &jsonschema.Schema{Type: "number", Maximum: f(0)}, `0.3333333333333333`, "flag --n: maximum: 0.3333333333333333 is greater than 0"},
		{"large", &jsonschema.Schema{Type: "number", Maximum: f(1e21)}, `2e21`, "flag --n: maximum: 2e+21 is greater than 1e+21"},
		{"exclusive minimum", &jsonschema.Schema{Type: "number", ExclusiveMinimum: f(0)}, `0`, "flag --n: exclusiveMinimum: 0 is less than or equal to 0"},
		{"exclusive maximum", &jsonschema.Schema{Type: "number", ExclusiveMaximum: f(1.5)}, `2`, "flag --n: exclusiveMaximum: 2 is greater than or equal to 1.5"},
		{"multiple of", &jsonschema.Schema{Type: "number", MultipleOf: f(0.5)}, `0.3`, "flag --n: multipleOf: 0.3 is not a multiple of 0.5"},
		{"array item", &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "integer", Minimum: f(1)}}, `[3, 0]`, "flag --n at /items: minimum: 0 is less than 1"},
		{"not a number", &jsonschema.Schema{Type: "integer"}, `"three"`, `flag --n: type: three has type "string", want "integer"`},
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
			if got := schemaError(err, root); got != tt.want {
				t.Errorf("schemaError(%q)\n got %q\nwant %q", err, got, tt.want)
			}
			// Without the schema the limit comes from the message's %f,
			// which is exact for every limit here but the tiny one.
			if got := schemaError(err, nil); got != tt.want && tt.name != "tiny limit" {
				t.Errorf("schemaError(%q, nil)\n got %q\nwant %q", err, got, tt.want)
			}
		})
	}
}
