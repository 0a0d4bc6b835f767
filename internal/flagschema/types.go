package flagschema

import (
	"math"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"
)

// Patterns for the string-encoded pflag types. Each accepts every string the
// pflag type's Set accepts (up to surrounding white space, which pflag trims)
// and rejects most strings it refuses.
const (
	// durationPattern matches the syntax of Go's time.ParseDuration: an
	// optional sign, then "0" or one or more decimal numbers each followed by
	// a unit (ns, us, µs, μs, ms, s, m, h). It is the shortest form found
	// of that syntax; TestDurationPatternShortFormIsEquivalent proves it
	// matches exactly what the longer, literal form matches.
	durationPattern = `^[-+]?(0|(([0-9]+\.?[0-9]*|\.[0-9]+)([nuµμm]?s|m|h))+)$`
	// ipMaskPattern matches an IPv4 mask as pflag's ParseIPv4Mask reads it:
	// dotted decimal or eight hex digits.
	ipMaskPattern = `^([0-9]{1,3}(\.[0-9]{1,3}){3}|[0-9A-Fa-f]{8})$`
	// ipPattern matches the characters of an IPv4 or IPv6 address, for
	// validators that do not assert "format" (jsonschema-go does not).
	ipPattern = `^[0-9A-Fa-f:.]+$`
	// cidrPattern matches an IPv4 or IPv6 network in CIDR notation as
	// net.ParseCIDR reads it.
	cidrPattern = `^[0-9A-Fa-f:.]+/[0-9]{1,3}$`
	// hexPattern matches hex-encoded bytes as encoding/hex reads them.
	hexPattern = `^([0-9A-Fa-f]{2})*$`
	// base64Pattern matches padded standard base64 as
	// base64.StdEncoding reads it.
	base64Pattern = `^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`
	// stringMapKeyPattern matches a stringToString key: "=" would end it.
	stringMapKeyPattern = `^[^=]*$`
	// intMapKeyPattern matches a stringToInt(64) key: "," ends a pair and
	// "=" a key, and pflag's getter trims a leading "[" or "]" from the
	// key it prints first.
	intMapKeyPattern = `^([^,=\[\]][^,=]*)?$`
)

// Notes appended to the description of the string-encoded types.
const (
	durationNote      = "Go duration such as 30s, 5m, 1h30m"
	durationSliceNote = "each a Go duration such as 30s, 5m, 1h30m"
	ipNote            = "IPv4 or IPv6 address"
	ipSliceNote       = "IPv4 or IPv6 addresses"
	ipMaskNote        = "IPv4 mask such as 255.255.255.0 or ffffff00"
	ipNetNote         = "CIDR network such as 10.0.0.0/8 or 2001:db8::/32"
	ipNetSliceNote    = "CIDR networks such as 10.0.0.0/8 or 2001:db8::/32"
	hexNote           = "hex-encoded bytes"
	base64Note        = "base64-encoded bytes"
	// floatSliceNote: pflag's GetFloat64Slice and GetFloat32Slice read the
	// elements back from six decimals, so the exec package refuses others.
	floatSliceNote = "each with at most six decimal places, as pflag reads the list back"
)

