package jsonvalue

import (
	"bytes"
	"encoding/json"
)

// Type is the JSON type of v as encoding/json decodes it: "null",
// "boolean", "number" (float64, json.Number, or any Go integer or float),
// "string", "array" ([]any) or "object" (map[string]any); "" for a value
// of another Go type.
func Type(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number, float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return ""
}

// Described is Type with its article, as a sentence names a value: "a
// boolean", "an array"; "null" stays bare, and a value of another Go type
// is "a value outside JSON's types".
func Described(v any) string {
	switch t := Type(v); t {
	case "null":
		return t
	case "array", "object":
		return "an " + t
	case "":
		return "a value outside JSON's types"
	default:
		return "a " + t
	}
}

// Marshal writes v as the exports write JSON: indented by two spaces,
// without HTML escaping (a description keeps its "<" and "&"), ending in
// a newline.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
