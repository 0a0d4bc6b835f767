package flagschema

import (
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/pflag"
)

// An annotation that gives no type is completed from the flag's own type,
// never refused, and Completed says how.
func TestAnnotationWithoutType(t *testing.T) {
	tests := []struct {
		name     string
		add      func(fs *pflag.FlagSet)
		schema   string
		want     string
		valid    []any
		invalid  []any
		wantNote string
	}{
		{
			name:     "bounds on an int flag",
			add:      intFlag,
			schema:   `{"minimum":1,"maximum":5}`,
			want:     `{"type":"integer","minimum":1,"maximum":5,"description":"an int","default":2}`,
			valid:    []any{1, 5},
			invalid:  []any{0, 6, "3", 2.5},
			wantNote: "combined with the schema of the flag's type int (added type)",
		},
		{
			name:     "the tighter bound of an int8 flag is kept",
			add:      func(fs *pflag.FlagSet) { fs.Int8("x", 0, "a level") },
			schema:   `{"minimum":1,"maximum":500}`,
			want:     `{"type":"integer","minimum":1,"maximum":127,"description":"a level"}`,
			valid:    []any{127},
			invalid:  []any{128, 0},
			wantNote: "added type; the type's tighter maximum",
		},
		{
			name:     "a duration keeps its own pattern beside the annotation's",
			add:      func(fs *pflag.FlagSet) { fs.Duration("x", 0, "wait") },
			schema:   `{"pattern":"s$"}`,
			want:     `{"type":"string","pattern":"s$","allOf":[{"pattern":"^[-+]?(0|(([0-9]+\\.?[0-9]*|\\.[0-9]+)([nuµμm]?s|m|h))+)$"}],"description":"wait (Go duration such as 30s, 5m, 1h30m)"}`,
			valid:    []any{"30s"},
			invalid:  []any{"5m", "two s"},
			wantNote: "both pattern (the type's in allOf)",
		},
		{
			name:     "an enum of a slice flag's elements",
			add:      func(fs *pflag.FlagSet) { fs.StringSlice("x", nil, "names") },
			schema:   `{"items":{"enum":["a","b"]},"minItems":1}`,
			want:     `{"type":"array","items":{"enum":["a","b"]},"description":"names","minItems":1,"allOf":[{"items":{"type":"string"}}]}`,
			valid:    []any{[]any{"a"}},
			invalid:  []any{[]any{}, []any{"c"}, "a"},
			wantNote: "both items (the type's in allOf)",
		},
		{
			name:     "a map flag",
			add:      func(fs *pflag.FlagSet) { fs.StringToInt("x", nil, "counts") },
			schema:   `{"maxProperties":1}`,
			want:     `{"type":"object","description":"counts","minProperties":1,"maxProperties":1,"additionalProperties":{"type":"integer"},"propertyNames":{"pattern":"^([^,=\\[\\]][^,=]*)?$"}}`,
			valid:    []any{map[string]any{"a": 1}},
			invalid:  []any{map[string]any{"a": "1"}, map[string]any{"a": 1, "b": 2}, map[string]any{}, map[string]any{"a,b": 1}},
			wantNote: "added additionalProperties, minProperties, propertyNames, type",
		},
		{
			name:     "an enum without a type on a string flag is typed as its values",
			add:      stringFlag,
			schema:   `{"enum":["json","yaml"]}`,
			want:     `{"type":"string","enum":["json","yaml"],"description":"the usage"}`,
			valid:    []any{"json", "yaml"},
			invalid:  []any{"xml", 1},
			wantNote: `lists its values and has no "type": typed string`,
		},
		{
			name:     "an enum without a type on an int flag takes the flag's type",
			add:      intFlag,
			schema:   `{"enum":[1,2]}`,
			want:     `{"type":"integer","enum":[1,2],"description":"an int","default":2}`,
			valid:    []any{1, 2},
			invalid:  []any{3, "1"},
			wantNote: "typed integer",
		},
		{
			name:     "an enum of mixed values on a string flag",
			add:      stringFlag,
			schema:   `{"enum":["auto",1.5,3,null]}`,
			want:     `{"type":["null","number","string"],"enum":["auto",1.5,3,null],"description":"the usage"}`,
			valid:    []any{"auto", 1.5, 3, nil},
			invalid:  []any{"x", 2},
			wantNote: "typed null or number or string",
		},
		{
			name:     "a const without a type",
			add:      stringFlag,
			schema:   `{"const":"only"}`,
			want:     `{"type":"string","const":"only","description":"the usage"}`,
			valid:    []any{"only"},
			invalid:  []any{"other"},
			wantNote: "typed string",
		},
		{
			name:     "a string flag takes any JSON value",
			add:      stringFlag,
			schema:   `{"minimum":1,"maximum":5}`,
			want:     `{"type":["array","boolean","null","number","object","string"],"minimum":1,"maximum":5,"description":"the usage"}`,
			valid:    []any{3, "anything", map[string]any{}},
			invalid:  []any{6},
			wantNote: "typed as any JSON value, which the flag (of type string) takes as its JSON text",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := annotated(t, tt.add, tt.schema)
			s, err := For(f)
			if err != nil {
				t.Fatalf("For refused the annotation: %v", err)
			}
			jsonEqual(t, s, tt.want)
			rs, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
			if err != nil {
				t.Fatalf("result does not resolve: %v", err)
			}
			for _, v := range tt.valid {
				if err := rs.Validate(v); err != nil {
					t.Errorf("%#v refused: %v", v, err)
				}
			}
			for _, v := range tt.invalid {
				if err := rs.Validate(v); err == nil {
					t.Errorf("%#v accepted", v)
				}
			}
			note := Completed(f)
			if !strings.Contains(note, tt.wantNote) || !strings.Contains(note, "--x") {
				t.Errorf("Completed = %q, want it to name --x and say %q", note, tt.wantNote)
			}
		})
	}
}

func TestCompletedIsEmptyForTypedAnnotations(t *testing.T) {
	tests := []struct {
		name   string
		schema string
	}{
		{"a type", `{"type":"integer","minimum":1}`},
		{"an enum with a type", `{"type":"integer","enum":[1,2]}`},
		{"typed alternatives", `{"anyOf":[{"type":"integer"},{"type":"string"}]}`},
		{"refused", `{"type":`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if note := Completed(annotated(t, intFlag, tt.schema)); note != "" {
				t.Errorf("Completed = %q, want \"\"", note)
			}
		})
	}
	fs := pflag.NewFlagSet("", pflag.ContinueOnError)
	intFlag(fs)
	if note := Completed(fs.Lookup("x")); note != "" {
		t.Errorf("Completed of a flag without an annotation = %q", note)
	}
}