// typeSchema returns a fresh schema for the pflag type kind and the note to
// append to the flag's description.
//
// Integer bounds: the sized types up to 32 bits get exact minimum and
// maximum. jsonschema-go stores bounds as float64, which cannot hold
// 2^63-1 or 2^64-1 exactly; rather than a bound that is off by one (and
// shows a misleading number to a model), the 64-bit types get no maximum,
// int64 no minimum, and the unsigned types minimum 0. int and uint follow
// the platform's int size.
func typeSchema(kind string) (*jsonschema.Schema, string) {
	if elem, ok := sliceElem(kind); ok {
		items, _ := typeSchema(elem)
		s := &jsonschema.Schema{Type: "array", Items: items}
		if !emptyListExpressible(kind) {
			// No command line sets these to an empty list (pflag splits
			// "" into one empty, invalid element, and stringArray has no
			// form for it): say so rather than have the call refused.
			s.MinItems = jsonschema.Ptr(1)
		}
		switch kind {
		case "durationSlice":
			return s, durationSliceNote
		case "ipSlice":
			return s, ipSliceNote
		case "ipNetSlice":
			return s, ipNetSliceNote
		case "float32Slice", "float64Slice":
			return s, floatSliceNote
		}
		return s, ""
	}
	switch kind {
	case "bool", "boolfunc":
		return &jsonschema.Schema{Type: "boolean"}, ""
	case "string", "func":
		return &jsonschema.Schema{Type: "string"}, ""
	case "int":
		if strconv.IntSize == 32 {
			return intSchema(math.MinInt32, math.MaxInt32), ""
		}
		return &jsonschema.Schema{Type: "integer"}, ""
	case "int8":
		return intSchema(math.MinInt8, math.MaxInt8), ""
	case "int16":
		return intSchema(math.MinInt16, math.MaxInt16), ""
	case "int32":
		return intSchema(math.MinInt32, math.MaxInt32), ""
	case "int64":
		return &jsonschema.Schema{Type: "integer"}, ""
	case "uint":
		if strconv.IntSize == 32 {
			return intSchema(0, math.MaxUint32), ""
		}
		return &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(0.0)}, ""
	case "uint8":
		return intSchema(0, math.MaxUint8), ""
	case "uint16":
		return intSchema(0, math.MaxUint16), ""
	case "uint32":
		return intSchema(0, math.MaxUint32), ""
	case "uint64", "count":
		return &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(0.0)}, ""
	case "float32", "float64":
		return &jsonschema.Schema{Type: "number"}, ""
	case "duration":
		return &jsonschema.Schema{Type: "string", Pattern: durationPattern}, durationNote
	case "ip":
		return &jsonschema.Schema{Type: "string", Pattern: ipPattern, AnyOf: []*jsonschema.Schema{
			{Type: "string", Format: "ipv4"},
			{Type: "string", Format: "ipv6"},
		}}, ipNote
	case "ipMask":
		return &jsonschema.Schema{Type: "string", Pattern: ipMaskPattern}, ipMaskNote
	case "ipNet":
		return &jsonschema.Schema{Type: "string", Pattern: cidrPattern}, ipNetNote
	case "bytesHex":
		return &jsonschema.Schema{Type: "string", Pattern: hexPattern}, hexNote
	case "bytesBase64":
		return &jsonschema.Schema{Type: "string", Pattern: base64Pattern, ContentEncoding: "base64"}, base64Note
	case "stringToString":
		return mapSchema(&jsonschema.Schema{Type: "string"}, stringMapKeyPattern), ""
	case "stringToInt":
		v, _ := typeSchema("int")
		return mapSchema(v, intMapKeyPattern), ""
	case "stringToInt64":
		return mapSchema(&jsonschema.Schema{Type: "integer"}, intMapKeyPattern), ""
	}
	// A custom pflag.Value (or a pflag type read as text, such as "time"):
	// the command line gives it a string; its type name tells the model what
	// kind of string.
	if kind == "" {
		return &jsonschema.Schema{Type: "string"}, ""
	}
	return &jsonschema.Schema{Type: "string"}, "type: " + kind
}

// mapSchema is the schema of a pflag map type: at least one entry (pflag
// has no command line for an empty map) and keys that its syntax can carry.
func mapSchema(values *jsonschema.Schema, keyPattern string) *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:                 "object",
		AdditionalProperties: values,
		MinProperties:        jsonschema.Ptr(1),
		PropertyNames:        &jsonschema.Schema{Pattern: keyPattern},
	}
}

// emptyListExpressible reports whether a command line can set a slice
// flag of this kind to an empty list ("--x=" works for these).
func emptyListExpressible(kind string) bool {
	switch kind {
	case "stringSlice", "boolSlice", "ipSlice", "ipNetSlice":
		return true
	}
	return false
}

// intSchema returns an integer schema with exact bounds.
func intSchema(lo, hi float64) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(lo), Maximum: jsonschema.Ptr(hi)}
}

// SliceElem returns the element type of a built-in pflag slice type
// ("int32" for "int32Slice", "string" for "stringArray"), and false for
// any other type.
func SliceElem(kind string) (string, bool) { return sliceElem(kind) }

// sliceElem returns the element type of a built-in pflag slice type.
func sliceElem(kind string) (string, bool) {
	switch kind {
	case "stringSlice", "stringArray":
		return "string", true
	case "intSlice":
		return "int", true
	case "int32Slice":
		return "int32", true
	case "int64Slice":
		return "int64", true
	case "uintSlice":
		return "uint", true
	case "float32Slice":
		return "float32", true
	case "float64Slice":
		return "float64", true
	case "boolSlice":
		return "bool", true
	case "durationSlice":
		return "duration", true
	case "ipSlice":
		return "ip", true
	case "ipNetSlice":
		return "ipNet", true
	}
	return "", false
}

// mapValue returns the value type of a built-in pflag map type.
func mapValue(kind string) (string, bool) {
	switch kind {
	case "stringToString":
		return "string", true
	case "stringToInt":
		return "int", true
	case "stringToInt64":
		return "int64", true
	}
	return "", false
}

// builtin reports whether kind is a pflag type that For maps to a specific
// schema rather than to a string named after the type.
func builtin(kind string) bool {
	if _, ok := sliceElem(kind); ok {
		return true
	}
	if _, ok := mapValue(kind); ok {
		return true
	}
	switch kind {
	case "bool", "boolfunc", "string", "func",
		"int", "int8", "int16", "int32", "int64",
		"uint", "uint8", "uint16", "uint32", "uint64", "count",
		"float32", "float64", "duration", "ip", "ipMask", "ipNet", "bytesHex", "bytesBase64":
		return true
	}
	return false
}
