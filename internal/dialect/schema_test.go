package dialect_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/internal/dialect"
)

// one exports a single tool whose input schema is schema and returns the
// translated schema as compact JSON and the warning messages (path: msg).
func one(t *testing.T, f dialect.Format, schema string) (map[string]any, []string) {
	t.Helper()
	out, warns, err := dialect.Export(f, []*mcp.Tool{{Name: "t", InputSchema: json.RawMessage(schema)}}, dialect.Options{})
	if err != nil {
		t.Fatalf("Export: %v", err)
	}
	var v any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	var entry map[string]any
	switch f {
	case dialect.Gemini:
		entry = v.(map[string]any)["tools"].([]any)[0].(map[string]any)["functionDeclarations"].([]any)[0].(map[string]any)
	default:
		entry = v.([]any)[0].(map[string]any)
	}
	var msgs []string
	for _, w := range warns {
		msgs = append(msgs, w.Path+": "+w.Message)
	}
	return entry, msgs
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// norm re-encodes a JSON text with sorted keys, as compact writes a
// decoded value.
func norm(s string) string {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return "invalid JSON: " + s
	}
	return compact(v)
}

// wrap puts a property schema under a closed root object as property "p",
// optional unless req.
func wrap(prop string, req bool) string {
	r := ""
	if req {
		r = `,"required":["p"]`
	}
	return `{"type":"object","properties":{"p":` + prop + `}` + r + `,"additionalProperties":false}`
}

