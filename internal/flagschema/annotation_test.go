package flagschema

import (
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/pflag"
)

// annotated builds a flag with add and sets its annotation.
func annotated(t *testing.T, add func(fs *pflag.FlagSet), schema ...string) *pflag.Flag {
	t.Helper()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	add(fs)
	if err := fs.SetAnnotation("x", Annotation, schema); err != nil {
		t.Fatal(err)
	}
	return fs.Lookup("x")
}

func stringFlag(fs *pflag.FlagSet) { fs.String("x", "", "the usage") }
func intFlag(fs *pflag.FlagSet)    { fs.Int("x", 2, "an int") }

func TestAnnotationAccepted(t *testing.T) {
	tests := []struct {
		name   string
		add    func(fs *pflag.FlagSet)
		schema string
		want   string
	}{
		{
			name:   "object schema on a string flag",
			add:    stringFlag,
			schema: `{"type":"object","description":"Config","properties":{"a":{"type":"string"}},"required":["a"]}`,
			want:   `{"type":"object","description":"Config","properties":{"a":{"type":"string"}},"required":["a"]}`,
		},
		{
			name:   "on an int flag, with the flag's default that fits",
			add:    intFlag,
			schema: `{"type":"integer","enum":[1,2,3]}`,
			want:   `{"type":"integer","enum":[1,2,3],"description":"an int","default":2}`,
		},
		{
			name:   "the flag's default is left out when it does not fit",
			add:    func(fs *pflag.FlagSet) { fs.Int("x", 5, "an int") },
			schema: `{"type":"integer","enum":[1,2,3]}`,
			want:   `{"type":"integer","enum":[1,2,3],"description":"an int"}`,
		},
		{
			name:   "the annotation's default wins",
			add:    intFlag,
			schema: `{"type":"integer","default":3}`,
			want:   `{"type":"integer","default":3,"description":"an int"}`,
		},
		{
			name:   "on a slice flag",
			add:    func(fs *pflag.FlagSet) { fs.StringSlice("x", []string{"a"}, "names") },
			schema: `{"type":"array","items":{"enum":["a","b"]},"uniqueItems":true}`,
			want:   `{"type":"array","items":{"enum":["a","b"]},"uniqueItems":true,"description":"names","default":["a"]}`,
		},
		{
			name:   "without description gets the usage and the NoOptDefVal note",
			add:    func(fs *pflag.FlagSet) { fs.String("x", "", "color"); fs.Lookup("x").NoOptDefVal = "always" },
			schema: `{"enum":["always","never","auto"]}`,
			want:   `{"type":"string","enum":["always","never","auto"],"description":"color (if given without a value: always)"}`,
		},
		{
			name:   "2020-12 $schema dropped",
			add:    stringFlag,
			schema: `{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://example.com/x","type":"string","minLength":1}`,
			want:   `{"type":"string","minLength":1,"description":"the usage"}`,
		},
		{
			name: "2020-12 $defs inlined, annotations beside $ref kept",
			add:  stringFlag,
			schema: `{"type":"object","$defs":{"port":{"type":"integer","minimum":1,"maximum":65535}},
				"properties":{"http":{"$ref":"#/$defs/port","description":"HTTP port"},"grpc":{"$ref":"#/$defs/port"}}}`,
			want: `{"type":"object","description":"the usage","properties":{
				"http":{"type":"integer","minimum":1,"maximum":65535,"description":"HTTP port"},
				"grpc":{"type":"integer","minimum":1,"maximum":65535}}}`,
		},
		{
			name:   "2020-12 $ref with constraining siblings becomes allOf",
			add:    stringFlag,
			schema: `{"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s","maxLength":3}`,
			want:   `{"maxLength":3,"allOf":[{"type":"string"}],"description":"the usage"}`,
		},
		{
			name:   "2020-12 $anchor",
			add:    stringFlag,
			schema: `{"$defs":{"n":{"$anchor":"name","type":"string","pattern":"^[a-z]+$"}},"type":"array","items":{"$ref":"#name"}}`,
			want:   `{"type":"array","items":{"type":"string","pattern":"^[a-z]+$"},"description":"the usage"}`,
		},
		{
			name:   "escaped and percent-encoded pointers",
			add:    stringFlag,
			schema: `{"$defs":{"a/b":{"const":1},"c d":{"const":2},"e~f":{"const":3}},"anyOf":[{"$ref":"#/$defs/a~1b"},{"$ref":"#/$defs/c%20d"},{"$ref":"#/$defs/e~0f"}]}`,
			want:   `{"anyOf":[{"const":1},{"const":2},{"const":3}],"description":"the usage"}`,
		},
		{
			name:   "chained refs",
			add:    stringFlag,
			schema: `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"type":"boolean"}},"properties":{"p":{"$ref":"#/$defs/a"}}}`,
			want:   `{"type":["array","boolean","null","number","object","string"],"properties":{"p":{"type":"boolean"}},"description":"the usage"}`,
		},
		{
			name:   "ref to a boolean schema",
			add:    stringFlag,
			schema: `{"$defs":{"no":false,"yes":true},"properties":{"p":{"$ref":"#/$defs/no"},"q":{"$ref":"#/$defs/yes"}}}`,
			want:   `{"type":["array","boolean","null","number","object","string"],"properties":{"p":false,"q":true},"description":"the usage"}`,
		},
		{
			name:   "a ref to its own child is not recursive",
			add:    stringFlag,
			schema: `{"properties":{"a":{"$ref":"#/properties/a/properties/b","properties":{"b":{"type":"string"}}}}}`,
			want:   `{"type":["array","boolean","null","number","object","string"],"properties":{"a":{"properties":{"b":{"type":"string"}},"allOf":[{"type":"string"}]}},"description":"the usage"}`,
		},
		{
			name: "draft-07 with definitions and refs",
			add:  stringFlag,
			schema: `{"$schema":"http://json-schema.org/draft-07/schema#",
				"definitions":{"port":{"type":"integer","minimum":1,"maximum":65535},"host":{"type":"string"}},
				"type":"object",
				"properties":{"host":{"$ref":"#/definitions/host","description":"Host name"},
					"ports":{"type":"array","items":{"$ref":"#/definitions/port"}}}}`,
			want: `{"type":"object","description":"the usage","properties":{
				"host":{"type":"string","description":"Host name"},
				"ports":{"type":"array","items":{"type":"integer","minimum":1,"maximum":65535}}}}`,
		},
		{
			name: "draft-07 root $ref beside definitions",
			add:  intFlag,
			schema: `{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/p",
				"definitions":{"p":{"type":"integer","minimum":1}}}`,
			want: `{"type":"integer","minimum":1,"description":"an int","default":2}`,
		},
		{
			name: "draft-07 $ref siblings are ignored",
			add:  stringFlag,
			schema: `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"s":{"type":"string"}},
				"properties":{"a":{"$ref":"#/definitions/s","maxLength":1,"title":"A"}}}`,
			want: `{"type":["array","boolean","null","number","object","string"],"properties":{"a":{"type":"string","title":"A"}},"description":"the usage"}`,
		},
		{
			name: "draft-07 items array and additionalItems",
			add:  stringFlag,
			schema: `{"$schema":"https://json-schema.org/draft-07/schema","type":"array",
				"items":[{"type":"string"},{"type":"integer"}],"additionalItems":false}`,
			want: `{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":false,"description":"the usage"}`,
		},
		{
			name:   "draft-07 additionalItems beside an items schema is ignored",
			add:    stringFlag,
			schema: `{"$schema":"http://json-schema.org/draft-07/schema#","items":{"type":"string"},"additionalItems":false}`,
			want:   `{"type":["array","boolean","null","number","object","string"],"items":{"type":"string"},"description":"the usage"}`,
		},
		{
			name: "draft-07 ref into an items array",
			add:  stringFlag,
			schema: `{"$schema":"http://json-schema.org/draft-07/schema#",
				"properties":{"pair":{"items":[{"type":"string"},{"type":"integer"}]},"second":{"$ref":"#/properties/pair/items/1"}}}`,
			want: `{"type":["array","boolean","null","number","object","string"],"properties":{"pair":{"prefixItems":[{"type":"string"},{"type":"integer"}]},"second":{"type":"integer"}},"description":"the usage"}`,
		},
		{
			name: "draft-07 dependencies",
			add:  stringFlag,
			schema: `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
				"dependencies":{"a":["b"],"c":{"required":["d"]}}}`,
			want: `{"type":"object","dependentRequired":{"a":["b"]},"dependentSchemas":{"c":{"required":["d"]}},"description":"the usage"}`,
		},
		{
			name: "draft-07 $id anchor",
			add:  stringFlag,
			schema: `{"$schema":"http://json-schema.org/draft-07/schema#",
				"definitions":{"n":{"$id":"#num","type":"number"}},"properties":{"a":{"$ref":"#num"}}}`,
			want: `{"type":["array","boolean","null","number","object","string"],"properties":{"a":{"type":"number"}},"description":"the usage"}`,
		},
		{
			name:   "deprecated flag",
			add:    func(fs *pflag.FlagSet) { fs.String("x", "", "old"); fs.Lookup("x").Deprecated = "use y" },
			schema: `{"type":"string"}`,
			want:   `{"type":"string","description":"old","deprecated":true}`,
		},
		{
			name:   "blank values besides the schema are ignored",
			add:    stringFlag,
			schema: `{"type":"string"}`,
			want:   `{"type":"string","description":"the usage"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := annotated(t, tt.add, tt.schema, " ")
			if !Annotated(f) {
				t.Fatal("Annotated = false")
			}
			s, err := For(f)
			if err != nil {
				t.Fatalf("For: %v", err)
			}
			jsonEqual(t, s, tt.want)
			if _, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true}); err != nil {
				t.Errorf("result does not resolve: %v", err)
			}
			if strings.Contains(mustJSON(t, s), `"$ref"`) {
				t.Errorf("result still has a $ref")
			}
		})
	}
}

func TestAnnotationRefused(t *testing.T) {
	tests := []struct {
		name    string
		schema  []string
		wantErr string
	}{
		{"garbage JSON", []string{`{"type":`}, "not JSON"},
		{"text after the schema", []string{`{} {}`}, "text after"},
		{"not an object", []string{`"string"`}, "want a JSON object, have a string"},
		{"an array", []string{`[{"type":"string"}]`}, "have an array"},
		{"two schemas", []string{`{}`, `{}`}, "want one schema, have 2"},
		{"external ref", []string{`{"$ref":"https://example.com/schema.json"}`}, `external $ref "https://example.com/schema.json"`},
		{"relative external ref", []string{`{"properties":{"a":{"$ref":"other.json#/x"}}}`}, "external $ref"},
		{"recursive ref", []string{`{"$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"}}}},"$ref":"#/$defs/node"}`}, "recursive $ref"},
		{"ref to the root", []string{`{"type":"object","properties":{"self":{"$ref":"#"}}}`}, "recursive $ref"},
		{"mutual recursion", []string{`{"$defs":{"a":{"items":{"$ref":"#/$defs/b"}},"b":{"items":{"$ref":"#/$defs/a"}}},"$ref":"#/$defs/a"}`}, "recursive $ref"},
		{"draft-07 recursive", []string{`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"t":{"properties":{"kids":{"items":{"$ref":"#/definitions/t"}}}}},"$ref":"#/definitions/t"}`}, "recursive $ref"},
		{"ref to nowhere", []string{`{"$ref":"#/$defs/missing"}`}, "does not resolve"},
		{"unknown anchor", []string{`{"$ref":"#nope"}`}, "does not resolve"},
		{"bad pattern", []string{`{"type":"string","pattern":"("}`}, "does not resolve"},
		{"bad type", []string{`{"type":5}`}, "not a schema"},
		{"draft-04", []string{`{"$schema":"http://json-schema.org/draft-04/schema#"}`}, `unsupported "$schema"`},
		{"$schema not a string", []string{`{"$schema":1}`}, `"$schema" is not a string`},
		{"dynamic ref", []string{`{"$dynamicRef":"#meta"}`}, "$dynamicRef"},
		{"nested $id", []string{`{"properties":{"a":{"$id":"https://example.com/a","type":"string"}}}`}, "only the root may have an $id"},
		{"2020-12 items array", []string{`{"items":[{"type":"string"}]}`}, "use prefixItems"},
		{"2020-12 dependencies", []string{`{"dependencies":{"a":["b"]}}`}, "dependentRequired"},
		{"default does not validate", []string{`{"type":"integer","default":"two"}`}, "a default does not validate"},
		{"nested default does not validate", []string{`{"properties":{"a":{"type":"integer","default":"two"}}}`}, "a default does not validate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := annotated(t, func(fs *pflag.FlagSet) { fs.Int8("x", 3, "a level") }, tt.schema...)
			s, err := For(f)
			if err == nil {
				t.Fatalf("For accepted the annotation: %s", mustJSON(t, s))
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %q does not contain %q", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), "--x") {
				t.Errorf("error %q does not name the flag", err)
			}
			// The generated schema comes back.
			jsonEqual(t, s, `{"type":"integer","minimum":-128,"maximum":127,"description":"a level","default":3}`)
		})
	}
}

func TestAnnotated(t *testing.T) {
	tests := []struct {
		name   string
		values []string // nil: no annotation at all
		want   bool
	}{
		{"none", nil, false},
		{"empty list", []string{}, false},
		{"empty string", []string{""}, false},
		{"blank", []string{"  \n"}, false},
		{"schema", []string{`{"type":"string"}`}, true},
		{"garbage still counts", []string{`{`}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
			fs.String("x", "", "u")
			f := fs.Lookup("x")
			if tt.values != nil {
				f.Annotations = map[string][]string{Annotation: tt.values}
			}
			if got := Annotated(f); got != tt.want {
				t.Errorf("Annotated = %v, want %v", got, tt.want)
			}
			if !tt.want {
				// An empty annotation is no annotation: no error.
				if _, err := For(f); err != nil {
					t.Errorf("For: %v", err)
				}
			}
		})
	}
}

// TestAnnotationIsFresh checks that a schema from an annotation can be
// changed without changing the next one.
func TestAnnotationIsFresh(t *testing.T) {
	f := annotated(t, stringFlag, `{"$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s"},"b":{"$ref":"#/$defs/s"}}}`)
	s1, err := For(f)
	if err != nil {
		t.Fatal(err)
	}
	s1.Properties["a"].Type = "null"
	s1.Description = "changed"
	s2, err := For(f)
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, s2, `{"type":["array","boolean","null","number","object","string"],"properties":{"a":{"type":"string"},"b":{"type":"string"}},"description":"the usage"}`)
	if s1.Properties["a"] == s1.Properties["b"] {
		t.Error("two inlined refs share one schema")
	}
}

func mustJSON(t *testing.T, s *jsonschema.Schema) string {
	t.Helper()
	b, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
