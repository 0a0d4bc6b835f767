package schemacheck

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// general is jsonschema-go's verdict on v, the one a Checker must agree
// with whenever it decides.
func general(t testing.TB, s *jsonschema.Schema, v any) Verdict {
	t.Helper()
	rs, err := s.CloneSchemas().Resolve(nil)
	if err != nil {
		t.Fatalf("resolve %s: %v", show(s), err)
	}
	if rs.Validate(v) != nil {
		return Invalid
	}
	return Valid
}

func show(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func decode(t testing.TB, text string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return v
}

func schemaOf(t testing.TB, text string) *jsonschema.Schema {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return &s
}

func TestCheck(t *testing.T) {
	tests := []struct {
		schema, value string
		want          Verdict
	}{
		{`{"type":"string"}`, `"a"`, Valid},
		{`{"type":"string"}`, `1`, Invalid},
		{`{"type":"integer"}`, `2`, Valid},
		{`{"type":"integer"}`, `2.0`, Valid},
		{`{"type":"integer"}`, `2.5`, Invalid},
		{`{"type":"integer"}`, `1e300`, Valid},
		{`{"type":"number"}`, `2`, Valid},
		{`{"type":["string","null"]}`, `null`, Valid},
		{`{"type":["string","null"]}`, `true`, Invalid},
		{`{"enum":["a","b"]}`, `"b"`, Valid},
		{`{"enum":["a","b"]}`, `"c"`, Invalid},
		{`{"enum":[]}`, `"a"`, Invalid},
		{`{"const":null}`, `null`, Valid},
		{`{"const":1}`, `1.0`, Valid},
		{`{"const":1}`, `true`, Invalid},
		{`{"minimum":0,"maximum":127}`, `127`, Valid},
		{`{"minimum":0,"maximum":127}`, `128`, Invalid},
		{`{"minimum":0}`, `"-1"`, Valid}, // numeric keywords skip strings
		{`{"exclusiveMinimum":0}`, `0`, Invalid},
		{`{"exclusiveMaximum":1}`, `0.999`, Valid},
		{`{"minLength":2,"maxLength":3}`, `"é!"`, Valid},
		{`{"maxLength":1}`, `"é!"`, Invalid},
		{`{"pattern":"^[0-9]+(s|m|h)$"}`, `"15m"`, Valid},
		{`{"pattern":"^[0-9]+(s|m|h)$"}`, `"15 m"`, Invalid},
		{`{"pattern":"b"}`, `"abc"`, Valid}, // unanchored
		{`{"items":{"type":"string"},"minItems":1,"maxItems":2}`, `["a"]`, Valid},
		{`{"items":{"type":"string"},"minItems":1,"maxItems":2}`, `[]`, Invalid},
		{`{"items":{"type":"string"}}`, `["a",1]`, Invalid},
		{`{"type":"object","properties":{"a":{"type":"boolean"}},"additionalProperties":false}`, `{"a":true}`, Valid},
		{`{"type":"object","properties":{"a":{"type":"boolean"}},"additionalProperties":false}`, `{"b":true}`, Invalid},
		{`{"additionalProperties":{"type":"string"}}`, `{"k":"v"}`, Valid},
		{`{"additionalProperties":{"type":"string"}}`, `{"k":1}`, Invalid},
		{`{"propertyNames":{"pattern":"^[a-z]+$"}}`, `{"ok":1,"No":2}`, Invalid},
		{`{"minProperties":1}`, `{}`, Invalid},
		{`{"required":["a"]}`, `{"a":null}`, Valid},
		{`{"required":["a"]}`, `{}`, Invalid},
		{`{"dependentRequired":{"a":["b"]}}`, `{"a":1}`, Invalid},
		{`{"dependentRequired":{"a":["b"]}}`, `{"b":1}`, Valid},
		{`{"not":{"anyOf":[{"required":["a","b"]}]}}`, `{"a":1,"b":2}`, Invalid},
		{`{"not":{"anyOf":[{"required":["a","b"]}]}}`, `{"a":1}`, Valid},
		{`{"oneOf":[{"type":"integer"},{"type":"number"}]}`, `1`, Invalid},
		{`{"oneOf":[{"type":"integer"},{"type":"string"}]}`, `1`, Valid},
		{`{"allOf":[{"minimum":1},{"maximum":2}]}`, `3`, Invalid},
		{`true`, `{"x":[1]}`, Valid},
		{`false`, `1`, Invalid},
		// Keywords the checker leaves to the general validator.
		{`{"$ref":"#/$defs/a","$defs":{"a":{}}}`, `1`, Unknown},
		{`{"patternProperties":{"^a":{}}}`, `{}`, Unknown},
		{`{"multipleOf":2}`, `4`, Unknown},
		{`{"uniqueItems":true}`, `[1]`, Unknown},
		{`{"enum":[[1]]}`, `[1]`, Unknown},
		{`{"properties":{"a":{"if":{}}}}`, `{}`, Unknown},
	}
	for _, tt := range tests {
		t.Run(tt.schema+" "+tt.value, func(t *testing.T) {
			s, v := schemaOf(t, tt.schema), decode(t, tt.value)
			c, ok := New(s)
			if ok != (tt.want != Unknown) {
				t.Errorf("New: %v, want %v", ok, tt.want != Unknown)
			}
			got := c.Check(v)
			if got != tt.want {
				t.Fatalf("Check = %v, want %v", got, tt.want)
			}
			if got != Unknown {
				if g := general(t, s, v); g != got {
					t.Fatalf("jsonschema-go says %v, the checker %v", g, got)
				}
			}
		})
	}
}

// TestCheckNotJSONTypes: a Go type outside encoding/json's is Unknown.
func TestCheckNotJSONTypes(t *testing.T) {
	c, ok := New(schemaOf(t, `{"type":"integer"}`))
	if !ok {
		t.Fatal("New refused a plain schema")
	}
	for _, v := range []any{1, int64(2), []string{"a"}, map[string]string{}, struct{}{}} {
		if got := c.Check(v); got != Unknown {
			t.Errorf("Check(%T) = %v, want unknown", v, got)
		}
	}
}

// TestCheckAgreesWithJSONSchemaGo draws random schemas of the handled
// keywords and random values, and requires the checker to decide most of
// them and to agree with jsonschema-go on every one it decides.
func TestCheckAgreesWithJSONSchemaGo(t *testing.T) {
	n := 4000
	if testing.Short() {
		n = 500
	}
	r := rand.New(rand.NewPCG(1, 2))
	decided := 0
	for i := range n {
		s := randSchema(r, 0)
		c, ok := New(s)
		if !ok {
			t.Fatalf("New refused a schema of handled keywords: %s", show(s))
		}
		for range 5 {
			v := randValue(r, 0)
			got := c.Check(v)
			if got == Unknown {
				continue
			}
			decided++
			if want := general(t, s, v); got != want {
				t.Fatalf("case %d: schema %s, value %s: checker %v, jsonschema-go %v", i, show(s), show(v), got, want)
			}
		}
	}
	if decided < n*5*95/100 {
		t.Errorf("the checker decided %d of %d values, want at least 95%%", decided, n*5)
	}
}

var words = []string{"a", "b", "c", "1", "15m", "é", "", "A b"}

func randSchema(r *rand.Rand, depth int) *jsonschema.Schema {
	s := &jsonschema.Schema{}
	if r.IntN(3) == 0 {
		s.Description = "annotation"
	}
	types := []string{"string", "integer", "number", "boolean", "array", "object", "null"}
	switch r.IntN(4) {
	case 0:
		s.Type = types[r.IntN(len(types))]
	case 1:
		s.Types = []string{types[r.IntN(len(types))], types[r.IntN(len(types))]}
	}
	pick := func() bool { return r.IntN(6) == 0 }
	f := func() *float64 { v := float64(r.IntN(7)-3) / float64(1+r.IntN(2)); return &v }
	n := func() *int { v := r.IntN(4); return &v }
	if pick() {
		for range r.IntN(3) {
			s.Enum = append(s.Enum, randScalar(r))
		}
		if s.Enum == nil {
			s.Enum = []any{}
		}
	}
	if pick() {
		c := randScalar(r)
		s.Const = &c
	}
	for _, bound := range []**float64{&s.Minimum, &s.Maximum, &s.ExclusiveMinimum, &s.ExclusiveMaximum} {
		if pick() {
			*bound = f()
		}
	}
	if pick() {
		s.Pattern = []string{"^[a-c]+$", "b", "^[0-9]+(s|m|h)$", "^$"}[r.IntN(4)]
	}
	for _, count := range []**int{&s.MinLength, &s.MaxLength, &s.MinItems, &s.MaxItems, &s.MinProperties, &s.MaxProperties} {
		if pick() {
			*count = n()
		}
	}
	if pick() {
		s.Required = []string{words[r.IntN(3)]}
	}
	if pick() {
		s.DependentRequired = map[string][]string{words[r.IntN(3)]: {words[r.IntN(3)]}}
	}
	if depth < 3 {
		if pick() {
			s.Items = randSchema(r, depth+1)
		}
		if pick() {
			s.Properties = map[string]*jsonschema.Schema{}
			for range 1 + r.IntN(3) {
				s.Properties[words[r.IntN(3)]] = randSchema(r, depth+1)
			}
		}
		if pick() {
			if r.IntN(2) == 0 {
				s.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}}
			} else {
				s.AdditionalProperties = randSchema(r, depth+1)
			}
		}
		if pick() {
			s.PropertyNames = &jsonschema.Schema{Pattern: "^[ab]$"}
		}
		for _, list := range []*[]*jsonschema.Schema{&s.AllOf, &s.AnyOf, &s.OneOf} {
			if pick() {
				for range 1 + r.IntN(2) {
					*list = append(*list, randSchema(r, depth+1))
				}
			}
		}
		if pick() {
			s.Not = randSchema(r, depth+1)
		}
	}
	return s
}

