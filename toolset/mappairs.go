package toolset

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/flagschema"
)

// A map flag (stringToString, stringToInt, stringToInt64) is an open
// object in the input schema. OpenAI's strict mode has no open objects, so
// its export gives such a flag as an array of {"key", "value"} pairs; the
// call path reads that form back as the same map, so both forms give the
// same argv.

// isMapFlag reports whether f is served as an object of key=value pairs.
func isMapFlag(f *pflag.Flag) bool {
	if flagschema.Annotated(f) {
		return false
	}
	switch flagschema.Kind(f) {
	case "stringToString", "stringToInt", "stringToInt64":
		return true
	}
	return false
}

// mapFromPairs turns the strict form of a map flag's value, an array of
// {"key": string, "value": V} objects, into the map {key: V}. Any other
// value is returned as it is, for the schema to judge. A key given twice,
// an element that is not such an object, or a missing member is an error.
func mapFromPairs(name string, v any) (any, error) {
	list, ok := v.([]any)
	if !ok {
		return v, nil
	}
	m := make(map[string]any, len(list))
	for i, e := range list {
		obj, ok := e.(map[string]any)
		key, kok := obj["key"].(string)
		val, vok := obj["value"]
		if !ok || !kok || !vok || val == nil || len(obj) != 2 {
			return nil, fmt.Errorf("flag --%s: element %d of the pairs list must be {\"key\": string, \"value\": ...}", name, i)
		}
		if _, dup := m[key]; dup {
			return nil, fmt.Errorf("flag --%s: key %q is given twice in the pairs list", name, key)
		}
		m[key] = val
	}
	return m, nil
}
