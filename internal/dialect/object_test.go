package dialect

import (
	"encoding/json"
	"testing"
)

func TestObjectKeepsOrderAndNumbers(t *testing.T) {
	tests := []string{
		`{"z":1,"a":{"y":[1,2.5,-3e2],"b":null},"m":"<&>"}`,
		`{"big":9223372036854775807,"frac":0.1000000000000000055511151231257827}`,
		`[]`,
		`{}`,
		`"s"`,
	}
	for _, in := range tests {
		v, err := parseJSON([]byte(in))
		if err != nil {
			t.Fatalf("parseJSON(%s): %v", in, err)
		}
		out, err := marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != in {
			t.Errorf("round trip of %s gave %s", in, out)
		}
		if c, _ := marshal(clone(v)); string(c) != in {
			t.Errorf("clone of %s gave %s", in, c)
		}
	}
}

func TestObjectEdits(t *testing.T) {
	o := newObject()
	o.set("a", 1)
	o.set("b", 2)
	o.set("c", 3)
	o.set("a", 4) // keeps its place
	o.del("b")
	o.del("missing")
	if got, _ := marshal(o); string(got) != `{"a":4,"c":3}` {
		t.Errorf("got %s", got)
	}
}

func TestParseJSONErrors(t *testing.T) {
	for _, in := range []string{`{"a":1} x`, `{"a":`, `{1:2}`, ``} {
		if _, err := parseJSON([]byte(in)); err == nil {
			t.Errorf("parseJSON(%q) accepted", in)
		}
	}
}

func TestSchemaObject(t *testing.T) {
	if o, err := schemaObject(nil); o != nil || err != nil {
		t.Errorf("nil: %v %v", o, err)
	}
	if _, err := schemaObject(json.RawMessage(`true`)); err == nil {
		t.Errorf("a boolean schema was accepted as a tool schema")
	}
	if _, err := schemaObject(json.RawMessage(`{`)); err == nil {
		t.Errorf("broken JSON accepted")
	}
	o, err := schemaObject(map[string]any{"type": "object"})
	if err != nil || o.str("type") != "object" {
		t.Errorf("map: %v %v", o, err)
	}
}

func TestPointerEscapes(t *testing.T) {
	if got := ptr(ptr("", "a/b"), "c~d"); got != "/a~1b/c~0d" {
		t.Errorf("ptr = %q", got)
	}
	root, _ := parseJSON([]byte(`{"a/b":{"c~d":[10,20]}}`))
	v, ok := resolve(root.(*object), "/a~1b/c~0d/1")
	if !ok || jsonText(v) != "20" {
		t.Errorf("resolve = %v %v", v, ok)
	}
	for _, bad := range []string{"/x", "/a~1b/c~0d/2", "/a~1b/c~0d/-1", "x"} {
		if _, ok := resolve(root.(*object), bad); ok {
			t.Errorf("resolve(%q) succeeded", bad)
		}
	}
}
