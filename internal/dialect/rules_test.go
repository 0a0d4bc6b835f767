package dialect_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/internal/dialect"
)

// The checks in this file restate each provider's documented rules,
// independently of the code under test, and walk every subschema of every
// exported tool.

// nameRE holds each format's documented tool-name rule.
var nameRE = map[dialect.Format]*regexp.Regexp{
	// Canonical tool schema: "Alphanumeric and underscore only".
	dialect.Canonical: regexp.MustCompile(`^[a-zA-Z0-9_]{1,64}$`),
	// https://platform.openai.com/docs/api-reference/chat/create: "Must be
	// a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum
	// length of 64."
	dialect.OpenAI: regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`),
	// https://docs.anthropic.com/en/api/messages: "^[a-zA-Z0-9_-]{1,64}$".
	dialect.Anthropic: regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`),
	// https://ai.google.dev/api/caching#FunctionDeclaration: "Must start
	// with a letter or an underscore", at most 64 (intersected with the
	// common rule).
	dialect.Gemini:    regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`),
	dialect.ToolVault: regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`),
}

// walkSchemas calls fn on s and every subschema reachable through the
// keywords that hold schemas, with its JSON Pointer and nesting level
// (objects and arrays around it, itself included).
func walkSchemas(s any, path string, level int, fn func(m map[string]any, path string, level int)) {
	m, ok := s.(map[string]any)
	if !ok {
		return
	}
	if hasType(m, "object") || hasType(m, "array") {
		level++
	}
	fn(m, path, level)
	for _, k := range []string{"items", "additionalProperties", "not", "if", "then", "else", "contains"} {
		if sub, ok := m[k].(map[string]any); ok {
			walkSchemas(sub, path+"/"+k, level, fn)
		}
	}
	for _, k := range []string{"properties", "$defs", "definitions", "patternProperties"} {
		if props, ok := m[k].(map[string]any); ok {
			for n, sub := range props {
				walkSchemas(sub, path+"/"+k+"/"+n, level, fn)
			}
		}
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
		if list, ok := m[k].([]any); ok {
			for i, sub := range list {
				walkSchemas(sub, fmt.Sprintf("%s/%s/%d", path, k, i), level, fn)
			}
		}
	}
}

func hasType(m map[string]any, t string) bool {
	switch v := m["type"].(type) {
	case string:
		return v == t
	case []any:
		return slices.Contains(v, any(t))
	}
	return false
}

func keys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	sort.Strings(out)
	return out
}

// checkOpenAIStrict asserts the strict-mode rules of
// https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
// on one function's parameters.
func checkOpenAIStrict(t *testing.T, tool string, params map[string]any) {
	t.Helper()
	// "Supported types", "Supported properties", anyOf, definitions.
	allowed := []string{"type", "description", "enum", "const", "anyOf", "$ref", "$defs",
		"properties", "required", "additionalProperties", "items",
		"pattern", "format",
		"multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
		"minItems", "maxItems"}
	// "Currently supported" formats.
	formats := []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
	// "Root objects must not be anyOf and must be an object."
	if params["type"] != "object" || params["anyOf"] != nil {
		t.Errorf("%s: root is not a plain object: %v", tool, params)
	}
	props, enums, depth := 0, 0, 0
	walkSchemas(params, "", 0, func(m map[string]any, p string, level int) {
		depth = max(depth, level)
		for k := range m {
			if !slices.Contains(allowed, k) {
				t.Errorf("%s %s: keyword %q is not in the strict subset", tool, p, k)
			}
		}
		if f, ok := m["format"]; ok && !slices.Contains(formats, f.(string)) {
			t.Errorf("%s %s: format %v is not supported", tool, p, f)
		}
		if m["type"] == nil && m["anyOf"] == nil && m["enum"] == nil && m["const"] == nil && m["$ref"] == nil {
			t.Errorf("%s %s: schema without a type", tool, p)
		}
		if e, ok := m["enum"].([]any); ok {
			enums += len(e)
		}
		if hasType(m, "object") {
			// "additionalProperties: false must always be set in objects"
			if m["additionalProperties"] != false {
				t.Errorf("%s %s: object without additionalProperties: false", tool, p)
			}
			// "All fields must be required"
			pr, _ := m["properties"].(map[string]any)
			props += len(pr)
			req, _ := m["required"].([]any)
			if got, want := fmt.Sprint(strs(append([]any{}, req...))), fmt.Sprint(keys(pr)); got != want {
				t.Errorf("%s %s: required %s, want every property %s", tool, p, got, want)
			}
		}
	})
	// "up to 5000 object properties total, with up to 10 levels of nesting",
	// "up to 1000 enum values across all enum properties".
	if props > 5000 || depth > 10 || enums > 1000 {
		t.Errorf("%s: limits exceeded: %d properties, %d levels, %d enum values", tool, props, depth, enums)
	}
}

