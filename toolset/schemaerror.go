package toolset

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cobramcp/cobramcp/internal/flagschema"
	"github.com/cobramcp/cobramcp/internal/jsonvalue"
)

// invalidArguments words every problem of doc, a call's arguments that
// failed validation against schema (the tool's input schema) with the
// error whole, as "INPUT: problem" clauses joined by "; ": `flags.count:
// "three" is a string, want integer; args: 3 items, want at most 2`.
//
// jsonschema-go stops at the first error, and which one comes first
// depends on map order. So each flag's value is validated on its own (in
// the order of the names), then each part (flags, args, argsAfterDash) with
// the flags already reported accepted as they are, then the top level with
// the parts already checked accepted: every problem is named, in a fixed
// order. When that finds nothing (a schema this walk does not know), the
// first error is worded as it is.
func invalidArguments(schema *jsonschema.Schema, doc map[string]any, whole error) string {
	var problems []string
	top := *schema
	top.Properties = maps.Clone(schema.Properties)
	for _, part := range []string{"flags", "args", "argsAfterDash"} {
		ps, v, ok := schema.Properties[part], doc[part], false
		if _, ok = doc[part]; ps == nil || !ok {
			continue
		}
		if flags, ok := v.(map[string]any); ok && part == "flags" {
			obj := *ps
			obj.Properties = maps.Clone(ps.Properties)
			for _, name := range slices.Sorted(maps.Keys(flags)) {
				fs := ps.Properties[name]
				if fs == nil {
					continue
				}
				if err := validate(fs, flags[name]); err != nil {
					problems = append(problems, schemaProblem(err, fs, "flags."+name, flags[name]))
					obj.Properties[name] = &jsonschema.Schema{}
				}
			}
			ps = &obj
		}
		if err := validate(ps, v); err != nil {
			problems = append(problems, schemaProblem(err, ps, part, v))
		}
		top.Properties[part] = &jsonschema.Schema{}
	}
	if err := validate(&top, doc); err != nil {
		problems = append(problems, schemaProblem(err, &top, "", doc))
	}
	if len(problems) == 0 {
		return schemaProblem(whole, schema, "", doc)
	}
	return strings.Join(problems, "; ")
}

// validate validates v against a private copy of s; a schema that does
// not resolve on its own reports nothing.
func validate(s *jsonschema.Schema, v any) error {
	rs, err := s.CloneSchemas().Resolve(nil)
	if err != nil {
		return nil
	}
	return rs.Validate(v)
}

// schemaProblem words err, the jsonschema-go error of validating v (a
// JSON value as encoding/json decodes it) against s, as "NAME: problem":
// NAME is name followed by the path to the value that failed
// ("flags.names[1]", "flags.overrides.image"), and the problem says what
// the value is and what is wanted (`"three" is a string, want integer`).
// An empty NAME leaves the problem alone. What this does not know is
// passed on in jsonschema-go's words, on one line.
func schemaProblem(err error, s *jsonschema.Schema, name string, v any) string {
	msg := err.Error()
	place := "root"
	for strings.HasPrefix(msg, "validating ") {
		p, rest, ok := strings.Cut(strings.TrimPrefix(msg, "validating "), ": ")
		if !ok {
			break
		}
		place, msg = p, rest
	}
	msg = strings.ReplaceAll(msg, "\n", "; ")
	known := true // v is the value that failed, s its schema
	if place != "root" {
		parts := strings.Split(strings.TrimPrefix(place, "/"), "/")
		for i := 0; i < len(parts) && known; i++ {
			s, v, name, i, known = step(s, v, name, parts, i)
		}
	}
	name = strings.TrimPrefix(name, ".")
	problem := msg
	if known && s != nil {
		problem = word(msg, s, name, v)
	}
	if name == "" || strings.HasPrefix(problem, name+".") || strings.HasPrefix(problem, name+": ") {
		return problem
	}
	return name + ": " + problem
}

