package toolset

import (
	"fmt"
	"reflect"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"
)

// A map (an object schema with no properties whose additionalProperties is
// a schema: a stringToString flag, or a map inside a flag's jsonschema
// annotation) is an open object in the input schema. OpenAI's strict mode
// has no open objects, so its export gives every such map, wherever it
// stands, as an array of {"key", "value"} pairs (dialect's mapPairs); the
// call path reads that form back as the same map, by the schema, so both
// forms give the same argv.

// isMapSchema reports whether s is a map as the OpenAI export sees one:
// of type object, without properties or patternProperties, whose
// additionalProperties is a schema other than false.
func isMapSchema(s *jsonschema.Schema) bool {
	if s == nil || s.AdditionalProperties == nil || len(s.Properties) > 0 || len(s.PatternProperties) > 0 {
		return false
	}
	if s.Type != "object" && !containsString(s.Types, "object") {
		return false
	}
	ap := s.AdditionalProperties
	return !(ap.Not != nil && reflect.DeepEqual(*ap.Not, jsonschema.Schema{})) // false is {"not": {}}
}

// restatePairs returns v, the value of flag name under schema s, with every
// map given as {key, value} pairs turned back into the map, at any depth
// that s describes (properties, additionalProperties, items, prefixItems).
// A pairs list where s wants a map cannot be valid as it is, so reading
// it back changes no valid input. A key given twice, an element that is not
// such an object, or a missing member is an error.
func restatePairs(name string, s *jsonschema.Schema, v any) (any, error) {
	if s == nil {
		return v, nil
	}
	switch x := v.(type) {
	case []any:
		if isMapSchema(s) {
			m, err := mapFromPairs(name, x)
			if err != nil {
				return nil, err
			}
			return restatePairs(name, s, m)
		}
		for i, e := range x {
			sub := s.Items
			if i < len(s.PrefixItems) {
				sub = s.PrefixItems[i]
			}
			var err error
			if x[i], err = restatePairs(name+"["+strconv.Itoa(i)+"]", sub, e); err != nil {
				return nil, err
			}
		}
	case map[string]any:
		for k, e := range x {
			sub, ok := s.Properties[k]
			if !ok {
				sub = s.AdditionalProperties
			}
			var err error
			if x[k], err = restatePairs(name+"."+k, sub, e); err != nil {
				return nil, err
			}
		}
	}
	return v, nil
}

// flagSchemaOf is the schema of the flag name in t's input schema, or nil.
func (t *Tool) flagSchemaOf(name string) *jsonschema.Schema {
	if flags := t.inputSchema().Properties["flags"]; flags != nil {
		return flags.Properties[name]
	}
	return nil
}

// mapFromPairs turns the strict form of a map, an array of {"key": string,
// "value": V} objects, into the map {key: V}. A key given twice, an
// element that is not such an object, or a missing member is an error.
func mapFromPairs(name string, list []any) (map[string]any, error) {
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
