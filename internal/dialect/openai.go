package dialect

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// OpenAI strict mode ("Structured Outputs"), from
// https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
// (also served at https://developers.openai.com/api/docs/guides/structured-outputs).
const (
	openaiMaxProperties   = 5000   // "up to 5000 object properties total"
	openaiMaxNesting      = 10     // "with up to 10 levels of nesting"
	openaiMaxEnumValues   = 1000   // "up to 1000 enum values across all enum properties"
	openaiBigEnum         = 250    // "... when there are more than 250 enum values"
	openaiMaxBigEnumChars = 15000  // "... cannot exceed 15,000 characters"
	openaiMaxStringChars  = 120000 // names, definition names, enum and const values
)

// openaiFormats are the string formats strict mode supports.
var openaiFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}

// openaiKept are the keywords strict mode documents, besides the ones the
// rewrite handles itself (properties, required, additionalProperties,
// items, anyOf, format).
//
// minLength and maxLength are not among them: the docs name only pattern
// and format for strings (they mention the two among the keywords
// fine-tuned models lack, which hints at support elsewhere, but a keyword
// strict mode refuses fails the whole request, so they are dropped and
// reported).
var openaiKept = []string{"type", "description", "enum", "const", "pattern",
	"multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
	"minItems", "maxItems"}

// openaiUnsupported are the keywords the docs name as not supported.
var openaiUnsupported = []string{"allOf", "not", "dependentRequired", "dependentSchemas", "if", "then", "else"}

type openaiFunction struct {
	Name        string  `json:"name"`
	Description string  `json:"description,omitempty"`
	Parameters  *object `json:"parameters"`
	Strict      bool    `json:"strict"`
}

type openaiEntry struct {
	Type     string         `json:"type"`
	Function openaiFunction `json:"function"`
}

// blocker is a reason a schema has no strict form.
type blocker struct{ path, msg string }

// strictifier rewrites a schema into OpenAI's strict subset.
type strictifier struct {
	r        *report // losses of the strict rewrite
	blockers []blocker
}

func (s *strictifier) block(path, msg string) { s.blockers = append(s.blockers, blocker{path, msg}) }

// openaiTool writes one function. The input schema is rewritten for
// strict mode; when something has no strict form (an open object such as a
// map flag, an untyped value, a limit exceeded) the function is written
// with "strict": false and the schema as given, and each reason is
// reported instead of the rewrite's losses.
func openaiTool(name string, t *tool, r *report) any {
	const base = "/inputSchema"
	s := &strictifier{r: &report{format: r.format, tool: r.tool, draft07: r.draft07}}
	out := s.schema(prepare(t.input, base, s.r), base, false).(*object)
	// "Root objects must not be anyOf and must be an object."
	if out.m["type"] != "object" {
		s.block(base, "the root must have type \"object\"")
	}
	if out.has("anyOf") {
		s.block(base, "the root must not be anyOf")
	}
	if len(s.blockers) == 0 {
		s.limits(out, base)
	}
	if len(s.blockers) == 0 {
		r.warns = append(r.warns, s.r.warns...)
		return openaiEntry{Type: "function", Function: openaiFunction{Name: name, Description: t.desc, Parameters: out, Strict: true}}
	}
	for _, b := range s.blockers {
		r.add(b.path, "strict mode off for this tool: %s", b.msg)
	}
	return openaiEntry{Type: "function", Function: openaiFunction{Name: name, Description: t.desc, Parameters: t.input, Strict: false}}
}

// typeHas reports whether o's type is t or a list holding t.
func typeHas(o *object, t string) bool {
	switch v := o.m["type"].(type) {
	case string:
		return v == t
	case []any:
		return slices.Contains(v, any(t))
	}
	return false
}

// constraintOnly reports whether a composition branch only asserts things
// about its instance (such as {"required": ["a"]}, the form of a flag
// group) without saying what the value is. Such branches are no valid
// schema in a subset where every schema states its type.
func constraintOnly(branches []any) bool {
	for _, b := range branches {
		o, ok := b.(*object)
		if !ok {
			return true
		}
		typed := false
		for _, k := range []string{"type", "enum", "const", "anyOf", "oneOf", "properties", "items", "$ref"} {
			if o.has(k) {
				typed = true
			}
		}
		if !typed {
			return true
		}
	}
	return false
}