// acceptsNull reports whether a strict schema admits null.
func acceptsNull(m map[string]any) bool {
	if e, ok := m["enum"].([]any); ok && !slices.Contains(e, nil) {
		return false
	}
	if hasType(m, "null") {
		return true
	}
	for _, b := range asAnyList(m["anyOf"]) {
		if bm, ok := b.(map[string]any); ok && hasType(bm, "null") {
			return true
		}
	}
	return false
}

func asAnyList(v any) []any {
	l, _ := v.([]any)
	return l
}

// optionalProps returns, for every object of an input schema (as given,
// no $ref followed), the pointer of each property its object does not
// require.
func optionalProps(schema map[string]any) []string {
	var out []string
	walkSchemas(schema, "", 0, func(m map[string]any, p string, _ int) {
		pr, ok := m["properties"].(map[string]any)
		if !ok || strings.Contains(p, "$defs") || strings.Contains(p, "definitions") {
			return
		}
		req := asAnyList(m["required"])
		for n := range pr {
			if !slices.Contains(req, any(n)) {
				out = append(out, p+"/properties/"+n)
			}
		}
	})
	sort.Strings(out)
	return out
}

// lookup follows a pointer written for the MCP schema through a strict
// schema, where an optional object may sit in an anyOf beside null.
func lookup(m map[string]any, pointer string) (map[string]any, bool) {
	cur := m
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		cur = nonNull(cur)
		next, ok := cur[tok].(map[string]any)
		if !ok {
			return nil, false
		}
		cur = next
	}
	return cur, true
}

// nonNull returns the one branch of an {"anyOf": [S, {"type":"null"}]},
// or m itself.
func nonNull(m map[string]any) map[string]any {
	var found map[string]any
	for _, b := range asAnyList(m["anyOf"]) {
		bm, _ := b.(map[string]any)
		if bm == nil || bm["type"] == "null" {
			continue
		}
		if found != nil {
			return m
		}
		found = bm
	}
	if found == nil || len(m) != 1 {
		return m
	}
	return found
}

func TestOpenAIStrictRules(t *testing.T) {
	tools := fixtureTools()
	v, warns := exportJSON(t, dialect.OpenAI, tools)
	strict := 0
	for _, e := range v.([]any) {
		entry := e.(map[string]any)
		if entry["type"] != "function" {
			t.Errorf("entry type %v, want function", entry["type"])
		}
		fn := entry["function"].(map[string]any)
		name := fn["name"].(string)
		params := fn["parameters"].(map[string]any)
		orig := originalInput(t, tools, dialect.OpenAI, name)
		if fn["strict"] != true {
			// A function left non-strict says why.
			if !hasWarning(warns, mcpTool(t, tools, dialect.OpenAI, name).Name, "/inputSchema", "strict mode off") {
				t.Errorf("%s is not strict and no warning says why", name)
			}
			if !jsonEqual(params, orig) {
				t.Errorf("%s: non-strict parameters differ from the input schema", name)
			}
			continue
		}
		strict++
		checkOpenAIStrict(t, name, params)
		// An optional property became nullable, so the model can leave
		// it unset instead of inventing a value.
		for _, p := range optionalProps(orig) {
			s, ok := lookup(params, p)
			if !ok {
				continue // below a $ref in the original
			}
			if !acceptsNull(s) {
				t.Errorf("%s %s: optional property does not accept null: %v", name, p, s)
			}
		}
	}
	if strict < 3 {
		t.Errorf("only %d strict functions; the fixtures should give at least 3", strict)
	}
	// A map flag has a strict form ({key, value} pairs): it forces no
	// tool out of strict mode, and costs no warning.
	for _, w := range warns {
		if strings.Contains(w.Path, "/labels") || strings.Contains(w.Path, "/properties/map") {
			t.Errorf("a map flag cost a warning: %v", w)
		}
	}
}

