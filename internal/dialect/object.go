package dialect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// object is a JSON object that remembers the order of its keys, so that a
// schema keeps the order it was written in (the order of "properties" is
// the order a model sees, and OpenAI generates arguments in that order).
// Values are *object, []any, string, json.Number, bool or nil.
type object struct {
	keys []string
	m    map[string]any
}

func newObject() *object { return &object{m: map[string]any{}} }

// get returns the value of key k.
func (o *object) get(k string) (any, bool) {
	v, ok := o.m[k]
	return v, ok
}

// has reports whether k is present.
func (o *object) has(k string) bool {
	_, ok := o.m[k]
	return ok
}

// set sets k to v, appending k when it is new.
func (o *object) set(k string, v any) {
	if _, ok := o.m[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.m[k] = v
}

// del removes k.
func (o *object) del(k string) {
	if _, ok := o.m[k]; !ok {
		return
	}
	delete(o.m, k)
	for i, key := range o.keys {
		if key == k {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
}

// list returns the keys in order (a copy, safe to range while editing).
func (o *object) list() []string { return append([]string(nil), o.keys...) }

// str returns the string value of k, or "".
func (o *object) str(k string) string {
	s, _ := o.m[k].(string)
	return s
}

// obj returns the object value of k, or nil.
func (o *object) obj(k string) *object {
	v, _ := o.m[k].(*object)
	return v
}

// MarshalJSON writes the object with its keys in order.
func (o *object) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, err := marshal(k)
		if err != nil {
			return nil, err
		}
		buf.Write(kb)
		buf.WriteByte(':')
		vb, err := marshal(o.m[k])
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", k, err)
		}
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// marshal is json.Marshal without HTML escaping, so that patterns such as
// "<" stay readable.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// clone returns a deep copy of a JSON value.
func clone(v any) any {
	switch v := v.(type) {
	case *object:
		c := &object{keys: append([]string(nil), v.keys...), m: make(map[string]any, len(v.m))}
		for k, x := range v.m {
			c.m[k] = clone(x)
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, x := range v {
			c[i] = clone(x)
		}
		return c
	}
	return v
}

// decodeValue turns any JSON-marshalable value into the ordered form. A
// nil value (or JSON null) gives nil.
func decodeValue(v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return parseJSON(b)
}

// parseJSON parses one JSON text into the ordered form, numbers as
// json.Number.
func parseJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := parseNext(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data after JSON value")
	}
	return v, nil
}

func parseNext(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := newObject()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key %v is not a string", kt)
				}
				v, err := parseNext(dec)
				if err != nil {
					return nil, err
				}
				o.set(k, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return o, nil
		case '[':
			a := []any{}
			for dec.More() {
				v, err := parseNext(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return a, nil
		}
		return nil, fmt.Errorf("unexpected delimiter %v", t)
	}
	return tok, nil
}

// schemaObject decodes a tool schema (any JSON-marshalable value) and
// requires a JSON object; nil stays nil.
func schemaObject(v any) (*object, error) {
	d, err := decodeValue(v)
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, nil
	}
	o, ok := d.(*object)
	if !ok {
		return nil, fmt.Errorf("schema is a JSON %s, not an object", kind(d))
	}
	return o, nil
}

// kind names the JSON kind of a decoded value.
func kind(v any) string {
	switch v.(type) {
	case *object:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// jsonText renders a decoded value as compact JSON for messages.
func jsonText(v any) string {
	b, err := marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// ptr appends one reference token to a JSON Pointer (RFC 6901).
func ptr(base string, tok string) string {
	tok = strings.ReplaceAll(tok, "~", "~0")
	tok = strings.ReplaceAll(tok, "/", "~1")
	return base + "/" + tok
}

// ptrIndex appends an array index to a JSON Pointer.
func ptrIndex(base string, i int) string { return fmt.Sprintf("%s/%d", base, i) }
