package dialect

import (
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Gemini's Schema, "a select subset of an OpenAPI 3.0 schema object", from
// https://ai.google.dev/api/caching#Schema and the function declaration
// rules at https://ai.google.dev/api/caching#FunctionDeclaration.

// geminiKept are the Schema fields copied as they are.
var geminiKept = []string{"title", "description", "nullable", "default", "example",
	"minItems", "maxItems", "minLength", "maxLength", "pattern",
	"minimum", "maximum", "minProperties", "maxProperties", "propertyOrdering"}

// geminiFormats are the formats the Schema documents, by type.
var geminiFormats = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"number":  {"float", "double"},
		"integer": {"int32", "int64"},
		"string":  {"enum", "date-time"},
	}
})

// geminiParamName is the rule for parameter names: "must start with a
// letter or an underscore and must only contain chars a-z, A-Z, 0-9, or
// underscores with a maximum length of 64".
var geminiParamName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`) })

type geminiDecl struct {
	Name        string  `json:"name"`
	Description string  `json:"description,omitempty"`
	Parameters  *object `json:"parameters,omitempty"`
	Response    *object `json:"response,omitempty"`
}

type geminiTools struct {
	FunctionDeclarations []any `json:"functionDeclarations"`
}

type geminiDocument struct {
	Tools []geminiTools `json:"tools"`
}

func geminiDoc(entries []any) any {
	return geminiDocument{Tools: []geminiTools{{FunctionDeclarations: entries}}}
}

// geminiTool writes one function declaration: parameters from the input
// schema, response from the output schema.
func geminiTool(name string, t *tool, r *report) any {
	g := &geminizer{r: r}
	const base = "/inputSchema"
	params := g.schema(prepare(t.input, base, r), base)
	if props := params.obj("properties"); props == nil || len(props.keys) == 0 {
		// "For function with no parameters, this can be left unset."
		params = nil
	} else {
		for _, n := range props.keys {
			if !geminiParamName().MatchString(n) {
				r.add(ptr(ptr(base, "properties"), n), "parameter name %q breaks Gemini's rule %s; kept, since renaming it would break the call", n, geminiParamName())
			}
		}
	}
	d := geminiDecl{Name: name, Description: t.desc, Parameters: params}
	if t.output != nil {
		resp := g.schema(prepare(t.output, "/outputSchema", r), "/outputSchema")
		if why := unfit(resp); why != "" {
			r.add("/outputSchema", "left out the response schema: Gemini has no form for %s", why)
		} else {
			d.Response = resp
		}
	}
	return d
}

// geminizer rewrites JSON Schema into Gemini's Schema subset.
type geminizer struct{ r *report }

func (g *geminizer) schema(v any, path string) *object {
	o, ok := v.(*object)
	if !ok {
		// true or false: no type, so unfit; the parent leaves it out.
		return newObject()
	}
	out := newObject()
	var notes []string
	// The one non-null type, which decides formats and enums.
	prim, types, null := "", []string(nil), false
	switch t := o.m["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				types = append(types, s)
			}
		}
	}
	if i := slices.Index(types, "null"); i >= 0 {
		null = true
		types = slices.Delete(types, i, i+1)
	}
	if len(types) == 1 {
		prim = types[0]
	}
	isObject := slices.Contains(types, "object") || o.has("properties")
	for _, k := range o.list() {
		val := o.m[k]
		at := ptr(path, k)
		if isObject {
			if sentences, ok := g.r.restateKeyword(at, k, val); ok {
				notes = append(notes, sentences...)
				continue
			}
		}
		switch {
		case k == "type":
			switch {
			case len(types) == 1:
				out.set("type", prim)
			case len(types) > 1:
				// Several types: one anyOf branch each (exact).
				var alts []any
				for _, t := range types {
					b := newObject()
					b.set("type", t)
					alts = append(alts, b)
				}
				out.set("anyOf", alts)
			}
			if null {
				out.set("nullable", true)
			}
		case slices.Contains(geminiKept, k):
			out.set(k, clone(val))
		case k == "format":
			if f, _ := val.(string); slices.Contains(geminiFormats()[prim], f) {
				out.set(k, f)
			} else {
				g.r.add(at, "dropped keyword \"format\": Gemini supports %s for type %q", formatList(prim), prim)
			}
		case k == "enum":
			g.enum(out, asList(val), at, &notes)
		case k == "const":
			g.enum(out, []any{val}, at, &notes)
		case k == "properties" || k == "required":
			out.set(k, nil) // filled below, keeping the key's place
		case k == "items":
			if _, tuple := val.([]any); tuple {
				g.r.add(at, "dropped tuple items (an array of schemas): Gemini's items is one schema")
				continue
			}
			out.set(k, g.schema(val, at))
		case k == "additionalProperties":
			if vo, ok := val.(*object); ok && len(vo.keys) > 0 && o.obj("properties") != nil && len(o.obj("properties").keys) > 0 {
				// An object without properties is left out whole (see
				// unfit); one with properties keeps them and loses its
				// extra keys.
				notes = append(notes, "Other keys are free-form; each value must match "+jsonText(vo)+".")
				g.r.add(at, "dropped keyword \"additionalProperties\": Gemini cannot describe an object's extra keys; the value schema is noted in the description")
			}
			// false and true have no Gemini form and change nothing the
			// model is shown: the properties listed are all it sees. The
			// bridge still validates every call against the MCP schema.
		case k == "anyOf" || k == "oneOf":
			branches := asList(val)
			if !g.r.keepComposition(at, k, o, branches, "Gemini") {
				continue
			}
			if out.has("anyOf") {
				// A list of types already became anyOf.
				g.r.add(at, "dropped keyword %q: the list of types already became anyOf", k)
				continue
			}
			var alts []any
			seen := map[string]bool{}
			for i, b := range branches {
				if bo, ok := b.(*object); ok && len(bo.keys) == 1 && bo.m["type"] == "null" {
					out.set("nullable", true) // {"type":"null"} as a branch: exact
					continue
				}
				mark := len(g.r.warns)
				a := g.schema(b, ptrIndex(at, i))
				if why := unfit(a); why != "" {
					g.r.warns = g.r.warns[:mark] // what was lost inside goes with it
					g.r.add(ptrIndex(at, i), "left out this branch: Gemini has no form for %s", why)
					continue
				}
				// Dropped formats can leave equal branches; one is enough.
				if key := jsonText(a); !seen[key] {
					seen[key] = true
					alts = append(alts, a)
				}
			}
			if len(alts) == 1 {
				// One branch that only restates the type adds nothing.
				if a := alts[0].(*object); len(a.keys) == 1 && a.has("type") && (!out.has("type") || jsonText(out.m["type"]) == jsonText(a.m["type"])) {
					if !out.has("type") {
						out.set("type", a.m["type"])
					}
					continue
				}
			}
			out.set("anyOf", alts)
		case k == "exclusiveMinimum" || k == "exclusiveMaximum":
			g.exclusive(out, k, val, prim, at)
		default:
			g.r.add(at, "dropped keyword %q: not in Gemini's Schema subset", k)
		}
	}
	props := o.obj("properties")
	if props != nil && prim == "" && !out.has("anyOf") {
		prim = "object"
		out.set("type", "object")
	}
	if props != nil && prim == "object" {
		req := asList(o.m["required"])
		np := newObject()
		for _, n := range props.keys {
			at := ptr(ptr(path, "properties"), n)
			mark := len(g.r.warns)
			ps := g.schema(props.m[n], at)
			if why := unfit(ps); why != "" {
				g.r.warns = g.r.warns[:mark] // what was lost inside goes with it
				msg := "left out: Gemini has no form for " + why + ", so the model cannot set this property"
				if slices.Contains(req, any(n)) {
					msg += "; it is required, so a call without it is refused"
				}
				g.r.add(at, "%s", msg)
				continue
			}
			np.set(n, ps)
		}
		out.m["properties"] = np
		var newReq []any
		for _, q := range req {
			n, _ := q.(string)
			switch {
			case np.has(n):
				newReq = append(newReq, n)
			case !props.has(n):
				g.r.add(ptr(path, "required"), "dropped %s from required: it is not a property", jsonText(q))
			}
		}
		req = newReq
		if len(req) > 0 {
			out.m["required"] = req
		} else {
			out.del("required")
		}
	} else {
		if props != nil {
			g.r.add(ptr(path, "properties"), "dropped keyword \"properties\": Gemini allows it on objects only")
		}
		if o.has("required") {
			g.r.add(ptr(path, "required"), "dropped keyword \"required\": Gemini allows it on objects only")
		}
		out.del("properties")
		out.del("required")
	}
	if !out.has("type") && !out.has("anyOf") && out.has("items") {
		out.set("type", "array")
	}
	if len(notes) > 0 {
		out.set("description", withNotes(out.str("description"), notes))
	}
	return out
}

// unfit says why Gemini would refuse s, or returns "". Gemini needs a type
// on every schema, properties on every object ("should be non-empty for
// OBJECT type", a 400 error) and items on every array.
func unfit(s *object) string {
	one, _ := unfitReason(s)
	return one
}

// unfitReason returns the reason of unfit in the singular and the plural.
func unfitReason(s *object) (string, string) {
	if a, ok := s.m["anyOf"].([]any); ok && len(a) > 0 {
		return "", ""
	}
	switch s.m["type"] {
	case nil:
		return "an untyped value", "untyped values"
	case "object":
		if p := s.obj("properties"); p == nil || len(p.keys) == 0 {
			return "an object without properties (such as a map flag)", "objects without properties"
		}
	case "array":
		it := s.obj("items")
		if it == nil {
			return "an array without items", "arrays without items"
		}
		if _, many := unfitReason(it); many != "" {
			return "an array of " + many, "arrays of " + many
		}
	}
	return "", ""
}

// enum writes an enum (or a const as a one-value enum). Gemini enums hold
// strings: null becomes nullable, other values are noted in the
// description and reported.
func (g *geminizer) enum(out *object, values []any, at string, notes *[]string) {
	var strs []any
	var others []string
	for _, v := range values {
		switch x := v.(type) {
		case nil:
			out.set("nullable", true)
		case string:
			strs = append(strs, x)
		default:
			others = append(others, jsonText(v))
		}
	}
	if len(others) > 0 {
		var all []string
		for _, v := range values {
			all = append(all, jsonText(v))
		}
		*notes = append(*notes, "Allowed values: "+strings.Join(all, ", ")+".")
		g.r.add(at, "dropped the enumeration: Gemini enums hold strings only; the values are noted in the description")
		return
	}
	if len(strs) == 0 {
		return
	}
	if !out.has("type") && !out.has("anyOf") {
		out.set("type", "string")
	}
	if prev, ok := out.m["enum"].([]any); ok {
		// enum and const together: only the common values remain.
		var both []any
		for _, s := range strs {
			if slices.Contains(prev, s) {
				both = append(both, s)
			}
		}
		strs = both
	}
	out.set("enum", strs)
}

// exclusive turns an exclusive bound into an inclusive one: exact for
// integers, weakened (and reported) for numbers.
func (g *geminizer) exclusive(out *object, k string, val any, prim string, at string) {
	n, ok := val.(json.Number)
	if !ok {
		g.r.add(at, "dropped keyword %q: a draft-04 boolean bound has no Gemini form", k)
		return
	}
	f, err := n.Float64()
	if err != nil {
		g.r.add(at, "dropped keyword %q: %v", k, err)
		return
	}
	lower := k == "exclusiveMinimum"
	key := "maximum"
	if lower {
		key = "minimum"
	}
	bound := f
	if prim == "integer" {
		if lower {
			bound = math.Floor(f) + 1
		} else {
			bound = math.Ceil(f) - 1
		}
	} else {
		g.r.add(at, "%s %s became %s %s: the bound itself is now allowed", k, n, key, n)
	}
	if prev, ok := out.m[key].(json.Number); ok {
		if p, err := prev.Float64(); err == nil && (lower && p >= bound || !lower && p <= bound) {
			return // the inclusive bound already there is at least as strict
		}
	}
	out.set(key, json.Number(strconv.FormatFloat(bound, 'f', -1, 64)))
}

func formatList(prim string) string {
	if f := geminiFormats()[prim]; len(f) > 0 {
		return strings.Join(f, ", ")
	}
	return "no format"
}
