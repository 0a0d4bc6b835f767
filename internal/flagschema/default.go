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
	return defaultOf(KindOf(f), f)
}

// defaultOf is [Default] of f, whose kind is k.
func defaultOf(k *Kind, f *pflag.Flag) (any, bool) {
	if f == nil {
		return nil, false
	}
	v, err := k.form.def(k, f)
	if err != nil || v == nil || isZero(v) {
		return nil, false
	}
	return v, true
}

// oneDefault reads the default of one value.
func oneDefault(k *Kind, f *pflag.Flag) (any, error) {
	if k.unset != nil && k.unset(f.DefValue) {
		return nil, nil
	}
	return k.parse(f.DefValue)
}

// listDefault reads the default of a list, element by element.
func listDefault(k *Kind, f *pflag.Flag) (any, error) {
	items, err := sliceItems(f, k.name)
	if err != nil {
		return nil, err
	}
	elem := k.elemKind()
	out := make([]any, 0, len(items))
	for _, it := range items {
		if !elem.text {
			it = strings.TrimSpace(it) // as pflag's parsers do
		}
		v, err := elem.parse(it)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// mapDefault reads the default of a map, value by value; csv says its
// pairs are one CSV record (stringToString's) when csvPairs is true, else
// comma-separated.
func mapDefault(csvPairs bool) func(k *Kind, f *pflag.Flag) (any, error) {
	return func(k *Kind, f *pflag.Flag) (any, error) {
		pairs, err := mapPairs(k.name, f.DefValue, csvPairs)
		if err != nil {
			return nil, err
		}
		elem := k.elemKind()
		out := make(map[string]any, len(pairs))
		for key, s := range pairs {
			v, err := elem.parse(s)
			if err != nil {
				return nil, err
			}
			out[key] = v
		}
		return out, nil
	}
}

// Compiled patterns for the checks in the parsers that the parsers alone
// do not make (pflag's mask parser and Go's base64 accept a few texts the
// patterns do not). They are never changed.
var (
	ipMaskRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(ipMaskPattern) })
	base64RE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(base64Pattern) })
)

// The parsers of one value's text as JSON (a kind's parse). Each refuses
// what the type's Set would refuse, so that a default always validates
// against the type's schema.

func parseBool(s string) (any, error) { return strconv.ParseBool(s) }

func verbatim(s string) (any, error) { return s, nil }

func parseInt(signed bool, bits int) func(string) (any, error) {
	if signed {
		return func(s string) (any, error) { return strconv.ParseInt(s, 0, bits) }
	}
	return func(s string) (any, error) { return strconv.ParseUint(s, 0, bits) }
}

func parseCount(s string) (any, error) {
	v, err := strconv.ParseInt(s, 0, strconv.IntSize)
	if err == nil && v < 0 {
		return nil, fmt.Errorf("count %d is negative", v)
	}
	return v, err
}

func parseFloat(s string) (any, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, err
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, fmt.Errorf("%s is not a JSON number", s)
	}
	return v, nil
}

func parseDuration(s string) (any, error) {
	if _, err := time.ParseDuration(s); err != nil {
		return nil, err
	}
	return s, nil
}

func parseIP(s string) (any, error) {
	if net.ParseIP(s) == nil {
		return nil, fmt.Errorf("%q is not an IP address", s)
	}
	return s, nil
}

func parseIPMask(s string) (any, error) {
	if pflag.ParseIPv4Mask(s) == nil || !ipMaskRE().MatchString(s) {
		return nil, fmt.Errorf("%q is not an IPv4 mask", s)
	}
	return s, nil
}

func parseIPNet(s string) (any, error) {
	if _, _, err := net.ParseCIDR(s); err != nil {
		return nil, err
	}
	return s, nil
}

func parseHex(s string) (any, error) {
	if _, err := hex.DecodeString(s); err != nil {
		return nil, err
	}
	return s, nil
}

func parseBase64(s string) (any, error) {
	if _, err := base64.StdEncoding.DecodeString(s); err != nil || !base64RE().MatchString(s) {
		return nil, fmt.Errorf("%q is not padded base64", s)
	}
	return s, nil
}

// The texts of a default that mean "no default" (a kind's unset).

func empty(s string) bool { return s == "" }

func zeroDuration(s string) bool {
	d, err := time.ParseDuration(s)
	return err == nil && d == 0
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
// CSV record when csvPairs is true, stringToString's) or Go's "map[k:v ...]".
func mapPairs(kind, text string, csvPairs bool) (map[string]string, error) {
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
	if csvPairs {
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

// isZero reports whether v, built by a form's def, is a zero or empty value.
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
