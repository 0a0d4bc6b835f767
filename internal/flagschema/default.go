package flagschema

import (
	"encoding/base64"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"math"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"
)

// Default returns the default of f as a typed JSON value, and false when the
// default is zero or empty (false, 0, "", 0s, an empty list or map, an unset
// IP), or cannot be read as f's type.
//
// The values are built from JSON types: bool, string, int64 (signed integer
// types and count), uint64 (unsigned integer types), float64, []any and
// map[string]any. Durations, IPs, networks and encoded bytes are strings, as
// the command line writes them. A custom [pflag.Value] gives its default
// text as a string; of its texts only the empty ones ("", "<nil>", "[]",
// "{}", "map[]") are left out, since what is zero for it is unknown.
//
// The default is read from f.DefValue, the text pflag shows in help. For a
// slice flag that has not been changed and still holds its default, the
// elements are read through [pflag.SliceValue.GetSlice] instead, which keeps
// elements that contain commas intact.
func Default(f *pflag.Flag) (any, bool) {
	if f == nil {
		return nil, false
	}
	v, err := defaultValue(f)
	if err != nil || v == nil || isZero(v) {
		return nil, false
	}
	return v, true
}

// defaultValue parses f's default; a nil value means "no default".
func defaultValue(f *pflag.Flag) (any, error) {
	kind := Kind(f)
	text := f.DefValue
	if elem, ok := sliceElem(kind); ok {
		items, err := sliceItems(f, kind)
		if err != nil {
			return nil, err
		}
		out := make([]any, 0, len(items))
		for _, it := range items {
			if elem != "string" {
				it = strings.TrimSpace(it) // as pflag's parsers do
			}
			v, err := scalar(elem, it)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	if val, ok := mapValue(kind); ok {
		pairs, err := mapPairs(kind, text)
		if err != nil {
			return nil, err
		}
		out := make(map[string]any, len(pairs))
		for k, s := range pairs {
			v, err := scalar(val, s)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return out, nil
	}
	if !builtin(kind) {
		if emptyText(text) {
			return nil, nil
		}
		return text, nil
	}
	switch kind {
	case "ip", "ipMask", "ipNet":
		if emptyText(text) {
			return nil, nil
		}
	case "bool", "boolfunc", "count":
		if text == "" {
			return nil, nil
		}
	case "duration":
		if d, err := time.ParseDuration(text); err == nil && d == 0 {
			return nil, nil
		}
	}
	return scalar(kind, text)
}

// Compiled patterns for the checks in scalar that the parsers alone do
// not make (pflag's mask parser and Go's base64 accept a few texts the
// patterns do not). They are never changed.
var (
	ipMaskRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(ipMaskPattern) })
	base64RE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(base64Pattern) })
)

// scalar converts the text of one value of a scalar pflag type to JSON. It
// refuses what the type's Set would refuse, so that a default always
// validates against the type's schema.
func scalar(kind, s string) (any, error) {
	switch kind {
	case "bool", "boolfunc":
		return strconv.ParseBool(s)
	case "int":
		return strconv.ParseInt(s, 0, strconv.IntSize)
	case "count":
		v, err := strconv.ParseInt(s, 0, strconv.IntSize)
		if err == nil && v < 0 {
			return nil, fmt.Errorf("count %d is negative", v)
		}
		return v, err
	case "int8":
		return strconv.ParseInt(s, 0, 8)
	case "int16":
		return strconv.ParseInt(s, 0, 16)
	case "int32":
		return strconv.ParseInt(s, 0, 32)
	case "int64":
		return strconv.ParseInt(s, 0, 64)
	case "uint":
		return strconv.ParseUint(s, 0, strconv.IntSize)
	case "uint8":
		return strconv.ParseUint(s, 0, 8)
	case "uint16":
		return strconv.ParseUint(s, 0, 16)
	case "uint32":
		return strconv.ParseUint(s, 0, 32)
	case "uint64":
		return strconv.ParseUint(s, 0, 64)
	case "float32", "float64":
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, err
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s is not a JSON number", s)
		}
		return v, nil
	case "duration":
		if _, err := time.ParseDuration(s); err != nil {
			return nil, err
		}
	case "ip":
		if net.ParseIP(s) == nil {
			return nil, fmt.Errorf("%q is not an IP address", s)
		}
	case "ipMask":
		if pflag.ParseIPv4Mask(s) == nil || !ipMaskRE().MatchString(s) {
			return nil, fmt.Errorf("%q is not an IPv4 mask", s)
		}
	case "ipNet":
		if _, _, err := net.ParseCIDR(s); err != nil {
			return nil, err
		}
	case "bytesHex":
		if _, err := hex.DecodeString(s); err != nil {
			return nil, err
		}
	case "bytesBase64":
		if _, err := base64.StdEncoding.DecodeString(s); err != nil || !base64RE().MatchString(s) {
			return nil, fmt.Errorf("%q is not padded base64", s)
		}
	}
	return s, nil
}

