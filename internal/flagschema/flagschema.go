package flagschema

import (
	"encoding/json"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/pflag"
)

// Annotation is the pflag flag annotation key whose value holds a JSON Schema
// that replaces the generated schema of the flag:
//
//	f.Annotations[flagschema.Annotation] = []string{`{"type": "string", "enum": ["a", "b"]}`}
//
// The schema is in the 2020-12 dialect unless its "$schema" names draft-07.
// See [For] for what is accepted.
const Annotation = "jsonschema"

// For returns the JSON Schema of one flag's value. The schema is fresh: the
// caller may change it.
//
// Without an [Annotation] the schema is generated from the pflag type
// ([KindOf]); its description is the flag's usage plus notes on the accepted
// syntax, and its default is [Default] when that reports true.
//
// With an annotation, the annotation's schema replaces the generated one,
// keeping the flag's usage as description and the generated default when
// the annotation has none (and the default validates). An annotation that
// gives no type is completed from the flag's type instead (see
// [Completed]): for a string, func or custom flag that takes a JSON value,
// the types its keywords constrain, else "string"; for any other flag, the
// generated schema's keywords, combined so that a value must satisfy both
// (the tighter of two bounds, differing keywords side by side in allOf). If
// the annotation is refused (not JSON, not an object, an unsupported
// "$schema", an external or recursive "$ref", a schema that jsonschema-go
// cannot resolve, a default that does not validate), For returns the
// generated schema together with an error naming the flag and the problem;
// callers are expected to log the error and go on.
func For(f *pflag.Flag) (*jsonschema.Schema, error) {
	if !Annotated(f) {
		return generated(f), nil
	}
	s, _, err := fromAnnotation(f)
	if err != nil {
		return generated(f), err
	}
	return s, nil
}

// Completed says, for a flag whose [Annotation] gives its value no type
// (no "type", "const", "enum" or typed alternatives, such as
// {"minimum": 1, "maximum": 5} on an int flag), how [For] completed it from
// the flag's own type, in a sentence for a log. It returns "" for a flag
// without an annotation, with a typed one, or with one that For refuses.
func Completed(f *pflag.Flag) string {
	if !Annotated(f) {
		return ""
	}
	_, note, err := fromAnnotation(f)
	if err != nil {
		return ""
	}
	return note
}

// Annotated reports whether f carries a non-empty [Annotation]. It does not
// check that the annotation is a valid schema; [For] does.
func Annotated(f *pflag.Flag) bool {
	if f == nil {
		return false
	}
	for _, v := range f.Annotations[Annotation] {
		if strings.TrimSpace(v) != "" {
			return true
		}
	}
	return false
}

// generated returns the schema that For gives f when f has no annotation.
func generated(f *pflag.Flag) *jsonschema.Schema {
	if Repeatable(f) {
		return repeatableSchema(f)
	}
	k := KindOf(f)
	s, note := k.typeSchema()
	s.Description = description(f, note)
	if f != nil && f.Deprecated != "" {
		s.Deprecated = true
	}
	if v, ok := defaultOf(k, f); ok {
		// Default only returns values built from JSON types, which marshal.
		if raw, err := json.Marshal(v); err == nil {
			s.Default = raw
		}
		if k.IsMap() {
			// A map default may hold a key that no call can send (the
			// propertyNames pattern refuses it): leave it out.
			if _, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true}); err != nil {
				s.Default = nil
			}
		}
	}
	return s
}

// description joins the flag's usage (with pflag's back-quoted name unquoted)
// and the notes: the type note, then what the flag means without a value.
func description(f *pflag.Flag, typeNote string) string {
	if f == nil {
		return typeNote
	}
	usage := ""
	if f.Value != nil {
		_, usage = pflag.UnquoteUsage(f)
	} else {
		usage = f.Usage
	}
	usage = strings.TrimSpace(usage)
	var notes []string
	if typeNote != "" {
		notes = append(notes, typeNote)
	}
	if n := noOptNote(f); n != "" {
		notes = append(notes, n)
	}
	if len(notes) == 0 {
		return usage
	}
	return strings.TrimSpace(usage + " (" + strings.Join(notes, "; ") + ")")
}

// noOptNote describes a flag's NoOptDefVal, unless it is the one pflag gives
// every flag of that type (true for bool, +1 for count).
func noOptNote(f *pflag.Flag) string {
	if f.NoOptDefVal == "" || f.NoOptDefVal == KindOf(f).noOpt {
		return ""
	}
	return "if given without a value: " + f.NoOptDefVal
}
