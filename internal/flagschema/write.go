package flagschema

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"net"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cobramcp/cobramcp/internal/jsonvalue"
	"github.com/spf13/pflag"
)

// Errors returned (wrapped) by [Write]. Test them with errors.Is.
var (
	// ErrInvalidValue reports a value that does not fit the flag: a JSON
	// type the flag does not take, a number out of the flag's range or not
	// integral for an integer flag, a string the flag's type cannot parse.
	ErrInvalidValue = errors.New("invalid value")
	// ErrUnrepresentable reports a value that fits the flag's type but that
	// no command line can make the flag parser return: a NUL byte, an
	// empty list for a flag type that always parses at least one element, a
	// map key holding the separator of its flag's syntax, and the like.
	ErrUnrepresentable = errors.New("value cannot be expressed on a command line")
)

// Write returns the texts that set the flag f to the value v on a command
// line, one "--NAME=TEXT" element each, in the syntax of f's kind: v is a
// decoded JSON value (numbers as json.Number or float64) or a Go value of
// the flag's type. A value that the flag's parser, or pflag's getter,
// would read back as anything else is refused ([ErrInvalidValue],
// [ErrUnrepresentable]); the texts are not checked for NUL bytes, which no
// command line holds.
//
// A flag of a kind whose value is text (string, func, time, a custom
// type) annotated with an [Annotation] takes a JSON string verbatim and
// any other JSON value as its compact JSON text. A [Repeatable] flag
// takes a list, one element per text, verbatim.
func Write(f *pflag.Flag, v any) ([]string, error) {
	k := KindOf(f)
	if k.text && Annotated(f) {
		if s, ok := v.(string); ok {
			return []string{s}, nil
		}
		text, err := compactJSON(v)
		if err != nil {
			return nil, err
		}
		return []string{text}, nil
	}
	if Repeatable(f) {
		return writeEach(k, f.Name, v)
	}
	return k.form.write(k, f.Name, v)
}

// writeOne writes one value.
func writeOne(k *Kind, _ string, v any) ([]string, error) {
	s, err := k.format(v)
	return []string{s}, err
}

