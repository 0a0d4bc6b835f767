package schemacheck

import (
	"math"
	"reflect"
	"regexp"
	"slices"
	"unicode/utf8"

	"github.com/cobramcp/cobramcp/internal/jsonvalue"
	"github.com/google/jsonschema-go/jsonschema"
)

// Verdict is a Checker's answer for one value.
type Verdict int

const (
	// Unknown: the checker cannot decide; ask the general validator.
	Unknown Verdict = iota
	// Valid: the value is valid for the schema.
	Valid
	// Invalid: the value is not valid for the schema.
	Invalid
)

func (v Verdict) String() string {
	switch v {
	case Valid:
		return "valid"
	case Invalid:
		return "invalid"
	}
	return "unknown"
}

// Checker evaluates one schema. It is safe for concurrent use.
type Checker struct {
	root     *jsonschema.Schema                    // nil: the schema uses a keyword the checker does not evaluate
	patterns map[*jsonschema.Schema]*regexp.Regexp // each schema's compiled "pattern"
}

// New returns the checker of s, and whether it can evaluate s at all: false
// when s (or a schema inside it) uses a keyword the checker does not
// evaluate, or a pattern that does not compile; that checker answers
// Unknown. s must not be modified afterwards.
func New(s *jsonschema.Schema) (*Checker, bool) {
	c := &Checker{patterns: map[*jsonschema.Schema]*regexp.Regexp{}}
	if s == nil || !c.compile(s, 0) {
		return &Checker{}, false
	}
	c.root = s
	return c, true
}

// maxSchemaDepth bounds how deeply New follows nested schemas; a deeper
// schema is left to the general validator.
const maxSchemaDepth = 64

// handled reports whether the field of jsonschema.Schema named name is
// one the checker evaluates or one that does not affect validity; a
// schema with any other field set is not evaluated.
func handled(name string) bool {
	switch name {
	case "Type", "Types", "Enum", "Const",
		"Minimum", "Maximum", "ExclusiveMinimum", "ExclusiveMaximum",
		"MinLength", "MaxLength", "Pattern",
		"Items", "MinItems", "MaxItems",
		"Properties", "AdditionalProperties", "PropertyNames",
		"MinProperties", "MaxProperties", "Required", "DependentRequired",
		"AllOf", "AnyOf", "OneOf", "Not":
		return true // evaluated
	case "Comment", "Title", "Description", "Default", "Deprecated", "ReadOnly", "WriteOnly",
		"Examples", "ContentEncoding", "ContentMediaType", "Format", "Extra", "PropertyOrder":
		return true // annotations
	}
	return false
}

// compile checks that s uses only handled keywords, with values the
// checker compares exactly, and compiles its patterns.
func (c *Checker) compile(s *jsonschema.Schema, depth int) bool {
	if s == nil || depth > maxSchemaDepth {
		return false
	}
	v := reflect.ValueOf(s).Elem()
	for i := range v.NumField() {
		if !v.Field(i).IsZero() && !handled(v.Type().Field(i).Name) {
			return false
		}
	}
	if s.Type != "" && s.Types != nil {
		return false // jsonschema-go reads only Type then
	}
	for _, e := range s.Enum {
		if !scalar(e) {
			return false
		}
	}
	if s.Const != nil && !scalar(*s.Const) {
		return false
	}
	if s.Pattern != "" {
		// As jsonschema-go compiles it (Go's RE2 syntax, unanchored).
		re, err := regexp.Compile(s.Pattern)
		if err != nil {
			return false
		}
		c.patterns[s] = re
	}
	var subs []*jsonschema.Schema
	for _, sub := range []*jsonschema.Schema{s.Items, s.AdditionalProperties, s.PropertyNames, s.Not} {
		if sub != nil { // absent
			subs = append(subs, sub)
		}
	}
	subs = append(subs, s.AllOf...)
	subs = append(subs, s.AnyOf...)
	subs = append(subs, s.OneOf...)
	for _, p := range s.Properties {
		subs = append(subs, p)
	}
	for _, sub := range subs {
		if !c.compile(sub, depth+1) {
			return false
		}
	}
	return true
}

// scalar reports whether an enum or const value is one the checker
// compares exactly: null, a boolean, a string or a float64 (as a schema
// decoded from JSON holds them).
func scalar(v any) bool {
	switch v.(type) {
	case nil, bool, string, float64:
		return true
	}
	return false
}

// Check returns whether v is valid for the schema. v must be made of the
// types encoding/json decodes into an any (nil, bool, float64, string,
// []any, map[string]any); any other type makes the answer Unknown.
func (c *Checker) Check(v any) Verdict {
	if c == nil || c.root == nil {
		return Unknown
	}
	return c.check(c.root, v)
}