// keepComposition decides what becomes of the anyOf or oneOf (k, with
// its branches) of the schema o, at at, in a subset that has anyOf alone
// (named in the warnings: "Gemini", "strict mode"). It reports false, and
// the loss, when the keyword is dropped: a oneOf beside an anyOf, or
// branches that only assert which properties are present. A oneOf kept
// becomes anyOf, which is reported as weakened.
func (r *report) keepComposition(at, k string, o *object, branches []any, subset string) bool {
	switch {
	case k == "oneOf" && o.has("anyOf"):
		r.add(at, "dropped keyword \"oneOf\": %s has no oneOf, and anyOf is already taken", subset)
		return false
	case constraintOnly(branches):
		r.add(at, "dropped keyword %q: its branches only assert which properties are present (as a flag group does), which %s cannot state", k, subset)
		return false
	case k == "oneOf":
		r.add(at, "oneOf became anyOf: %s has no oneOf, so \"exactly one branch\" is weakened to \"at least one\"", subset)
	}
	return true
}

// schema rewrites one subschema. nullable is set for a property its parent
// did not require: strict mode requires every property, so an optional
// one must admit null (which the call path reads as "not set").
func (s *strictifier) schema(v any, path string, nullable bool) any {
	o, ok := v.(*object)
	if !ok {
		s.block(path, "the boolean schema "+jsonText(v)+" has no strict form")
		return v
	}
	if pairs := mapPairs(o); pairs != nil {
		// Nothing is lost: the call path reads the pairs back as the map.
		return s.schema(pairs, path, nullable)
	}
	out := newObject()
	var notes, said []string
	isObject := typeHas(o, "object") || o.has("properties")
	for _, k := range o.list() {
		val := o.m[k]
		at := ptr(path, k)
		if isObject {
			if sentences, ok := s.r.restateKeyword(at, k, val); ok {
				said = append(said, sentences...)
				continue
			}
		}
		switch {
		case slices.Contains(openaiKept, k):
			out.set(k, clone(val))
		case k == "format":
			if f, _ := val.(string); slices.Contains(openaiFormats, f) {
				out.set(k, f)
			} else {
				s.r.add(at, "dropped keyword \"format\": %s is not among the formats strict mode supports (%s)", jsonText(val), strings.Join(openaiFormats, ", "))
			}
		case k == "default":
			// Nothing is lost: the value moves into the description, and a
			// flag left unset (null) keeps the command's own default.
			notes = append(notes, "Default: "+jsonText(val)+".")
		case k == "properties" || k == "required":
			out.set(k, nil) // filled below, keeping the key's place
		case k == "additionalProperties" || k == "patternProperties":
			// Decided with the object below.
		case k == "items":
			if _, tuple := val.([]any); tuple {
				s.block(at, "tuple items (an array of schemas) have no strict form")
				continue
			}
			out.set(k, s.schema(val, at, false))
		case k == "anyOf" || k == "oneOf":
			branches := asList(val)
			if !s.r.keepComposition(at, k, o, branches, "strict mode") {
				continue
			}
			var outB []any
			for i, b := range branches {
				outB = append(outB, s.schema(b, ptrIndex(at, i), false))
			}
			out.set("anyOf", outB)
		case slices.Contains(openaiUnsupported, k):
			s.r.add(at, "dropped keyword %q: strict mode does not support it, so its constraint is no longer stated", k)
		default:
			s.r.add(at, "dropped keyword %q: not in the strict-mode subset", k)
		}
	}
	if typeHas(o, "object") || o.has("properties") {
		s.object(o, out, path)
	} else {
		out.del("properties")
		out.del("required")
	}
	if !out.has("type") && !out.has("enum") && !out.has("const") && !out.has("anyOf") {
		s.block(path, "a schema without a type has no strict form")
	}
	distribute(out)
	if len(said) > 0 {
		// Strict mode makes every property present; an optional one is
		// null when not set.
		notes = append(notes, said...)
		notes = append(notes, "A property counts as set when it is not null.")
	}
	if len(notes) > 0 {
		out.set("description", withNotes(out.str("description"), notes))
	}
	if nullable {
		return makeNullable(out)
	}
	return out
}