// writeEach returns the elements of a list, one per "--name=value":
// stringArray and the custom values that accumulate ([Repeatable]).
func writeEach(k *Kind, name string, v any) ([]string, error) {
	elems, err := elements(v)
	if err != nil {
		return nil, err
	}
	if len(elems) == 0 {
		return nil, fmt.Errorf("an empty list (each --%s adds an element): %w", name, ErrUnrepresentable)
	}
	out := make([]string, len(elems))
	for i, e := range elems {
		s, err := str(e, "a string")
		if err != nil {
			return nil, elemErr(i, err)
		}
		out[i] = s
	}
	if k.get != nil && !plainList(out) {
		if err := checkListReadBack(k, out, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// writeCommaList comma-joins the canonical texts of the elements. The
// canonical texts of these element kinds never hold a comma or a quote.
func writeCommaList(k *Kind, _ string, v any) ([]string, error) {
	elems, err := elements(v)
	if err != nil {
		return nil, err
	}
	elem := k.elemKind()
	if len(elems) == 0 {
		if k.emptyList {
			return []string{""}, nil
		}
		return nil, fmt.Errorf("an empty list (the flag parses at least one %s): %w", elem.name, ErrUnrepresentable)
	}
	parts := make([]string, len(elems))
	for i, e := range elems {
		if e == nil {
			return nil, elemErr(i, typeErr("a value", e))
		}
		s, err := elem.format(e)
		if err != nil {
			return nil, elemErr(i, err)
		}
		parts[i] = s
	}
	text := strings.Join(parts, ",")
	if k.get != nil {
		if err := checkListReadBack(k, []string{text}, parts); err != nil {
			return nil, err
		}
	}
	return []string{text}, nil
}

// The writers of one value (a kind's format): each checks that v is of
// the kind and writes the text its Set reads back as exactly v.

func formatBool(v any) (string, error) {
	b, ok := v.(bool)
	if !ok {
		rv := reflect.ValueOf(v)
		if !rv.IsValid() || rv.Kind() != reflect.Bool {
			return "", typeErr("a boolean", v)
		}
		b = rv.Bool()
	}
	return strconv.FormatBool(b), nil
}

// formatText takes a string verbatim.
func formatText(v any) (string, error) { return str(v, "a string") }

// formatInt writes an integer of the type named kind, signed or not, of
// the given bit size.
func formatInt(kind string, signed bool, bits int) func(any) (string, error) {
	return func(v any) (string, error) { return encodeInt(kind, v, signed, bits) }
}

// formatFloat writes a float of the given bit size.
func formatFloat(bits int) func(any) (string, error) {
	return func(v any) (string, error) { return encodeFloat(v, bits) }
}

func formatDuration(v any) (string, error) {
	if d, ok := v.(time.Duration); ok {
		return d.String(), nil
	}
	s, err := str(v, "a duration string such as \"1m30s\"")
	if err != nil {
		return "", err
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return "", fmt.Errorf("%q is not a duration such as \"1m30s\": %w", s, ErrInvalidValue)
	}
	return d.String(), nil
}

func formatIP(v any) (string, error) {
	s, err := str(v, "an IP address string")
	if err != nil {
		return "", err
	}
	ip := net.ParseIP(strings.TrimSpace(s))
	if ip == nil {
		return "", fmt.Errorf("%q is not an IP address: %w", s, ErrInvalidValue)
	}
	return ip.String(), nil
}

// formatIPMask writes a mask as given.
func formatIPMask(v any) (string, error) {
	s, err := str(v, "an IPv4 mask string")
	if err != nil {
		return "", err
	}
	if pflag.ParseIPv4Mask(s) == nil {
		return "", fmt.Errorf("%q is not an IPv4 mask such as 255.255.255.0 or ffffff00: %w", s, ErrInvalidValue)
	}
	return s, nil
}

func formatIPNet(v any) (string, error) {
	s, err := str(v, "a CIDR network string")
	if err != nil {
		return "", err
	}
	_, n, err := net.ParseCIDR(strings.TrimSpace(s))
	if err != nil {
		return "", fmt.Errorf("%q is not a CIDR network: %w", s, ErrInvalidValue)
	}
	return n.String(), nil
}

func formatHex(v any) (string, error) {
	if b, ok := v.([]byte); ok {
		return hex.EncodeToString(b), nil
	}
	s, err := str(v, "a hex string")
	if err != nil {
		return "", err
	}
	b, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil {
		return "", fmt.Errorf("%q is not hex-encoded bytes: %w", s, ErrInvalidValue)
	}
	return hex.EncodeToString(b), nil
}

func formatBase64(v any) (string, error) {
	if b, ok := v.([]byte); ok {
		return base64.StdEncoding.EncodeToString(b), nil
	}
	s, err := str(v, "a base64 string")
	if err != nil {
		return "", err
	}
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil {
		return "", fmt.Errorf("%q is not standard padded base64: %w", s, ErrInvalidValue)
	}
	return base64.StdEncoding.EncodeToString(b), nil
}

// encodeInt writes an integral number in decimal after checking that it
// fits the integer type named kind (signed or not, of the given bit size).
func encodeInt(kind string, v any, signed bool, bits int) (string, error) {
	text, err := integerText(v)
	if err != nil {
		return "", err
	}
	if signed {
		if _, err := strconv.ParseInt(text, 10, bits); err != nil {
			lo, hi := int64(-1)<<(bits-1), int64(uint64(1)<<(bits-1)-1)
			return "", fmt.Errorf("%s is out of range for %s (%d to %d): %w", text, kind, lo, hi, ErrInvalidValue)
		}
		return text, nil
	}
	if _, err := strconv.ParseUint(text, 10, bits); err != nil {
		return "", fmt.Errorf("%s is out of range for %s (0 to %d): %w", text, kind, uint64(math.MaxUint64)>>(64-bits), ErrInvalidValue)
	}
	return text, nil
}

// integerText returns the decimal digits (with "-" if negative) of an
// integral number given as json.Number or a Go number.
func integerText(v any) (string, error) {
	if n, ok := v.(json.Number); ok {
		return jsonIntegerText(string(n))
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return "", typeErr("an integer", v)
	}
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(rv.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(rv.Uint(), 10), nil
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
			return "", fmt.Errorf("%v is not an integer: %w", f, ErrInvalidValue)
		}
		if f == 0 {
			return "0", nil // also for -0
		}
		// Precision 0, not -1: -1 gives the shortest text that reads back
		// as f, padded with zeros (2^56+2 would print as ...930, not ...928).
		return strconv.FormatFloat(f, 'f', 0, 64), nil
	}
	return "", typeErr("an integer", v)
}

// maxIntDigits bounds the integers integerText writes: 10^20 exceeds every
// 64-bit integer, so longer numbers are out of range for any flag.
const maxIntDigits = 20

// jsonIntegerText returns the decimal integer that the JSON number s
// denotes, exactly ("1.5e3" gives "1500"), or an error if s is not a JSON
// number, not integral, or beyond 64-bit range. It works on the digits, so a
// huge exponent costs nothing.
func jsonIntegerText(s string) (string, error) {
	neg, intPart, frac, exp, ok := splitJSONNumber(s)
	if !ok {
		return "", fmt.Errorf("%q is not a number: %w", s, ErrInvalidValue)
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		return "0", nil
	}
	trimmed := strings.TrimRight(digits, "0")
	// value = trimmed × 10^scale
	e, err := strconv.ParseInt(exp, 10, 32)
	if err != nil { // exponent beyond ±2^31: too large, or a fraction
		if strings.HasPrefix(exp, "-") {
			return "", fmt.Errorf("%s is not an integer: %w", s, ErrInvalidValue)
		}
		return "", fmt.Errorf("%s is out of range for a 64-bit integer: %w", s, ErrInvalidValue)
	}
	scale := e - int64(len(frac)) + int64(len(digits)-len(trimmed))
	if scale < 0 {
		return "", fmt.Errorf("%s is not an integer: %w", s, ErrInvalidValue)
	}
	if int64(len(trimmed))+scale > maxIntDigits {
		return "", fmt.Errorf("%s is out of range for a 64-bit integer: %w", s, ErrInvalidValue)
	}
	text := trimmed + strings.Repeat("0", int(scale))
	if neg {
		text = "-" + text
	}
	return text, nil
}

// splitJSONNumber splits a JSON number (RFC 8259 grammar) into its sign,
// integer digits, fraction digits and exponent (with sign, "0" if none).
func splitJSONNumber(s string) (neg bool, intPart, frac, exp string, ok bool) {
	i := 0
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	start := i
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	default:
		return false, "", "", "", false
	}
	intPart = s[start:i]
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == start {
			return false, "", "", "", false
		}
		frac = s[start:i]
	}
	exp = "0"
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		start = i
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		digitsAt := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == digitsAt {
			return false, "", "", "", false
		}
		exp = strings.TrimPrefix(s[start:i], "+")
	}
	return neg, intPart, frac, exp, i == len(s)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// encodeFloat writes the shortest text that parses back, at the given bit