func (c *Checker) check(s *jsonschema.Schema, v any) Verdict {
	typ := jsonType(v)
	if typ == "" {
		return Unknown
	}
	if s.Type != "" && !typeMatches(typ, s.Type) {
		return Invalid
	}
	if s.Types != nil && !slices.ContainsFunc(s.Types, func(t string) bool { return typeMatches(typ, t) }) {
		return Invalid
	}
	if s.Enum != nil && !slices.ContainsFunc(s.Enum, func(e any) bool { return equalScalar(e, v) }) {
		return Invalid
	}
	if s.Const != nil && !equalScalar(*s.Const, v) {
		return Invalid
	}
	if n, ok := v.(float64); ok && !numberOK(s, n) {
		return Invalid
	}
	if str, ok := v.(string); ok && !c.stringOK(s, str) {
		return Invalid
	}
	if r := c.logic(s, v); r != Valid {
		return r
	}
	switch v := v.(type) {
	case []any:
		return c.array(s, v)
	case map[string]any:
		return c.object(s, v)
	}
	return Valid
}

// jsonType is v's JSON type as jsonschema-go names it ("integer" for a
// float64 without a fraction), or "" for a Go type outside JSON's.
func jsonType(v any) string {
	t := jsonvalue.Type(v)
	if t != "number" {
		return t
	}
	f, ok := v.(float64)
	if !ok {
		return "" // compared exactly only as a float64
	}
	if _, frac := math.Modf(f); frac == 0 {
		return "integer"
	}
	return "number"
}

// typeMatches reports whether a value of JSON type got satisfies the
// schema type want ("number" takes integers).
func typeMatches(got, want string) bool {
	return got == want || got == "integer" && want == "number"
}

// equalScalar reports whether the scalar schema value e (see scalar)
// equals v.
func equalScalar(e, v any) bool {
	switch e := e.(type) {
	case nil:
		return v == nil
	case bool:
		b, ok := v.(bool)
		return ok && b == e
	case string:
		s, ok := v.(string)
		return ok && s == e
	case float64:
		n, ok := v.(float64)
		return ok && n == e
	}
	return false
}

// numberOK checks the numeric keywords; float64 comparisons are exact, as
// jsonschema-go's rational ones are for two float64s.
func numberOK(s *jsonschema.Schema, n float64) bool {
	return (s.Minimum == nil || n >= *s.Minimum) &&
		(s.Maximum == nil || n <= *s.Maximum) &&
		(s.ExclusiveMinimum == nil || n > *s.ExclusiveMinimum) &&
		(s.ExclusiveMaximum == nil || n < *s.ExclusiveMaximum)
}

// stringOK checks the string keywords: lengths in code points, the pattern
// unanchored.
func (c *Checker) stringOK(s *jsonschema.Schema, str string) bool {
	if s.MinLength != nil || s.MaxLength != nil {
		n := utf8.RuneCountInString(str)
		if s.MinLength != nil && n < *s.MinLength || s.MaxLength != nil && n > *s.MaxLength {
			return false
		}
	}
	if re := c.patterns[s]; re != nil && !re.MatchString(str) {
		return false
	}
	return true
}

// logic evaluates allOf, anyOf, oneOf and not.
func (c *Checker) logic(s *jsonschema.Schema, v any) Verdict {
	for _, sub := range s.AllOf {
		if r := c.check(sub, v); r != Valid {
			return r
		}
	}
	if s.AnyOf != nil {
		r := Invalid
		for _, sub := range s.AnyOf {
			switch c.check(sub, v) {
			case Valid:
				r = Valid
			case Unknown:
				if r == Invalid {
					r = Unknown
				}
			}
			if r == Valid {
				break
			}
		}
		if r != Valid {
			return r
		}
	}
	if s.OneOf != nil {
		valid := 0
		for _, sub := range s.OneOf {
			switch c.check(sub, v) {
			case Valid:
				valid++
			case Unknown:
				return Unknown
			}
		}
		if valid != 1 {
			return Invalid
		}
	}
	if s.Not != nil {
		switch c.check(s.Not, v) {
		case Valid:
			return Invalid
		case Unknown:
			return Unknown
		}
	}
	return Valid
}

// array evaluates items, minItems and maxItems.
func (c *Checker) array(s *jsonschema.Schema, a []any) Verdict {
	if s.MinItems != nil && len(a) < *s.MinItems || s.MaxItems != nil && len(a) > *s.MaxItems {
		return Invalid
	}
	if s.Items != nil {
		for _, e := range a {
			if r := c.check(s.Items, e); r != Valid {
				return r
			}
		}
	}
	return Valid
}

// object evaluates the object keywords.
func (c *Checker) object(s *jsonschema.Schema, m map[string]any) Verdict {
	if s.MinProperties != nil && len(m) < *s.MinProperties || s.MaxProperties != nil && len(m) > *s.MaxProperties {
		return Invalid
	}
	for _, name := range s.Required {
		if _, ok := m[name]; !ok {
			return Invalid
		}
	}
	for name, deps := range s.DependentRequired {
		if _, ok := m[name]; !ok {
			continue
		}
		for _, d := range deps {
			if _, ok := m[d]; !ok {
				return Invalid
			}
		}
	}
	for name, val := range m {
		sub, declared := s.Properties[name]
		if !declared {
			sub = s.AdditionalProperties
		}
		if sub != nil {
			if r := c.check(sub, val); r != Valid {
				return r
			}
		}
		if s.PropertyNames != nil {
			if r := c.check(s.PropertyNames, name); r != Valid {
				return r
			}
		}
	}
	return Valid
}