// withNotes appends sentences to a description, ending it with a full
// stop first when it has none.
func withNotes(d string, notes []string) string {
	if d == "" {
		return strings.Join(notes, " ")
	}
	if !strings.HasSuffix(d, ".") && !strings.HasSuffix(d, "!") && !strings.HasSuffix(d, "?") {
		d += "."
	}
	return d + " " + strings.Join(notes, " ")
}

// object closes an object: every property required (optional ones
// nullable), additionalProperties false.
func (s *strictifier) object(o, out *object, path string) {
	if !out.has("type") {
		out.set("type", "object")
	}
	props := o.obj("properties")
	ap, hasAP := o.m["additionalProperties"]
	switch {
	case o.has("patternProperties"):
		s.block(ptr(path, "patternProperties"), "an object with patternProperties is open, and strict mode needs additionalProperties: false")
	case hasAP && ap != false:
		s.block(ptr(path, "additionalProperties"), "an open object (a map, such as a key=value flag) has no strict form: strict mode needs additionalProperties: false")
	case !hasAP && props == nil:
		s.block(path, "an object without properties is open, and strict mode needs additionalProperties: false")
	}
	req := map[string]bool{}
	for _, q := range asList(o.m["required"]) {
		n, _ := q.(string)
		if props == nil || !props.has(n) {
			s.r.add(ptr(path, "required"), "dropped %s from required: it is not a property", jsonText(q))
			continue
		}
		req[n] = true
	}
	newProps := newObject()
	all := []any{}
	if props != nil {
		for _, n := range props.keys {
			newProps.set(n, s.schema(props.m[n], ptr(ptr(path, "properties"), n), !req[n]))
			all = append(all, n)
		}
	}
	out.set("properties", newProps)
	out.set("required", all)
	out.set("additionalProperties", false)
}

// distribute moves the keywords beside an anyOf into its branches, so that
// the schema has the documented shape (a description and the anyOf):
// A and (B or C) is (A and B) or (A and C), so this is exact. A keyword a
// branch already holds with another value stays where it is, and so does
// the type when a branch's type is not among it.
func distribute(out *object) {
	branches, ok := out.m["anyOf"].([]any)
	if !ok {
		return
	}
	for _, k := range out.list() {
		if k == "anyOf" || k == "description" || k == "type" {
			continue
		}
		movable := true
		for _, b := range branches {
			bo, ok := b.(*object)
			if !ok || bo.has(k) && jsonText(bo.m[k]) != jsonText(out.m[k]) {
				movable = false
			}
		}
		if !movable {
			continue
		}
		for _, b := range branches {
			if bo := b.(*object); !bo.has(k) {
				bo.set(k, clone(out.m[k]))
			}
		}
		out.del(k)
	}
	if !out.has("type") {
		return
	}
	for _, b := range branches {
		bo, ok := b.(*object)
		if !ok {
			return
		}
		bt, ok := bo.m["type"].(string)
		if !ok || !typeHas(out, bt) {
			return
		}
	}
	out.del("type")
}