// step follows the schema pointer token parts[i] (and the one after it,
// for a keyword with a name or an index) from s and v. It returns the
// subschema, the value under it, its name, the last token used and whether
// it could follow.
func step(s *jsonschema.Schema, v any, name string, parts []string, i int) (*jsonschema.Schema, any, string, int, bool) {
	next := func() (string, bool) {
		if i+1 >= len(parts) {
			return "", false
		}
		i++
		return unescapePointer(parts[i]), true
	}
	obj, _ := v.(map[string]any)
	arr, _ := v.([]any)
	switch parts[i] {
	case "properties":
		k, ok := next()
		if !ok || s.Properties[k] == nil {
			return s, v, name, i, false
		}
		return s.Properties[k], obj[k], name + "." + k, i, true
	case "items":
		if s.Items == nil {
			return s, v, name, i, false
		}
		for j := len(s.PrefixItems); j < len(arr); j++ {
			if validate(s.Items, arr[j]) != nil {
				return s.Items, arr[j], fmt.Sprintf("%s[%d]", name, j), i, true
			}
		}
	case "prefixItems":
		k, ok := next()
		n, err := strconv.Atoi(k)
		if ok && err == nil && n >= 0 && n < len(s.PrefixItems) && n < len(arr) {
			return s.PrefixItems[n], arr[n], fmt.Sprintf("%s[%d]", name, n), i, true
		}
	case "additionalProperties":
		if s.AdditionalProperties == nil {
			return s, v, name, i, false
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if _, declared := s.Properties[k]; !declared && validate(s.AdditionalProperties, obj[k]) != nil {
				return s.AdditionalProperties, obj[k], name + "." + k, i, true
			}
		}
	case "anyOf", "oneOf", "allOf":
		list := map[string][]*jsonschema.Schema{"anyOf": s.AnyOf, "oneOf": s.OneOf, "allOf": s.AllOf}[parts[i]]
		k, ok := next()
		n, err := strconv.Atoi(k)
		if ok && err == nil && n >= 0 && n < len(list) {
			return list[n], v, name, i, true
		}
	}
	return s, v, name, i, false
}

