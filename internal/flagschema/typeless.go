package flagschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/pflag"
)

// An annotation without a type ({"minimum": 1, "maximum": 5} on an int
// flag, {"enum": [...]} written for an overlay) still describes a flag
// that has one: the annotation is completed from the flag's own type
// rather than refused.

// Typed reports whether a schema says what type its value has: a type, a
// const or enum, a reference, alternatives that are all typed, or one typed
// part of an allOf. A flag's schema that is not typed is completed from the
// flag's own type (see For).
func Typed(s *jsonschema.Schema) bool {
	if s.Type != "" || len(s.Types) > 0 || s.Const != nil || len(s.Enum) > 0 || s.Ref != "" {
		return true
	}
	if alts := slices.Concat(s.AnyOf, s.OneOf); len(alts) > 0 {
		for _, a := range alts {
			if !Typed(a) {
				return false
			}
		}
		return true
	}
	for _, a := range s.AllOf {
		if Typed(a) {
			return true
		}
	}
	return false
}

// takesJSON reports whether an annotated f takes any JSON value (a string
// as is, anything else as its JSON text): a string, func or custom flag.
// The exec package writes such flags so.
func takesJSON(f *pflag.Flag) bool { return KindOf(f).text }

// jsonTypes are the types of JSON values ("integer" is a "number").
func jsonTypes() []any {
	return []any{"array", "boolean", "null", "number", "object", "string"}
}

// complete gives the typeless annotation schema root (inlined, resolving)
// a type from f and returns the new document with a note saying what was
// done, for the log.
//
// A flag that takes a JSON value takes any: the annotation gets the list
// of every JSON type, which says what the schema already means (a value of
// a type that no keyword constrains is valid) in a form every client reads.
// Any other flag is read by pflag as its own type, so the annotation is
// combined with the schema generated from that type: the keywords of the
// generated schema that the annotation lacks are added (the type, the
// items, an integer type's bounds, a duration's pattern), of two bounds the
// tighter is kept, and a keyword that both give differently is kept from
// the annotation with the generated one beside it in allOf, so that a value
// must satisfy both.
func complete(f *pflag.Flag, root map[string]any) (map[string]any, string, error) {
	out := maps.Clone(root)
	gen := generated(f)
	if _, ok := out["description"]; !ok && gen.Description != "" {
		out["description"] = gen.Description
	}
	if takesJSON(f) {
		out["type"] = jsonTypes()
		return out, fmt.Sprintf(`the annotation of --%s has no "type": typed as any JSON value, which the flag (of type %s) takes as its JSON text`, f.Name, KindOf(f).Name()), nil
	}

	genDoc, err := schemaDoc(gen)
	if err != nil {
		return nil, "", err
	}
	var added, tighter, both []string
	for _, k := range slices.Sorted(maps.Keys(genDoc)) {
		gv := genDoc[k]
		switch k {
		case "description", "default", "deprecated":
			continue // the annotation's own, or set by the caller
		}
		av, ok := out[k]
		if !ok {
			out[k] = gv
			added = append(added, k)
			continue
		}
		if sameJSON(av, gv) {
			continue
		}
		if v, ok := tighterBound(k, av, gv); ok {
			if !sameJSON(v, av) {
				out[k] = v
				tighter = append(tighter, k)
			}
			continue
		}
		all, _ := out["allOf"].([]any)
		out["allOf"] = append(slices.Clone(all), map[string]any{k: gv})
		both = append(both, k)
	}
	var done []string
	if len(added) > 0 {
		done = append(done, "added "+strings.Join(added, ", "))
	}
	if len(tighter) > 0 {
		done = append(done, "the type's tighter "+strings.Join(tighter, ", "))
	}
	if len(both) > 0 {
		done = append(done, "both "+strings.Join(both, ", ")+" (the type's in allOf)")
	}
	return out, fmt.Sprintf(`the annotation of --%s has no "type": combined with the schema of the flag's type %s (%s)`, f.Name, KindOf(f).Name(), strings.Join(done, "; ")), nil
}

// schemaDoc returns s as a JSON document with numbers as json.Number, as
// the annotation is read.
func schemaDoc(s *jsonschema.Schema) (map[string]any, error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("encoding the generated schema: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("decoding the generated schema: %w", err)
	}
	return doc, nil
}

func sameJSON(a, b any) bool {
	ra, errA := json.Marshal(a)
	rb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ra, rb)
}

// tighterBound returns, for a bound keyword, the tighter of the
// annotation's value a and the generated value g.
func tighterBound(k string, a, g any) (any, bool) {
	an, ok1 := a.(json.Number)
	gn, ok2 := g.(json.Number)
	if !ok1 || !ok2 {
		return nil, false
	}
	af, err1 := an.Float64()
	gf, err2 := gn.Float64()
	if err1 != nil || err2 != nil {
		return nil, false
	}
	switch k {
	case "minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains":
		if gf > af {
			return g, true
		}
		return a, true
	case "maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains":
		if gf < af {
			return g, true
		}
		return a, true
	}
	return nil, false
}

// typeOfValues gives an annotation that lists its values (an enum or a
// const) and no type the type those values have, which strict dialects and
// some clients need: the flag's own type when every value is of it (an
// int flag's {"enum": [1, 2]} is an integer), else the JSON types of the
// values (a string flag, which takes any JSON value, with {"enum": ["a",
// "b"]} is a string). Either way the type accepts every listed value, so
// the schema accepts what it did. The note says what was done, for the
// log.
func typeOfValues(f *pflag.Flag, root map[string]any, s *jsonschema.Schema) (map[string]any, string) {
	values := s.Enum
	if s.Const != nil {
		values = append(slices.Clone(values), *s.Const)
	}
	var types []string
	for _, v := range values {
		t := jsonType(v)
		if !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	if !takesJSON(f) {
		gen := generated(f).Type
		fits := gen != ""
		for _, t := range types {
			fits = fits && (t == gen || t == "integer" && gen == "number")
		}
		if fits {
			types = []string{gen}
		}
	}
	// "integer" is a "number": a list with both needs only the latter.
	if slices.Contains(types, "number") {
		types = slices.DeleteFunc(types, func(t string) bool { return t == "integer" })
	}
	slices.Sort(types)
	out := maps.Clone(root)
	if len(types) == 1 {
		out["type"] = types[0]
	} else {
		list := make([]any, len(types))
		for i, t := range types {
			list[i] = t
		}
		out["type"] = list
	}
	return out, fmt.Sprintf(`the annotation of --%s lists its values and has no "type": typed %s, the type of its values (the flag is of type %s)`, f.Name, strings.Join(types, " or "), KindOf(f).Name())
}

// jsonType is the JSON Schema type of a decoded JSON value; a number
// without a fraction is an "integer".
func jsonType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if _, err := v.Int64(); err == nil {
			return "integer"
		}
		if f, err := v.Float64(); err == nil && f == float64(int64(f)) {
			return "integer"
		}
		return "number"
	case float64:
		if v == float64(int64(v)) {
			return "integer"
		}
		return "number"
	case int, int64:
		return "integer"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "string"
}