func randScalar(r *rand.Rand) any {
	switch r.IntN(4) {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		return float64(r.IntN(5)-2) / 2
	}
	return words[r.IntN(len(words))]
}

func randValue(r *rand.Rand, depth int) any {
	k := r.IntN(7)
	if depth >= 3 && k >= 5 {
		k = r.IntN(5)
	}
	switch k {
	case 0, 1, 2:
		return randScalar(r)
	case 3:
		return []float64{0, 1, -1, 2.5, 127, 128, 1e300, -0.5}[r.IntN(8)]
	case 4:
		return strings.Repeat(words[r.IntN(len(words))], r.IntN(3))
	case 5:
		a := []any{}
		for range r.IntN(4) {
			a = append(a, randValue(r, depth+1))
		}
		return a
	}
	m := map[string]any{}
	for range r.IntN(4) {
		m[words[r.IntN(4)]] = randValue(r, depth+1)
	}
	return m
}

func ExampleChecker() {
	var s jsonschema.Schema
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"replicas":{"type":"integer","minimum":0}},"additionalProperties":false}`), &s)
	c, _ := New(&s)
	for _, doc := range []string{`{"replicas":3}`, `{"replicas":-1}`, `{"replica":3}`} {
		var v any
		_ = json.Unmarshal([]byte(doc), &v)
		fmt.Println(doc, c.Check(v))
	}
	// Output:
	// {"replicas":3} valid
	// {"replicas":-1} invalid
	// {"replica":3} invalid
}
