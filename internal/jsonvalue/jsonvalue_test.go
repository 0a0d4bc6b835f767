package jsonvalue

import (
	"encoding/json"
	"testing"
)

func TestType(t *testing.T) {
	for _, tt := range []struct {
		json, want, described string
	}{
		{`null`, "null", "null"},
		{`true`, "boolean", "a boolean"},
		{`1.5`, "number", "a number"},
		{`"x"`, "string", "a string"},
		{`[1]`, "array", "an array"},
		{`{"a":1}`, "object", "an object"},
	} {
		var v any
		if err := json.Unmarshal([]byte(tt.json), &v); err != nil {
			t.Fatal(err)
		}
		if got := Type(v); got != tt.want {
			t.Errorf("Type(%s) = %q, want %q", tt.json, got, tt.want)
		}
		if got := Described(v); got != tt.described {
			t.Errorf("Described(%s) = %q, want %q", tt.json, got, tt.described)
		}
	}
	for _, v := range []any{json.Number("7"), 3, uint8(1), float32(2)} {
		if got := Type(v); got != "number" {
			t.Errorf("Type(%T) = %q, want number", v, got)
		}
	}
	if got := Type(struct{}{}); got != "" {
		t.Errorf("Type(struct{}{}) = %q, want \"\"", got)
	}
}

// TestMarshal: indented by two spaces, "<" and "&" kept, a newline at the
// end.
func TestMarshal(t *testing.T) {
	got, err := Marshal(map[string]any{"d": "a <b> & c", "n": []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"d\": \"a <b> & c\",\n  \"n\": [\n    1\n  ]\n}\n"
	if string(got) != want {
		t.Errorf("Marshal = %q, want %q", got, want)
	}
	if _, err := Marshal(func() {}); err == nil {
		t.Error("Marshal of a func: no error")
	}
}