// originalInput returns the input schema (as JSON) of the tool exported
// in f as name.
func originalInput(t *testing.T, tools []*mcp.Tool, f dialect.Format, name string) map[string]any {
	t.Helper()
	b, err := json.Marshal(mcpTool(t, tools, f, name).InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// mcpTool returns the tool exported in f as name.
func mcpTool(t *testing.T, tools []*mcp.Tool, f dialect.Format, name string) *mcp.Tool {
	t.Helper()
	for _, tl := range tools {
		if dialect.NameFor(f, tl.Name) == name {
			return tl
		}
	}
	t.Fatalf("no tool exported in %s as %q", f, name)
	return nil
}

// checkGemini asserts the Schema rules of
// https://ai.google.dev/api/caching#Schema on one declaration's schema.
func checkGemini(t *testing.T, tool string, schema map[string]any) {
	t.Helper()
	// The fields of Schema.
	allowed := []string{"type", "format", "title", "description", "nullable", "enum",
		"maxItems", "minItems", "properties", "required", "minProperties", "maxProperties",
		"minLength", "maxLength", "pattern", "example", "anyOf", "propertyOrdering",
		"default", "items", "minimum", "maximum"}
	types := []string{"string", "number", "integer", "boolean", "array", "object"}
	// "Supported formats: for NUMBER type: float, double for INTEGER type:
	// int32, int64 for STRING type: enum, date-time"
	formats := map[string][]string{"number": {"float", "double"}, "integer": {"int32", "int64"}, "string": {"enum", "date-time"}}
	walkSchemas(schema, "", 0, func(m map[string]any, p string, _ int) {
		for k := range m {
			if !slices.Contains(allowed, k) {
				t.Errorf("%s %s: field %q is not in Gemini's Schema", tool, p, k)
			}
		}
		typ, isStr := m["type"].(string)
		if m["type"] != nil && (!isStr || !slices.Contains(types, typ)) {
			t.Errorf("%s %s: type %v is not one Gemini type", tool, p, m["type"])
		}
		if f, ok := m["format"]; ok && !slices.Contains(formats[typ], f.(string)) {
			t.Errorf("%s %s: format %v not supported for %q", tool, p, f, typ)
		}
		// "Possible values of the element of Type.STRING with enum format."
		for _, e := range asAnyList(m["enum"]) {
			if _, ok := e.(string); !ok {
				t.Errorf("%s %s: enum value %v is not a string", tool, p, e)
			}
		}
		// properties and required: "Properties of Type.OBJECT",
		// "Required properties of Type.OBJECT".
		if (m["properties"] != nil || m["required"] != nil) && typ != "object" {
			t.Errorf("%s %s: properties/required on type %q", tool, p, typ)
		}
		pr, _ := m["properties"].(map[string]any)
		// "Required. Data type." Gemini answers 400 "should be non-empty
		// for OBJECT type" to an object without properties; an array
		// needs "Schema of the elements of Type.ARRAY".
		if m["type"] == nil && m["anyOf"] == nil {
			t.Errorf("%s %s: schema without a type", tool, p)
		}
		if typ == "object" && len(pr) == 0 {
			t.Errorf("%s %s: object without properties", tool, p)
		}
		if typ == "array" && m["items"] == nil {
			t.Errorf("%s %s: array without items", tool, p)
		}
		for _, r := range asAnyList(m["required"]) {
			if _, ok := pr[r.(string)]; !ok {
				t.Errorf("%s %s: required %v is not a property", tool, p, r)
			}
		}
	})
}

func TestGeminiRules(t *testing.T) {
	tools := fixtureTools()
	v, warns := exportJSON(t, dialect.Gemini, tools)
	decls := v.(map[string]any)["tools"].([]any)[0].(map[string]any)["functionDeclarations"].([]any)
	if len(decls) != len(tools) {
		t.Fatalf("%d declarations, want %d", len(decls), len(tools))
	}
	for _, d := range decls {
		m := d.(map[string]any)
		name := m["name"].(string)
		for _, k := range []string{"parameters", "response"} {
			if s, ok := m[k].(map[string]any); ok {
				checkGemini(t, name+" "+k, s)
			}
		}
		if p, ok := m["parameters"].(map[string]any); ok {
			if p["type"] != "object" {
				t.Errorf("%s: parameters type %v, want object", name, p["type"])
			}
			for n := range p["properties"].(map[string]any) {
				if !regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`).MatchString(n) {
					t.Errorf("%s: parameter name %q", name, n)
				}
			}
		}
	}
	// An integer enum cannot be a Gemini enum: dropped, reported, and the
	// values kept in the description.
	if !hasWarning(warns, "mycli_apply", "/inputSchema/properties/flags/properties/config/properties/priority/enum", "strings only") {
		t.Errorf("integer enum not reported: %v", warns)
	}
	if !strings.Contains(geminiProp(t, decls, "mycli_apply", "config", "priority")["description"].(string), "1, 2, 3") {
		t.Errorf("integer enum values not in the description")
	}
	// An optional flag stays optional (no null added).
	since := geminiProp(t, decls, "mycli_get_pods", "since")
	if since["nullable"] != nil || since["type"] != "string" {
		t.Errorf("since = %v, want a plain string", since)
	}
	// ["string","null"] becomes string + nullable.
	extra := geminiProp(t, decls, "mycli_apply", "config", "extra")
	if extra["type"] != "string" || extra["nullable"] != true {
		t.Errorf("extra = %v, want string and nullable", extra)
	}
	// const becomes a one-value enum.
	kind := geminiProp(t, decls, "mycli_apply", "config", "kind")
	if fmt.Sprint(kind["enum"]) != "[Deployment]" {
		t.Errorf("kind = %v, want enum [Deployment]", kind)
	}
}

// geminiProp returns a flag's schema (or a property below it) in a
// Gemini declaration.
func geminiProp(t *testing.T, decls []any, tool string, path ...string) map[string]any {
	t.Helper()
	for _, d := range decls {
		m := d.(map[string]any)
		if m["name"] != tool {
			continue
		}
		cur := m["parameters"].(map[string]any)["properties"].(map[string]any)["flags"].(map[string]any)
		for _, p := range path {
			cur = cur["properties"].(map[string]any)[p].(map[string]any)
		}
		return cur
	}
	t.Fatalf("no declaration %s", tool)
	return nil
}

func TestAnthropicRules(t *testing.T) {
	tools := fixtureTools()
	v, warns := exportJSON(t, dialect.Anthropic, tools)
	for _, e := range v.([]any) {
		m := e.(map[string]any)
		if got := keys(m); fmt.Sprint(got) != "[description input_schema name]" {
			t.Errorf("tool fields %v", got)
		}
		in := m["input_schema"].(map[string]any)
		// "input_schema ... type must be 'object'"
		if in["type"] != "object" {
			t.Errorf("%v: input_schema type %v", m["name"], in["type"])
		}
		// Optional stays optional: the schema is the one given.
		if orig := originalInput(t, tools, dialect.Anthropic, m["name"].(string)); !jsonEqual(orig, in) {
			t.Errorf("%v: input_schema changed", m["name"])
		}
	}
	for _, w := range warns {
		if w.Path != "/name" {
			t.Errorf("unexpected warning %s", w)
		}
	}
}

func TestCanonicalRules(t *testing.T) {
	v, _ := exportJSON(t, dialect.Canonical, fixtureTools())
	for _, e := range v.([]any) {
		m := e.(map[string]any)
		// "Required fields: name, description, parameters present".
		for _, k := range []string{"name", "description", "parameters"} {
			if _, ok := m[k]; !ok {
				t.Errorf("%v has no %s", m["name"], k)
			}
		}
		p := m["parameters"].(map[string]any)
		// "Parameters structure: type: object, properties present".
		if p["type"] != "object" || p["properties"] == nil {
			t.Errorf("%v: parameters %v", m["name"], p)
		}
	}
}