// sliceItems returns the default elements of a slice flag.
func sliceItems(f *pflag.Flag, kind string) ([]string, error) {
	if sv, ok := f.Value.(pflag.SliceValue); ok && !f.Changed && f.Value.String() == f.DefValue {
		return sv.GetSlice(), nil
	}
	body, ok := strings.CutPrefix(f.DefValue, "[")
	if !ok {
		return nil, fmt.Errorf("%s default %q is not a [list]", kind, f.DefValue)
	}
	body, ok = strings.CutSuffix(body, "]")
	if !ok {
		return nil, fmt.Errorf("%s default %q is not a [list]", kind, f.DefValue)
	}
	if body == "" {
		return nil, nil
	}
	// pflag writes string, IP and network lists as one CSV record; numbers,
	// bools and durations never need quoting, so CSV reads them too.
	items, err := csv.NewReader(strings.NewReader(body)).Read()
	if err != nil {
		return nil, fmt.Errorf("%s default %q: %w", kind, f.DefValue, err)
	}
	return items, nil
}

// mapPairs parses the default text of a map flag: pflag's "[k=v,...]" (a
// CSV record for stringToString) or Go's "map[k:v ...]".
func mapPairs(kind, text string) (map[string]string, error) {
	out := map[string]string{}
	if body, ok := strings.CutPrefix(text, "map["); ok {
		body, ok = strings.CutSuffix(body, "]")
		if !ok {
			return nil, fmt.Errorf("%s default %q is not a map", kind, text)
		}
		for _, kv := range strings.Fields(body) {
			k, v, ok := strings.Cut(kv, ":")
			if !ok {
				return nil, fmt.Errorf("%s default %q: %q is not key:value", kind, text, kv)
			}
			out[k] = v
		}
		return out, nil
	}
	body, ok := strings.CutPrefix(text, "[")
	if ok {
		body, ok = strings.CutSuffix(body, "]")
	}
	if !ok {
		return nil, fmt.Errorf("%s default %q is not a [map]", kind, text)
	}
	if body == "" {
		return out, nil
	}
	var records []string
	if kind == "stringToString" {
		var err error
		records, err = csv.NewReader(strings.NewReader(body)).Read()
		if err != nil {
			return nil, fmt.Errorf("%s default %q: %w", kind, text, err)
		}
	} else {
		records = strings.Split(body, ",")
	}
	for _, r := range records {
		k, v, ok := strings.Cut(r, "=")
		if !ok {
			return nil, fmt.Errorf("%s default %q: %q is not key=value", kind, text, r)
		}
		out[k] = v
	}
	return out, nil
}

// emptyText reports whether a default text means "nothing": how Go and
// pflag print nil, empty lists and empty maps.
func emptyText(s string) bool {
	switch strings.TrimSpace(s) {
	case "", "<nil>", "nil", "null", "[]", "{}", "map[]":
		return true
	}
	return false
}

// isZero reports whether v, built by defaultValue, is a zero or empty value.
func isZero(v any) bool {
	switch v := v.(type) {
	case bool:
		return !v
	case string:
		return v == ""
	case int64:
		return v == 0
	case uint64:
		return v == 0
	case float64:
		return v == 0
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}