// size, to the float the value denotes: a json.Number or Go integer
// rounded as strconv.ParseFloat rounds its text, a Go float converted (a
// float64 rounded to float32 for a float32 flag). NaN and ±Inf, which JSON
// cannot hold, are written as "NaN" and "±Inf", which pflag reads.
func encodeFloat(v any, bits int) (string, error) {
	var f float64
	rv := reflect.ValueOf(v)
	switch {
	case !rv.IsValid():
		return "", typeErr("a number", v)
	case rv.Kind() == reflect.Float32 || rv.Kind() == reflect.Float64:
		f = rv.Float()
		if bits == 32 {
			f32 := float32(f)
			if math.IsInf(float64(f32), 0) && !math.IsInf(f, 0) {
				return "", fmt.Errorf("%v is out of range for float32: %w", f, ErrInvalidValue)
			}
			f = float64(f32)
		}
	default:
		var text string
		switch rv.Kind() {
		case reflect.String:
			n, ok := v.(json.Number)
			if !ok {
				return "", typeErr("a number", v)
			}
			if _, _, _, _, ok := splitJSONNumber(string(n)); !ok {
				return "", fmt.Errorf("%q is not a number: %w", string(n), ErrInvalidValue)
			}
			text = string(n)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			text = strconv.FormatInt(rv.Int(), 10)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			text = strconv.FormatUint(rv.Uint(), 10)
		default:
			return "", typeErr("a number", v)
		}
		var err error
		f, err = strconv.ParseFloat(text, bits)
		if err != nil {
			return "", fmt.Errorf("%s is out of range for float%d: %w", text, bits, ErrInvalidValue)
		}
	}
	return strconv.FormatFloat(f, 'g', -1, bits), nil
}