func TestOpenAIStrictRewrite(t *testing.T) {
	tests := []struct {
		name   string
		prop   string
		req    bool
		want   string // the rewritten property
		strict bool
		warn   string // a substring of some warning, or "" for none
	}{
		{"required string stays", `{"type":"string"}`, true, `{"type":"string"}`, true, ""},
		{"optional string nullable", `{"type":"string"}`, false, `{"type":["string","null"]}`, true, ""},
		{"optional enum gets null", `{"type":"string","enum":["a","b"]}`, false, `{"type":["string","null"],"enum":["a","b",null]}`, true, ""},
		{"optional const becomes enum", `{"type":"string","const":"a"}`, false, `{"type":["string","null"],"enum":["a",null]}`, true, ""},
		{"optional anyOf gets a null branch", `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, false, `{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]}`, true, ""},
		{"keywords beside anyOf move into the branches", `{"type":"string","pattern":"^[0-9a-f:.]+$","description":"ip","anyOf":[{"type":"string","format":"ipv4"},{"type":"string","format":"ipv6"}]}`, false,
			`{"description":"ip","anyOf":[{"type":"string","format":"ipv4","pattern":"^[0-9a-f:.]+$"},{"type":"string","format":"ipv6","pattern":"^[0-9a-f:.]+$"},{"type":"null"}]}`, true, ""},
		{"type list keeps null once", `{"type":["string","null"]}`, false, `{"type":["string","null"]}`, true, ""},
		{"default into description", `{"type":"integer","description":"count","default":3}`, true, `{"type":"integer","description":"count. Default: 3."}`, true, ""},
		{"unsupported format dropped", `{"type":"string","format":"uri"}`, true, `{"type":"string"}`, true, `"uri" is not among the formats`},
		{"supported format kept", `{"type":"string","format":"uuid"}`, true, `{"type":"string","format":"uuid"}`, true, ""},
		{"numeric bounds kept", `{"type":"number","minimum":1,"exclusiveMaximum":9,"multipleOf":0.5}`, true, `{"type":"number","minimum":1,"exclusiveMaximum":9,"multipleOf":0.5}`, true, ""},
		{"array bounds kept", `{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":3}`, true, `{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":3}`, true, ""},
		{"uniqueItems dropped", `{"type":"array","items":{"type":"string"},"uniqueItems":true}`, true, `{"type":"array","items":{"type":"string"}}`, true, `dropped keyword "uniqueItems"`},
		{"nested object closed", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a"]}`, true,
			`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":["integer","null"]}},"required":["a","b"],"additionalProperties":false}`, true, ""},
		{"oneOf becomes anyOf", `{"oneOf":[{"type":"string"},{"type":"number"}]}`, true, `{"anyOf":[{"type":"string"},{"type":"number"}]}`, true, "oneOf became anyOf"},
		{"not dropped", `{"type":"string","not":{"const":"x"}}`, true, `{"type":"string"}`, true, `dropped keyword "not"`},
		{"if/then/else dropped", `{"type":"string","if":{"const":"a"},"then":{"minLength":1},"else":{"maxLength":0}}`, true, `{"type":"string"}`, true, `dropped keyword "if"`},
		{"flag group anyOf restated", `{"type":"object","properties":{"a":{"type":"string"}},"anyOf":[{"required":["a"]}],"additionalProperties":false}`, true,
			`{"type":"object","properties":{"a":{"type":["string","null"]}},"required":["a"],"additionalProperties":false,"description":"\"a\" must be set. A property counts as set when it is not null."}`, true, `keyword "anyOf" is stated in words`},
		{"untyped anyOf that is no flag group dropped", `{"type":"object","properties":{"a":{"type":"string"}},"anyOf":[{"minProperties":1}],"additionalProperties":false}`, true,
			`{"type":"object","properties":{"a":{"type":["string","null"]}},"required":["a"],"additionalProperties":false}`, true, "only assert which properties"},
		{"map becomes {key, value} pairs", `{"type":"object","description":"labels","minProperties":1,"additionalProperties":{"type":"integer"},"propertyNames":{"pattern":"^[^=]*$"}}`, true,
			`{"type":"array","description":"labels. Given as a list of {key, value} pairs, each key at most once.","minItems":1,"items":{"type":"object","properties":{"key":{"pattern":"^[^=]*$","type":"string"},"value":{"type":"integer"}},"required":["key","value"],"additionalProperties":false}}`, true, ""},
		{"bare object is not strict", `{"type":"object"}`, true, `{"type":"object"}`, false, "without properties"},
		{"untyped is not strict", `{"description":"anything"}`, true, `{"description":"anything"}`, false, "without a type"},
		{"patternProperties is not strict", `{"type":"object","patternProperties":{"^x":{"type":"string"}}}`, true, `{"type":"object","patternProperties":{"^x":{"type":"string"}}}`, false, "patternProperties"},
		{"allOf of plain schemas merges exactly", `{"allOf":[{"type":"string"},{"pattern":"^a"}]}`, true, `{"type":"string","pattern":"^a"}`, true, ""},
		{"string lengths dropped", `{"type":"string","minLength":1,"maxLength":9}`, true, `{"type":"string"}`, true, `dropped keyword "maxLength"`},
		{"$defs reference inlined", `{"$ref":"#/$defs/x"}`, true, `{"type":"string"}`, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			schema := wrap(tt.prop, tt.req)
			if strings.Contains(tt.prop, "$defs") {
				schema = strings.TrimSuffix(schema, "}") + `,"$defs":{"x":{"type":"string"}}}`
			}
			e, warns := one(t, dialect.OpenAI, schema)
			fn := e["function"].(map[string]any)
			if fn["strict"] != tt.strict {
				t.Errorf("strict = %v, want %v (warnings %q)", fn["strict"], tt.strict, warns)
			}
			got := compact(fn["parameters"].(map[string]any)["properties"].(map[string]any)["p"])
			if got != norm(tt.want) {
				t.Errorf("p = %s\nwant %s", got, tt.want)
			}
			checkWarn(t, warns, tt.warn)
			if tt.strict {
				checkOpenAIStrict(t, tt.name, fn["parameters"].(map[string]any))
			}
		})
	}
}

func checkWarn(t *testing.T, warns []string, want string) {
	t.Helper()
	if want == "" {
		if len(warns) > 0 {
			t.Errorf("unexpected warnings %q", warns)
		}
		return
	}
	for _, w := range warns {
		if strings.Contains(w, want) {
			return
		}
	}
	t.Errorf("no warning contains %q: %q", want, warns)
}