// numberMessage matches jsonschema-go's messages for the numeric keywords.
var numberMessage = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(minimum|maximum|exclusiveMinimum|exclusiveMaximum|multipleOf): (-?[0-9]+/[0-9]+) `)
})

// word rewrites msg, jsonschema-go's message for v failing s, in the
// words of a value and what is wanted. name is the value's name, for the
// problems that name its members.
func word(msg string, s *jsonschema.Schema, name string, v any) string {
	member := func(k string) string { return strings.TrimPrefix(name+"."+k, ".") }
	keyword, _, _ := strings.Cut(msg, ":")
	if m := numberMessage().FindStringSubmatch(msg); m != nil {
		val := show(v)
		if r, ok := new(big.Rat).SetString(m[2]); ok {
			f, _ := r.Float64() // exact: the instance was a float64
			val = formatNumber(f)
		}
		if l := keywordValue(s, m[1]); l != nil {
			want := map[string]string{"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than",
				"exclusiveMaximum": "less than", "multipleOf": "a multiple of"}[m[1]]
			return val + ", want " + want + " " + formatNumber(*l)
		}
	}
	switch {
	case keyword == "type":
		want := s.Type
		if want == "" {
			want = strings.Join(s.Types, " or ")
		}
		return show(v) + " is " + jsonvalue.Described(v) + ", want " + want
	case keyword == "enum" && len(s.Enum) > 0:
		vals := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			vals[i] = show(e)
		}
		return show(v) + ", want one of " + strings.Join(vals, ", ")
	case keyword == "const" && s.Const != nil:
		return show(v) + ", want " + show(*s.Const)
	case (keyword == "minLength" || keyword == "maxLength") && isString(v):
		n := len([]rune(v.(string)))
		limit, bound := s.MinLength, "at least"
		if keyword == "maxLength" {
			limit, bound = s.MaxLength, "at most"
		}
		if limit != nil {
			return fmt.Sprintf("%s is %s long, want %s %d", show(v), plural(n, " character", " characters"), bound, *limit)
		}
	case keyword == "pattern":
		if words, ok := flagschema.PatternWords(s.Pattern); ok {
			return show(v) + ", want " + words
		}
		return fmt.Sprintf("%s, want a match of the pattern %q", show(v), s.Pattern)
	case keyword == "minItems" || keyword == "maxItems":
		arr, _ := v.([]any)
		limit, bound := s.MinItems, "at least"
		if keyword == "maxItems" {
			limit, bound = s.MaxItems, "at most"
		}
		if limit != nil {
			return fmt.Sprintf("%s, want %s %d", plural(len(arr), " item", " items"), bound, *limit)
		}
	case keyword == "minProperties" || keyword == "maxProperties":
		obj, _ := v.(map[string]any)
		limit, bound := s.MinProperties, "at least"
		if keyword == "maxProperties" {
			limit, bound = s.MaxProperties, "at most"
		}
		if limit != nil {
			return fmt.Sprintf("%s, want %s %d", plural(len(obj), " entry", " entries"), bound, *limit)
		}
	case keyword == "required":
		obj, _ := v.(map[string]any)
		var out []string
		for _, r := range s.Required {
			if _, ok := obj[r]; !ok {
				out = append(out, member(r)+": missing, it is required")
			}
		}
		if len(out) > 0 {
			return strings.Join(out, "; ")
		}
	case strings.HasPrefix(keyword, "dependentRequired"):
		obj, _ := v.(map[string]any)
		var out []string
		for _, k := range slices.Sorted(maps.Keys(s.DependentRequired)) {
			if _, ok := obj[k]; !ok {
				continue
			}
			for _, r := range s.DependentRequired[k] {
				if _, ok := obj[r]; !ok {
					out = append(out, member(r)+": missing, it is required with "+member(k))
				}
			}
		}
		if len(out) > 0 {
			return strings.Join(out, "; ")
		}
	case strings.HasPrefix(msg, "unexpected additional properties"):
		obj, _ := v.(map[string]any)
		var extra []string
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if _, ok := s.Properties[k]; !ok {
				extra = append(extra, strconv.Quote(k))
			}
		}
		known := make([]string, 0, len(s.Properties))
		for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
			known = append(known, strconv.Quote(k))
		}
		what := "property"
		if len(extra) > 1 {
			what = "properties"
		}
		out := "unexpected " + what + " " + strings.Join(extra, ", ")
		if len(known) > 0 {
			out += "; the properties are " + strings.Join(known, ", ")
		}
		return out
	}
	return msg
}

// show writes v as JSON, cut with a mark past 80 bytes.
func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 80 {
		cut := 77
		for cut > 0 && b[cut]&0xC0 == 0x80 { // not inside a UTF-8 sequence
			cut--
		}
		return string(b[:cut]) + "…"
	}
	return string(b)
}

func isString(v any) bool { _, ok := v.(string); return ok }

// formatNumber writes f as JSON does: 0, -1, 0.25, 1e-7, 1e+21.
func formatNumber(f float64) string {
	b, err := json.Marshal(f)
	if err != nil { // NaN or an infinity: not from JSON
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return string(b)
}

// keywordValue returns the value of the numeric keyword kw in s, or nil.
func keywordValue(s *jsonschema.Schema, kw string) *float64 {
	if s == nil {
		return nil
	}
	switch kw {
	case "minimum":
		return s.Minimum
	case "maximum":
		return s.Maximum
	case "exclusiveMinimum":
		return s.ExclusiveMinimum
	case "exclusiveMaximum":
		return s.ExclusiveMaximum
	case "multipleOf":
		return s.MultipleOf
	}
	return nil
}

// unescapePointer undoes a JSON Pointer token's escapes.
func unescapePointer(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
}