// writeCSVList writes the elements as one CSV record that pflag's
// stringSlice reads back as exactly those elements.
func writeCSVList(k *Kind, _ string, v any) ([]string, error) {
	elems, err := elements(v)
	if err != nil {
		return nil, err
	}
	fields := make([]string, len(elems))
	for i, e := range elems {
		s, err := str(e, "a string")
		if err != nil {
			return nil, elemErr(i, err)
		}
		fields[i] = s
	}
	text := csvRecord(fields)
	if plainList(fields) {
		return []string{text}, nil
	}
	got, err := readStringSlice(text)
	if err != nil || !slices.Equal(got, fields) {
		return nil, fmt.Errorf("an element holding \"\\r\\n\" (pflag's CSV reader reads it as \"\\n\"): %w", ErrUnrepresentable)
	}
	if err := checkListReadBack(k, []string{text}, fields); err != nil {
		return nil, err
	}
	return []string{text}, nil
}

// plainList reports whether pflag reads the list back exactly whatever
// the reading, so that the read-back (a pflag flag set made, set and read
// per value, with a CSV writer and reader of 4 KB buffers each) can be
// skipped: one element or more, none empty, none holding a comma, a quote,
// CR or LF. Such elements are written as they are, split as they are by
// pflag's CSV reader, and quoted by its CSV writer only where they read
// back the same (a leading space, `\.`).
func plainList(elems []string) bool {
	if len(elems) == 0 {
		return false
	}
	for _, e := range elems {
		if e == "" || strings.ContainsAny(e, ",\"\r\n") {
			return false
		}
	}
	return true
}

// csvRecord writes fields as one CSV record (no line end), quoting a field
// that holds a comma, a quote, CR or LF, and a lone empty field (which
// unquoted would be the empty list).
func csvRecord(fields []string) string {
	var b strings.Builder
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		if strings.ContainsAny(f, ",\"\r\n") || f == "" && len(fields) == 1 {
			b.WriteByte('"')
			b.WriteString(strings.ReplaceAll(f, `"`, `""`))
			b.WriteByte('"')
		} else {
			b.WriteString(f)
		}
	}
	return b.String()
}

// readStringSlice parses text with the real stringSlice flag.
func readStringSlice(text string) ([]string, error) {
	fs := pflag.NewFlagSet("verify", pflag.ContinueOnError)
	p := fs.StringSlice("v", nil, "")
	if err := fs.Set("v", text); err != nil {
		return nil, err
	}
	return *p, nil
}

// writeStringMap writes the pairs, keys sorted, in the form pflag's
// stringToString reads back as exactly that map.
//
// pflag reads a value with exactly one "=" as a single pair, after trimming
// quotes from both ends; a value with more "=" as one CSV record of pairs.
func writeStringMap(kind *Kind, _ string, v any) ([]string, error) {
	m, err := entries(v)
	if err != nil {
		return nil, err
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("an empty map (the flag parses at least one key=value): %w", ErrUnrepresentable)
	}
	pairs := make([]string, 0, len(m))
	want := make(map[string]string, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		s, err := str(m[k], "a string")
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", k, err)
		}
		if strings.Contains(k, "=") {
			return nil, fmt.Errorf("key %q holds \"=\", which ends a key: %w", k, ErrUnrepresentable)
		}
		pairs = append(pairs, k+"="+s)
		want[k] = s
	}
	var text string
	switch {
	case len(pairs) == 1 && strings.Count(pairs[0], "=") == 1 &&
		!strings.HasPrefix(pairs[0], `"`) && !strings.HasSuffix(pairs[0], `"`):
		text = pairs[0] // the single-pair form: read verbatim
	case len(pairs) == 1 && strings.Count(pairs[0], "=") == 1:
		// A quote at either end would be trimmed in the single-pair form;
		// the pair twice has two "=" and is read as CSV, giving one key.
		text = csvRecord([]string{pairs[0], pairs[0]})
	default:
		text = csvRecord(pairs)
	}
	got, err := readStringToString(text)
	if err != nil || !maps.Equal(got, want) {
		return nil, fmt.Errorf("a key or value holding \"\\r\\n\" (pflag's CSV reader reads it as \"\\n\"): %w", ErrUnrepresentable)
	}
	if err := checkMapReadBack(kind, text, want); err != nil {
		return nil, err
	}
	return []string{text}, nil
}

