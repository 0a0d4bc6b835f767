package bridge

import (
	"encoding/json"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// numberMessage matches jsonschema-go's messages for the numeric keywords,
// which print the instance as a fraction (big.Rat: "-1/1") and the limit
// with %f ("0.000000", which also hides a limit below 0.000001).
var numberMessage = regexp.MustCompile(`^(minimum|maximum|exclusiveMinimum|exclusiveMaximum|multipleOf): (-?[0-9]+/[0-9]+) (is (?:not a multiple of|(?:less|greater) than(?: or equal to)?)) (-?[0-9]+\.[0-9]+)$`)

// plainNumbers rewrites a numeric keyword's message in plain numbers, as
// JSON writes them: "minimum: -1/1 is less than 0.000000" becomes
// "minimum: -1 is less than 0". The limit is read from s, the schema that
// failed, when it is known, so no digit is lost to %f. Other messages are
// returned as they are.
func plainNumbers(msg string, s *jsonschema.Schema) string {
	m := numberMessage.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	r, ok := new(big.Rat).SetString(m[2])
	if !ok {
		return msg
	}
	v, _ := r.Float64() // exact: the instance was a float64
	limit := m[4]
	if l := keywordValue(s, m[1]); l != nil {
		limit = formatNumber(*l)
	} else if f, err := strconv.ParseFloat(m[4], 64); err == nil {
		limit = formatNumber(f)
	}
	return m[1] + ": " + formatNumber(v) + " " + m[3] + " " + limit
}

// formatNumber writes f as JSON does: 0, -1, 0.25, 1e-7, 1e+21.
func formatNumber(f float64) string {
	b, err := json.Marshal(f)
	if err != nil { // NaN or an infinity: not from JSON
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return string(b)
}

// keywordValue returns the value of the numeric keyword kw in s, or nil.
func keywordValue(s *jsonschema.Schema, kw string) *float64 {
	if s == nil {
		return nil
	}
	switch kw {
	case "minimum":
		return s.Minimum
	case "maximum":
		return s.Maximum
	case "exclusiveMinimum":
		return s.ExclusiveMinimum
	case "exclusiveMaximum":
		return s.ExclusiveMaximum
	case "multipleOf":
		return s.MultipleOf
	}
	return nil
}

// schemaAt follows the schema path parts (as in jsonschema-go's "validating
// /properties/flags/..." prefix) from s, and returns nil where it cannot.
func schemaAt(s *jsonschema.Schema, parts []string) *jsonschema.Schema {
	for i := 0; s != nil && i < len(parts); i++ {
		var list []*jsonschema.Schema
		switch parts[i] {
		case "properties":
			if i++; i == len(parts) {
				return nil
			}
			s = s.Properties[unescapePointer(parts[i])]
			continue
		case "items":
			s = s.Items
			continue
		case "additionalProperties":
			s = s.AdditionalProperties
			continue
		case "prefixItems":
			list = s.PrefixItems
		case "anyOf":
			list = s.AnyOf
		case "oneOf":
			list = s.OneOf
		case "allOf":
			list = s.AllOf
		default:
			return nil
		}
		if i++; i == len(parts) {
			return nil
		}
		n, err := strconv.Atoi(parts[i])
		if err != nil || n < 0 || n >= len(list) {
			return nil
		}
		s = list[n]
	}
	return s
}

// unescapePointer undoes a JSON Pointer token's escapes.
func unescapePointer(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
}
