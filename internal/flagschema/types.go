package flagschema

import "github.com/google/jsonschema-go/jsonschema"

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
	// elements back from six decimals, so Write refuses others.
	floatSliceNote = "each with at most six decimal places, as pflag reads the list back"
)

// oneSchema is the schema of one value of the kind.
func oneSchema(k *Kind) *jsonschema.Schema { return k.schema() }

// listSchema is the schema of a list: an array of the elements' schema.
func listSchema(k *Kind) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "array", Items: k.elemKind().schema()}
	if !k.emptyList {
		// No command line sets these to an empty list (pflag splits ""
		// into one empty, invalid element, and stringArray has no form
		// for it): say so rather than have the call refused.
		s.MinItems = jsonschema.Ptr(1)
	}
	return s
}

// mapSchemaOf is the schema of a map whose keys match keyPattern.
func mapSchemaOf(keyPattern string) func(k *Kind) *jsonschema.Schema {
	return func(k *Kind) *jsonschema.Schema { return mapSchema(k.elemKind().schema(), keyPattern) }
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

// intSchema returns an integer schema with exact bounds.
func intSchema(lo, hi float64) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(lo), Maximum: jsonschema.Ptr(hi)}
}

// typeSchema returns a fresh schema for the kind and the note to append
// to the flag's description.
func (k *Kind) typeSchema() (*jsonschema.Schema, string) {
	return k.form.schema(k), k.note
}