// readStringToString parses text with the real stringToString flag.
func readStringToString(text string) (map[string]string, error) {
	fs := pflag.NewFlagSet("verify", pflag.ContinueOnError)
	p := fs.StringToString("v", nil, "")
	if err := fs.Set("v", text); err != nil {
		return nil, err
	}
	return *p, nil
}

// writeIntMap writes "k1=1,k2=2", keys sorted; pflag splits on "," and
// then on the first "=", so a key can hold neither.
func writeIntMap(kind *Kind, _ string, v any) ([]string, error) {
	m, err := entries(v)
	if err != nil {
		return nil, err
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("an empty map (the flag parses at least one key=value): %w", ErrUnrepresentable)
	}
	elem := kind.elemKind()
	var b strings.Builder
	want := make(map[string]string, len(m))
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if strings.ContainsAny(k, ",=") {
			return nil, fmt.Errorf("key %q holds \",\" or \"=\", which end a key: %w", k, ErrUnrepresentable)
		}
		if strings.HasPrefix(k, "[") || strings.HasPrefix(k, "]") {
			// The printed value is "[k=1,...]" with the keys in map order,
			// and the getter trims every "[" and "]" from both ends.
			return nil, fmt.Errorf("key %q begins with %q, which pflag's %s trims when the key is printed first: %w", k, k[:1], getterName(kind.name), ErrUnrepresentable)
		}
		n, err := elem.format(m[k])
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", k, err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(n)
		want[k] = n // canonical: as the getter's value prints
	}
	text := b.String()
	if err := checkMapReadBack(kind, text, want); err != nil {
		return nil, err
	}
	return []string{text}, nil
}

// compactJSON encodes v as compact JSON without HTML escaping.
func compactJSON(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", fmt.Errorf("cannot encode as JSON: %v: %w", err, ErrInvalidValue)
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

// elements returns the elements of a JSON array ([]any) or any Go slice or
// array (but not a string).
func elements(v any) ([]any, error) {
	if l, ok := v.([]any); ok {
		return l, nil
	}
	if l, ok := v.([]string); ok {
		out := make([]any, len(l))
		for i, s := range l {
			out[i] = s
		}
		return out, nil
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return nil, typeErr("an array", v)
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out, nil
}

// entries returns the entries of a JSON object (map[string]any) or any Go
// map with string keys.
func entries(v any) (map[string]any, error) {
	if m, ok := v.(map[string]any); ok {
		return m, nil
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.Kind() != reflect.Map || rv.Type().Key().Kind() != reflect.String {
		return nil, typeErr("an object", v)
	}
	out := make(map[string]any, rv.Len())
	for it := rv.MapRange(); it.Next(); {
		out[it.Key().String()] = it.Value().Interface()
	}
	return out, nil
}

// str returns v if it is a string (or a Go type whose kind is string, other
// than json.Number).
func str(v any, want string) (string, error) {
	switch s := v.(type) {
	case string:
		return s, nil
	case json.Number:
		return "", typeErr(want, v)
	}
	rv := reflect.ValueOf(v)
	if rv.IsValid() && rv.Kind() == reflect.String {
		return rv.String(), nil
	}
	return "", typeErr(want, v)
}

// typeErr reports a value of the wrong JSON type.
func typeErr(want string, got any) error {
	return fmt.Errorf("want %s, got %s: %w", want, valueType(got), ErrInvalidValue)
}

func elemErr(i int, err error) error {
	return fmt.Errorf("element %d: %w", i, err)
}

// valueType names the JSON type of a decoded value (or the Go type of
// another value).
func valueType(v any) string {
	if t := jsonvalue.Type(v); t != "" {
		return t
	}
	return fmt.Sprintf("%T", v)
}
