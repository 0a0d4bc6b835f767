package flagschema

import (
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/pflag"
)

// AnnotationRepeatable is the pflag flag annotation an author sets to
// "true" on a custom flag whose Set appends each value it is given, so
// that it is served as an array (see [Repeatable]):
//
//	_ = fs.SetAnnotation("volume", flagschema.AnnotationRepeatable, []string{"true"})
const AnnotationRepeatable = "cobramcp.repeatable"

// repeatableType reports whether typ is the Type() name of custom values
// known to append on each Set: docker's opts.ListOpts ("list"). Other
// names an adopter gives in toolset.Config.RepeatableTypes.
func repeatableType(typ string) bool { return typ == "list" }

// Repeatable reports whether f is a custom flag (its type is not one of
// pflag's own) whose values accumulate, one per occurrence on the command
// line: its Value implements [pflag.SliceValue], or its Type() is a known
// repeatable name ("list", docker's), or it carries [AnnotationRepeatable]
// "true". Such a flag is served as an array of strings and written as one
// "--name=element" per element. The limits: whether the first element
// replaces the default or adds to it is the value's own rule, and each
// element goes to Set verbatim, so a Set that splits its value (on commas,
// say) reads an element holding its separator as several; annotate such a flag with a
// JSON Schema ([Annotation]) instead.
func Repeatable(f *pflag.Flag) bool {
	if f == nil || f.Value == nil || Annotated(f) {
		return false
	}
	if _, builtin := Lookup(f.Value.Type()); builtin {
		return false
	}
	if _, ok := f.Value.(pflag.SliceValue); ok {
		return true
	}
	if repeatableType(f.Value.Type()) {
		return true
	}
	for _, v := range f.Annotations[AnnotationRepeatable] {
		if strings.EqualFold(strings.TrimSpace(v), "true") {
			return true
		}
	}
	return false
}

// repeatableSchema is the schema of a [Repeatable] flag: an array of
// strings, without a default (whether the first element given replaces
// the flag's default or adds to it is the value's own rule).
func repeatableSchema(f *pflag.Flag) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string"}}
	s.Description = description(f, "Repeatable: each element is given to the flag as its own --"+f.Name+"=ELEMENT, verbatim, in order.")
	if f.Deprecated != "" {
		s.Deprecated = true
	}
	return s
}