// makeNullable returns out made to accept null too. An object or an array
// goes into an anyOf beside {"type":"null"}, the shape the docs show for
// an optional subschema; a scalar type becomes ["T","null"], the shape
// the docs show for an optional field.
func makeNullable(out *object) *object {
	switch t := out.m["type"].(type) {
	case string:
		if t == "object" || t == "array" {
			n := newObject()
			n.set("type", "null")
			w := newObject()
			w.set("anyOf", []any{out, n})
			return w
		}
		if t != "null" {
			out.m["type"] = []any{t, "null"}
		}
	case []any:
		if !slices.Contains(t, any("null")) {
			out.m["type"] = append(t, "null")
		}
	}
	if e, ok := out.m["enum"].([]any); ok && !slices.Contains(e, nil) {
		out.m["enum"] = append(e, nil)
	}
	if c, ok := out.m["const"]; ok {
		out.del("const")
		out.set("enum", []any{c, nil})
	}
	if a, ok := out.m["anyOf"].([]any); ok {
		nullOK := false
		for _, b := range a {
			if bo, ok := b.(*object); ok && typeHas(bo, "null") {
				nullOK = true
			}
		}
		if !nullOK {
			n := newObject()
			n.set("type", "null")
			out.m["anyOf"] = append(a, n)
		}
	}
	return out
}

// limits checks the size limits strict mode documents on the rewritten
// schema.
func (s *strictifier) limits(root any, path string) {
	var props, enums, chars, depth int
	var walk func(v any, p string, level int)
	walk = func(v any, p string, level int) {
		o, ok := v.(*object)
		if !ok {
			return
		}
		if typeHas(o, "object") || typeHas(o, "array") {
			level++
			depth = max(depth, level)
		}
		if e, ok := o.m["enum"].([]any); ok {
			enums += len(e)
			n := 0
			for _, x := range e {
				if str, ok := x.(string); ok {
					n += utf8.RuneCountInString(str)
				}
			}
			chars += n
			if len(e) > openaiBigEnum && n > openaiMaxBigEnumChars {
				s.block(ptr(p, "enum"), "an enum of more than 250 values may hold at most 15000 characters in all")
			}
		}
		if c, ok := o.m["const"].(string); ok {
			chars += utf8.RuneCountInString(c)
		}
		if pr := o.obj("properties"); pr != nil {
			props += len(pr.keys)
			for _, n := range pr.keys {
				chars += utf8.RuneCountInString(n)
				walk(pr.m[n], ptr(ptr(p, "properties"), n), level)
			}
		}
		if it, ok := o.m["items"]; ok {
			walk(it, ptr(p, "items"), level)
		}
		for i, b := range asList(o.m["anyOf"]) {
			walk(b, ptrIndex(ptr(p, "anyOf"), i), level)
		}
	}
	walk(root, path, 0)
	if props > openaiMaxProperties {
		s.block(path, "more than 5000 object properties in all")
	}
	if depth > openaiMaxNesting {
		s.block(path, "more than 10 levels of nesting (objects and arrays, the root included)")
	}
	if enums > openaiMaxEnumValues {
		s.block(path, "more than 1000 enum values in all")
	}
	if chars > openaiMaxStringChars {
		s.block(path, "property names, enum and const values exceed 120000 characters in all")
	}
}

// MapPairsNote ends the description of a map in its strict form.
const MapPairsNote = "Given as a list of {key, value} pairs, each key at most once."

// mapPairs returns the strict form of a map schema (an object with no
// properties whose additionalProperties is a schema, such as a key=value
// flag): an array of {key, value} objects, minProperties becoming
// minItems and propertyNames the key's schema. It returns nil for any
// other schema.
func mapPairs(o *object) *object {
	ap, ok := o.m["additionalProperties"].(*object)
	if !ok || !typeHas(o, "object") || o.has("properties") || o.has("patternProperties") {
		return nil
	}
	key := newObject()
	if pn := o.obj("propertyNames"); pn != nil {
		for _, k := range pn.list() {
			key.set(k, clone(pn.m[k]))
		}
	}
	key.set("type", "string")
	props := newObject()
	props.set("key", key)
	props.set("value", clone(ap))
	item := newObject()
	item.set("type", "object")
	item.set("properties", props)
	item.set("required", []any{"key", "value"})
	item.set("additionalProperties", false)
	out := newObject()
	out.set("type", "array")
	out.set("description", withNotes(o.str("description"), []string{MapPairsNote}))
	if n, ok := o.m["minProperties"]; ok {
		out.set("minItems", n)
	}
	out.set("items", item)
	if d, ok := o.m["default"]; ok {
		out.set("default", clone(d)) // moved into the description by schema
	}
	return out
}
