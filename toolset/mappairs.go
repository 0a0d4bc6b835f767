package toolset

import (
	"fmt"
	"reflect"
	"slices"
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
// that s describes (properties, additionalProperties, items, prefixItems,
// and the branches of anyOf, oneOf and allOf, where the strict form keeps
// a map that stands in one). A pairs list where s wants a map, and no
// branch an array, cannot be valid as it is, so reading it back changes no
// valid input. A key given twice, an element that is not such an object,
// or a missing member is an error.
func restatePairs(name string, s *jsonschema.Schema, v any) (any, error) {
	if s == nil {
		return v, nil
	}
	switch x := v.(type) {
	case []any:
		if ms := mapOf(s); ms != nil {
			m, err := mapFromPairs(name, x)
			if err != nil {
				return nil, err
			}
			return restatePairs(name, ms, m)
		}
		for i, e := range x {
			var err error
			if x[i], err = restatePairs(name+"["+strconv.Itoa(i)+"]", itemSchema(s, i), e); err != nil {
				return nil, err
			}
		}
	case map[string]any:
		for k, e := range x {
			var err error
			if x[k], err = restatePairs(name+"."+k, propertySchema(s, k), e); err != nil {
				return nil, err
			}
		}
	}
	return v, nil
}

// branches are the subschemas of s's anyOf, oneOf and allOf.
func branches(s *jsonschema.Schema) []*jsonschema.Schema {
	return slices.Concat(s.AnyOf, s.OneOf, s.AllOf)
}

// takesArray reports whether s's type is array or a list holding it.
func takesArray(s *jsonschema.Schema) bool {
	return s.Type == "array" || containsString(s.Types, "array")
}

// mapOf returns the map schema that a list given for s stands for: s
// itself when it is a map, or else a map among the branches of its anyOf,
// oneOf or allOf (at any depth) when neither s nor any branch takes an
// array; nil otherwise.
func mapOf(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil || takesArray(s) {
		return nil
	}
	if isMapSchema(s) {
		return s
	}
	var found *jsonschema.Schema
	for _, b := range branches(s) {
		if b == nil {
			continue
		}
		if takesArray(b) {
			return nil
		}
		if m := mapOf(b); m != nil && found == nil {
			found = m
		} else if m == nil && anyArray(b) {
			return nil
		}
	}
	return found
}

// anyArray reports whether s or a branch of it, at any depth, takes an
// array.
func anyArray(s *jsonschema.Schema) bool {
	if s == nil {
		return false
	}
	if takesArray(s) {
		return true
	}
	return slices.ContainsFunc(branches(s), anyArray)
}

// propertySchema is the schema of member k of an object under s: its
// property, else the one a branch gives it, else additionalProperties.
func propertySchema(s *jsonschema.Schema, k string) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	if p, ok := s.Properties[k]; ok {
		return p
	}
	for _, b := range branches(s) {
		if p := propertySchema(b, k); p != nil {
			return p
		}
	}
	return s.AdditionalProperties
}

// itemSchema is the schema of element i of an array under s: its
// prefixItems or items, else the one a branch gives it.
func itemSchema(s *jsonschema.Schema, i int) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	if i < len(s.PrefixItems) {
		return s.PrefixItems[i]
	}
	if s.Items != nil {
		return s.Items
	}
	for _, b := range branches(s) {
		if it := itemSchema(b, i); it != nil {
			return it
		}
	}
	return nil
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