// TestOpenAILimits builds schemas just past each documented limit.
func TestOpenAILimits(t *testing.T) {
	manyProps := func(n int) string {
		var b strings.Builder
		b.WriteString(`{"type":"object","properties":{`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"p%d":{"type":"string"}`, i)
		}
		b.WriteString(`},"additionalProperties":false}`)
		return b.String()
	}
	nested := func(levels int) string {
		s := `{"type":"string"}`
		for range levels - 1 {
			s = `{"type":"object","properties":{"x":` + s + `},"additionalProperties":false}`
		}
		return s
	}
	enum := func(n, size int) string {
		var vals []string
		for i := range n {
			vals = append(vals, fmt.Sprintf(`"%0*d"`, size, i))
		}
		return `{"type":"object","properties":{"e":{"type":"string","enum":[` + strings.Join(vals, ",") + `]}},"additionalProperties":false}`
	}
	tests := []struct {
		name   string
		schema string
		strict bool
		warn   string
	}{
		{"5000 properties", manyProps(5000), true, ""},
		{"5001 properties", manyProps(5001), false, "5000 object properties"},
		{"10 levels", nested(11), true, ""}, // 10 objects around the string
		{"11 levels", nested(12), false, "10 levels"},
		{"1000 enum values", enum(999, 3), true, ""}, // 999 + the null of an optional property
		{"1001 enum values", enum(1000, 3), false, "1000 enum values"},
		{"big enum, short values", enum(251, 59), true, ""},
		{"big enum, long values", enum(251, 60), false, "15000 characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, warns := one(t, dialect.OpenAI, tt.schema)
			fn := e["function"].(map[string]any)
			if fn["strict"] != tt.strict {
				t.Errorf("strict = %v, want %v (%q)", fn["strict"], tt.strict, warns)
			}
			checkWarn(t, warns, tt.warn)
		})
	}
}

func TestGeminiRewrite(t *testing.T) {
	tests := []struct {
		name string
		prop string
		want string
		warn string
	}{
		{"plain string", `{"type":"string","minLength":1}`, `{"type":"string","minLength":1}`, ""},
		{"nullable type list", `{"type":["integer","null"]}`, `{"type":"integer","nullable":true}`, ""},
		{"several types", `{"type":["string","integer"]}`, `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, ""},
		{"const", `{"const":"x"}`, `{"type":"string","enum":["x"]}`, ""},
		{"enum with null", `{"type":"string","enum":["a",null]}`, `{"type":"string","enum":["a"],"nullable":true}`, ""},
		{"integer enum", `{"type":"integer","enum":[1,2]}`, `{"type":"integer","description":"Allowed values: 1, 2."}`, "strings only"},
		{"integer exclusive bounds exact", `{"type":"integer","exclusiveMinimum":0,"exclusiveMaximum":10}`, `{"type":"integer","minimum":1,"maximum":9}`, ""},
		{"number exclusive bound weakened", `{"type":"number","exclusiveMinimum":0.5}`, `{"type":"number","minimum":0.5}`, "bound itself is now allowed"},
		{"stricter inclusive bound kept", `{"type":"integer","minimum":5,"exclusiveMinimum":0}`, `{"type":"integer","minimum":5}`, ""},
		{"supported format", `{"type":"string","format":"date-time"}`, `{"type":"string","format":"date-time"}`, ""},
		{"unsupported format", `{"type":"string","format":"email"}`, `{"type":"string"}`, `dropped keyword "format"`},
		{"closed object", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","b"],"additionalProperties":false}`,
			`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, `dropped "b" from required`},
		{"object with properties and extra keys", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"integer"}}`,
			`{"type":"object","properties":{"a":{"type":"string"}},"description":"Other keys are free-form; each value must match {\"type\":\"integer\"}."}`, "extra keys"},
		{"null branch becomes nullable", `{"anyOf":[{"type":"string"},{"type":"null"}]}`, `{"type":"string","nullable":true}`, ""},
		{"anyOf branch without a form", `{"anyOf":[{"type":"string"},{"type":"object"}]}`, `{"type":"string"}`, "left out this branch"},
		{"oneOf", `{"oneOf":[{"type":"string"},{"type":"number"}]}`, `{"anyOf":[{"type":"string"},{"type":"number"}]}`, "oneOf became anyOf"},
		{"ip flag: branches equal once formats go", `{"type":"string","anyOf":[{"type":"string","format":"ipv4"},{"type":"string","format":"ipv6"}]}`, `{"type":"string"}`, `dropped keyword "format"`},
		{"properties without type", `{"properties":{"a":{"type":"string"}}}`, `{"type":"object","properties":{"a":{"type":"string"}}}`, ""},
		{"properties on a string", `{"type":"string","properties":{"a":{"type":"string"}}}`, `{"type":"string"}`, "objects only"},
		{"allOf merged", `{"allOf":[{"type":"string"},{"maxLength":3}]}`, `{"type":"string","maxLength":3}`, ""},
		{"allOf conflict dropped", `{"allOf":[{"type":"string"},{"type":"integer"}]}`, `{"type":"string"}`, `dropped keyword "allOf"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, warns := one(t, dialect.Gemini, wrap(tt.prop, true))
			params := e["parameters"].(map[string]any)
			got := compact(params["properties"].(map[string]any)["p"])
			if got != norm(tt.want) {
				t.Errorf("p = %s\nwant %s", got, tt.want)
			}
			checkWarn(t, warns, tt.warn)
			checkGemini(t, tt.name, params)
		})
	}
}

// TestGeminiLeavesOutWhatItRefuses: Gemini answers 400 ("should be
// non-empty for OBJECT type") to an object without properties, so such a
// property (a map flag, a free object, an array of them, an untyped value)
// is left out of the declaration and reported.
func TestGeminiLeavesOutWhatItRefuses(t *testing.T) {
	tests := []struct {
		name string
		prop string
		req  bool
		warn string
	}{
		{"map", `{"type":"object","minProperties":1,"additionalProperties":{"type":"string"},"propertyNames":{"pattern":"^[^=]*$"}}`, false, "an object without properties"},
		{"required map", `{"type":"object","additionalProperties":{"type":"string"}}`, true, "it is required"},
		{"free object", `{"type":"object"}`, false, "an object without properties"},
		{"array of maps", `{"type":"array","items":{"type":"object","additionalProperties":true}}`, false, "an array of objects without properties"},
		{"array without items", `{"type":"array"}`, false, "an array without items"},
		{"untyped", `{"description":"anything"}`, false, "an untyped value"},
		{"boolean schema", `true`, false, "an untyped value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			schema := `{"type":"object","properties":{"keep":{"type":"string"},"p":` + tt.prop + `},"additionalProperties":false}`
			if tt.req {
				schema = strings.Replace(schema, `"additionalProperties":false}`, `"additionalProperties":false,"required":["keep","p"]}`, 1)
			}
			e, warns := one(t, dialect.Gemini, schema)
			params := e["parameters"].(map[string]any)
			if _, ok := params["properties"].(map[string]any)["p"]; ok {
				t.Errorf("p was kept: %s", compact(params))
			}
			if tt.req && compact(params["required"]) != `["keep"]` {
				t.Errorf("required = %s, want [\"keep\"]", compact(params["required"]))
			}
			checkWarn(t, warns, tt.warn)
			if len(warns) != 1 {
				t.Errorf("want one warning for the property left out, got %q", warns)
			}
			checkGemini(t, tt.name, params)
		})
	}
}

func TestGeminiNoParameters(t *testing.T) {
	e, warns := one(t, dialect.Gemini, version)
	if _, ok := e["parameters"]; ok {
		t.Errorf("a tool without parameters got %v", e["parameters"])
	}
	if len(warns) != 0 {
		t.Errorf("warnings %q", warns)
	}
}

func TestReferences(t *testing.T) {
	// Canonical inlines references and leaves the rest alone, so it shows
	// the inlining by itself.
	tests := []struct {
		name   string
		schema string
		want   string // property "p" after inlining
		warn   string
	}{
		{"pointer into $defs", `{"type":"object","properties":{"p":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"string"}}}`, `{"type":"string"}`, ""},
		{"draft-07 definitions", `{"type":"object","properties":{"p":{"$ref":"#/definitions/a"}},"definitions":{"a":{"type":"string"}}}`, `{"type":"string"}`, ""},
		{"escaped pointer", `{"type":"object","properties":{"p":{"$ref":"#/$defs/a~1b%20c"}},"$defs":{"a/b c":{"type":"string"}}}`, `{"type":"string"}`, ""},
		{"siblings annotate", `{"type":"object","properties":{"p":{"$ref":"#/$defs/a","description":"mine"}},"$defs":{"a":{"type":"string","description":"theirs"}}}`, `{"type":"string","description":"mine"}`, ""},
		{"siblings constrain", `{"type":"object","properties":{"p":{"$ref":"#/$defs/a","maxLength":3}},"$defs":{"a":{"type":"string","maxLength":9}}}`, `{"type":"string","maxLength":9,"allOf":[{"maxLength":3}]}`, ""},
		{"chain", `{"type":"object","properties":{"p":{"$ref":"#/$defs/a"}},"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"type":"integer"}}}`, `{"type":"integer"}`, ""},
		{"root", `{"type":"object","properties":{"p":{"type":"array","items":{"$ref":"#/properties/q"}},"q":{"type":"string"}}}`, `{"type":"array","items":{"type":"string"}}`, ""},
		{"embedded resource", `{"type":"object","properties":{"p":{"$schema":"https://json-schema.org/draft/2020-12/schema","$ref":"#/$defs/a","$defs":{"a":{"type":"boolean"}}}}}`,
			`{"type":"boolean","$schema":"https://json-schema.org/draft/2020-12/schema"}`, ""},
		{"recursion cut", `{"type":"object","properties":{"p":{"$ref":"#/$defs/n"}},"$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}}}}}`,
			`{"type":"object","properties":{"next":{}}}`, "recursive $ref"},
		{"missing", `{"type":"object","properties":{"p":{"$ref":"#/$defs/none","description":"d"}}}`, `{"description":"d"}`, "does not resolve"},
		{"anchor", `{"type":"object","properties":{"p":{"$ref":"#node"}}}`, `{}`, "does not resolve"},
		{"external", `{"type":"object","properties":{"p":{"$ref":"other.json#/x"}}}`, `{}`, "external $ref"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, warns := one(t, dialect.Canonical, tt.schema)
			params := e["parameters"].(map[string]any)
			got := compact(params["properties"].(map[string]any)["p"])
			if got != norm(tt.want) {
				t.Errorf("p = %s\nwant %s", got, tt.want)
			}
			var real []string
			for _, w := range warns {
				if !strings.Contains(w, "canonical format needs one type") && !strings.Contains(w, "requires a description") {
					real = append(real, w)
				}
			}
			checkWarn(t, real, tt.warn)
			if strings.Contains(compact(params), `"$ref"`) || strings.Contains(compact(params), `"$defs"`) {
				t.Errorf("references left: %s", compact(params))
			}
		})
	}
}

func TestOpenAIRoot(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		strict bool
		warn   string
	}{
		{"untyped root with properties becomes an object", `{"properties":{"a":{"type":"string"}}}`, true, ""},
		{"string root", `{"type":"string"}`, false, `the root must have type "object"`},
		{"anyOf root", `{"type":"object","properties":{},"additionalProperties":false,"anyOf":[{"type":"object","properties":{},"additionalProperties":false}]}`, false, "must not be anyOf"},
		{"flag-group anyOf at the root is restated, not fatal", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false,"anyOf":[{"required":["a"]}]}`, true, `keyword "anyOf" is stated in words`},
		{"anyOf of untyped branches that are no flag group is dropped, not fatal", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false,"anyOf":[{"minProperties":1}]}`, true, "only assert which properties"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, warns := one(t, dialect.OpenAI, tt.schema)
			fn := e["function"].(map[string]any)
			if fn["strict"] != tt.strict {
				t.Errorf("strict = %v, want %v (%q)", fn["strict"], tt.strict, warns)
			}
			checkWarn(t, warns, tt.warn)
			if tt.strict {
				checkOpenAIStrict(t, tt.name, fn["parameters"].(map[string]any))
			}
		})
	}
}
