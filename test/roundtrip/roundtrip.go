// Package roundtrip runs an argv through the real cobra and pflag parsers
// and reports what the command saw, so that tests can prove that the argv
// cobramcp builds parses back to exactly the values that were asked for.
//
//	root := mycli.New()                         // a fresh tree per call
//	leaf, _, _ := root.Find([]string{"greet"})
//	want, _ := roundtrip.Want(leaf.Flags(), flags)
//	line := exec.CommandLine{Name: "mycli greet", Path: []string{"greet"}, Flags: leaf.Flags()}
//	argv, _ := line.Argv(flags, args, nil)
//	got, err := roundtrip.Execute(root, argv)
//	if d := roundtrip.Diff(want, got.Flags); d != "" { ... }
//
// [Want] computes the expected typed values straight from the JSON values,
// without going through a command line, so it checks exec.CommandLine rather than
// repeating it.
package roundtrip

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"net"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/internal/flagschema"
)

// Result is what the command that ran saw.
type Result struct {
	// Command is the command that ran.
	Command *cobra.Command
	// Flags holds the typed values of the flags whose Changed is set (see
	// [Values]).
	Flags map[string]any
	// Getters holds the same flags as pflag's getters return them (see
	// [GetterValues]): what a command that reads its flags with
	// GetStringToString, GetStringSlice, ... sees.
	Getters map[string]any
	// Args holds the positional arguments.
	Args []string
	// ArgsLenAtDash is cmd.ArgsLenAtDash().
	ArgsLenAtDash int
}

// Execute runs root on args (the sub-command path, then an argv) the way
// the real program would, except that the Run functions and the pre- and
// post-run hooks of every runnable command are replaced by one that records
// what the command saw. It changes the tree (hooks, output writers, args):
// call it on a fresh tree. Cobra's argument validators (Args) still run.
func Execute(root *cobra.Command, args []string) (*Result, error) {
	var res *Result
	record := func(cmd *cobra.Command, a []string) error {
		res = &Result{
			Command:       cmd,
			Flags:         Values(cmd.Flags()),
			Getters:       GetterValues(cmd.Flags()),
			Args:          append([]string{}, a...),
			ArgsLenAtDash: cmd.ArgsLenAtDash(),
		}
		return nil
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.PersistentPreRun, c.PersistentPreRunE = nil, nil
		c.PersistentPostRun, c.PersistentPostRunE = nil, nil
		c.PreRun, c.PreRunE, c.PostRun, c.PostRunE = nil, nil, nil, nil
		if c.Runnable() {
			c.Run, c.RunE = nil, record
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	var errOut bytes.Buffer
	root.SetOut(io.Discard)
	root.SetErr(&errOut)
	root.SetArgs(args)
	root.SilenceUsage = true
	if _, err := root.ExecuteC(); err != nil {
		return nil, fmt.Errorf("execute %q: %w", args, err)
	}
	if res == nil {
		return nil, errors.New("execute: no command ran")
	}
	return res, nil
}

// Values returns the values of the flags in fs whose Changed is set, keyed by
// flag name and typed as their getter returns them (int8, []string, net.IP,
// map[string]int64, ...); a flag of a custom type gives Value.String().
// Where pflag's getter goes through Value.String() and loses information
// (the string slices, the float slices and the string maps),
// the value is read without it, as the variable bound to the flag holds it. func and boolfunc flags have no value and are left out.
func Values(fs *pflag.FlagSet) map[string]any {
	out := map[string]any{}
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Changed {
			return
		}
		if v, ok := value(fs, f); ok {
			out[f.Name] = v
		}
	})
	return out
}

func value(fs *pflag.FlagSet, f *pflag.Flag) (any, bool) {
	n := f.Name
	var v any
	var err error
	switch f.Value.Type() {
	case "func", "boolfunc":
		return nil, false
	case "bool":
		v, err = fs.GetBool(n)
	case "string":
		v, err = fs.GetString(n)
	case "int":
		v, err = fs.GetInt(n)
	case "int8":
		v, err = fs.GetInt8(n)
	case "int16":
		v, err = fs.GetInt16(n)
	case "int32":
		v, err = fs.GetInt32(n)
	case "int64":
		v, err = fs.GetInt64(n)
	case "uint":
		v, err = fs.GetUint(n)
	case "uint8":
		v, err = fs.GetUint8(n)
	case "uint16":
		v, err = fs.GetUint16(n)
	case "uint32":
		v, err = fs.GetUint32(n)
	case "uint64":
		v, err = fs.GetUint64(n)
	case "count":
		v, err = fs.GetCount(n)
	case "float32":
		v, err = fs.GetFloat32(n)
	case "float64":
		v, err = fs.GetFloat64(n)
	case "duration":
		v, err = fs.GetDuration(n)
	case "ip":
		v, err = fs.GetIP(n)
	case "ipMask":
		v, err = fs.GetIPv4Mask(n)
	case "ipNet":
		v, err = fs.GetIPNet(n)
	case "bytesHex":
		v, err = fs.GetBytesHex(n)
	case "bytesBase64":
		v, err = fs.GetBytesBase64(n)
	case "stringSlice", "stringArray":
		v = f.Value.(pflag.SliceValue).GetSlice()
	case "intSlice":
		v, err = fs.GetIntSlice(n)
	case "int32Slice":
		v, err = fs.GetInt32Slice(n)
	case "int64Slice":
		v, err = fs.GetInt64Slice(n)
	case "uintSlice":
		v, err = fs.GetUintSlice(n)
	case "float32Slice":
		fl := floatSlice(f.Value)
		out := make([]float32, len(fl))
		for i, x := range fl {
			out[i] = float32(x)
		}
		v = out
	case "float64Slice":
		v = floatSlice(f.Value)
	case "boolSlice":
		v, err = fs.GetBoolSlice(n)
	case "durationSlice":
		v, err = fs.GetDurationSlice(n)
	case "ipSlice":
		v, err = fs.GetIPSlice(n)
	case "ipNetSlice":
		v, err = fs.GetIPNetSlice(n)
	case "stringToString":
		v = strMap(f.Value)
	case "stringToInt":
		m := map[string]int{}
		for k, x := range intMap(f.Value) {
			m[k] = int(x)
		}
		v = m
	case "stringToInt64":
		v = intMap(f.Value)
	default:
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			v = sv.GetSlice() // a custom value that accumulates
		} else {
			v = f.Value.String()
		}
	}
	if err != nil {
		return fmt.Sprintf("getter error: %v", err), true
	}
	return v, true
}

// GetterValues is [Values] as pflag's getters return the values: for the
// types whose getter parses Value.String() again (the string and float
// lists, the string maps), the getter's result, which can differ from the
// value that Set stored; for every other flag what Values returns.
func GetterValues(fs *pflag.FlagSet) map[string]any {
	out := Values(fs)
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Changed {
			return
		}
		var v any
		var err error
		switch n := f.Name; f.Value.Type() {
		case "stringSlice":
			v, err = fs.GetStringSlice(n)
		case "stringArray":
			v, err = fs.GetStringArray(n)
		case "float32Slice":
			v, err = fs.GetFloat32Slice(n)
		case "float64Slice":
			v, err = fs.GetFloat64Slice(n)
		case "stringToString":
			v, err = fs.GetStringToString(n)
		case "stringToInt":
			v, err = fs.GetStringToInt(n)
		case "stringToInt64":
			v, err = fs.GetStringToInt64(n)
		default:
			return
		}
		if err != nil {
			v = fmt.Sprintf("getter error: %v", err)
		}
		out[f.Name] = v
	})
	return out
}

// floatSlice reads the slice behind a float32Slice or float64Slice value.
// pflag's getters re-parse Value.String(), which writes six decimals.
func floatSlice(v pflag.Value) []float64 {
	s := reflect.ValueOf(v).Elem().FieldByName("value").Elem()
	out := make([]float64, s.Len())
	for i := range out {
		out[i] = s.Index(i).Float()
	}
	return out
}

// intMap reads the map behind a stringToInt or stringToInt64 value.
// pflag's getters re-parse Value.String(), which breaks on keys holding
// "[", "]" or ",".
func intMap(v pflag.Value) map[string]int64 {
	m := reflect.ValueOf(v).Elem().FieldByName("value").Elem()
	out := make(map[string]int64, m.Len())
	for it := m.MapRange(); it.Next(); {
		out[it.Key().String()] = it.Value().Int()
	}
	return out
}

// strMap reads the map behind a stringToString value. Before pflag v1.1.0,
// GetStringToString re-parses Value.String(), which trims the spaces at
// both ends of the text and turns "\r\n" into "\n" inside values.
func strMap(v pflag.Value) map[string]string {
	m := reflect.ValueOf(v).Elem().FieldByName("value").Elem()
	out := make(map[string]string, m.Len())
	for it := m.MapRange(); it.Next(); {
		out[it.Key().String()] = it.Value().String()
	}
	return out
}

// JSONText is the value [Want] expects for a flag that receives a JSON
// value as its compact JSON text: [Diff] decodes the flag's string and
// compares it with Value.
type JSONText struct{ Value any }

// Want returns the typed values that the JSON values in flags should parse
// to in fs, keyed by canonical flag name, in the form [Values] returns. A
// nil value is left out. A flag annotated with "jsonschema" whose type is
// string or custom expects a JSON string as is and any other value as
// [JSONText]. The error reports a value that does not fit its flag.
func Want(fs *pflag.FlagSet, flags map[string]any) (map[string]any, error) {
	out := map[string]any{}
	for name, v := range flags {
		if v == nil {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			return nil, fmt.Errorf("no flag %q", name)
		}
		w, err := want(f, v)
		if err != nil {
			return nil, fmt.Errorf("flag %q: %w", name, err)
		}
		if w != nil {
			out[f.Name] = w
		}
	}
	return out, nil
}

func want(f *pflag.Flag, v any) (any, error) {
	kind := f.Value.Type()
	if annotated(f) && (kind == "string" || !builtin(kind)) {
		if s, ok := v.(string); ok {
			return s, nil
		}
		return JSONText{v}, nil
	}
	if flagschema.Repeatable(f) {
		return typedList[string](v, "string")
	}
	switch kind {
	case "func", "boolfunc":
		return nil, nil
	case "stringSlice", "stringArray":
		return typedList[string](v, "string")
	case "intSlice":
		return typedList[int](v, "int")
	case "int32Slice":
		return typedList[int32](v, "int32")
	case "int64Slice":
		return typedList[int64](v, "int64")
	case "uintSlice":
		return typedList[uint](v, "uint")
	case "float32Slice":
		return typedList[float32](v, "float32")
	case "float64Slice":
		return typedList[float64](v, "float64")
	case "boolSlice":
		return typedList[bool](v, "bool")
	case "durationSlice":
		return typedList[time.Duration](v, "duration")
	case "ipSlice":
		return typedList[net.IP](v, "ip")
	case "ipNetSlice":
		return typedList[net.IPNet](v, "ipNet")
	case "stringToString":
		return typedMap[string](v, "string")
	case "stringToInt":
		return typedMap[int](v, "int")
	case "stringToInt64":
		return typedMap[int64](v, "int64")
	}
	return scalar(kind, v)
}

func typedList[T any](v any, kind string) ([]T, error) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return nil, fmt.Errorf("not an array: %T", v)
	}
	out := make([]T, rv.Len())
	for i := range out {
		x, err := scalar(kind, rv.Index(i).Interface())
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", i, err)
		}
		out[i] = x.(T)
	}
	return out, nil
}

func typedMap[T any](v any, kind string) (map[string]T, error) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.Kind() != reflect.Map || rv.Type().Key().Kind() != reflect.String {
		return nil, fmt.Errorf("not an object: %T", v)
	}
	out := make(map[string]T, rv.Len())
	for it := rv.MapRange(); it.Next(); {
		x, err := scalar(kind, it.Value().Interface())
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", it.Key().String(), err)
		}
		out[it.Key().String()] = x.(T)
	}
	return out, nil
}

var bits = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"int": strconv.IntSize, "int8": 8, "int16": 16, "int32": 32, "int64": 64, "count": strconv.IntSize,
		"uint": strconv.IntSize, "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64,
	}
})

func scalar(kind string, v any) (any, error) {
	switch kind {
	case "bool":
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("not a bool: %T", v)
		}
		return b, nil
	case "int", "int8", "int16", "int32", "int64", "count", "uint", "uint8", "uint16", "uint32", "uint64":
		r, err := rat(v)
		if err != nil {
			return nil, err
		}
		if !r.IsInt() {
			return nil, fmt.Errorf("%s is not an integer", r)
		}
		n := r.Num()
		b := bits()[kind]
		if strings.HasPrefix(kind, "uint") {
			if n.Sign() < 0 || n.BitLen() > b {
				return nil, fmt.Errorf("%s out of range", n)
			}
			u := n.Uint64()
			return reflect.ValueOf(u).Convert(goType()[kind]).Interface(), nil
		}
		lo := new(big.Int).Lsh(big.NewInt(-1), uint(b-1))
		hi := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(b-1)), big.NewInt(1))
		if n.Cmp(lo) < 0 || n.Cmp(hi) > 0 {
			return nil, fmt.Errorf("%s out of range", n)
		}
		return reflect.ValueOf(n.Int64()).Convert(goType()[kind]).Interface(), nil
	case "float32", "float64":
		var f float64
		switch x := v.(type) {
		case float64:
			f = x
		case float32:
			f = float64(x)
		default:
			var text string
			if n, ok := v.(json.Number); ok {
				text = string(n)
			} else {
				r, err := rat(v)
				if err != nil {
					return nil, err
				}
				text = r.RatString()
			}
			b := 64
			if kind == "float32" {
				b = 32
			}
			var err error
			if f, err = strconv.ParseFloat(text, b); err != nil {
				return nil, err
			}
		}
		if kind == "float32" {
			return float32(f), nil
		}
		return f, nil
	case "duration":
		if d, ok := v.(time.Duration); ok {
			return d, nil
		}
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("not a string: %T", v)
		}
		return time.ParseDuration(s)
	}
	if b, ok := v.([]byte); ok {
		switch kind {
		case "bytesHex", "bytesBase64":
			return b, nil
		}
	}
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("not a string: %T", v)
	}
	switch kind {
	case "ip":
		ip := net.ParseIP(strings.TrimSpace(s))
		if ip == nil {
			return nil, fmt.Errorf("bad IP %q", s)
		}
		return ip, nil
	case "ipMask":
		m := pflag.ParseIPv4Mask(s)
		if m == nil {
			return nil, fmt.Errorf("bad mask %q", s)
		}
		return m, nil
	case "ipNet":
		_, n, err := net.ParseCIDR(strings.TrimSpace(s))
		if err != nil {
			return nil, err
		}
		return *n, nil
	case "bytesHex":
		return hex.DecodeString(strings.TrimSpace(s))
	case "bytesBase64":
		return base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	}
	return s, nil
}

var goType = sync.OnceValue(func() map[string]reflect.Type {
	return map[string]reflect.Type{
		"int": reflect.TypeFor[int](), "int8": reflect.TypeFor[int8](), "int16": reflect.TypeFor[int16](),
		"int32": reflect.TypeFor[int32](), "int64": reflect.TypeFor[int64](), "count": reflect.TypeFor[int](),
		"uint": reflect.TypeFor[uint](), "uint8": reflect.TypeFor[uint8](), "uint16": reflect.TypeFor[uint16](),
		"uint32": reflect.TypeFor[uint32](), "uint64": reflect.TypeFor[uint64](),
	}
})

// rat returns the exact value of a JSON or Go number.
func rat(v any) (*big.Rat, error) {
	switch x := v.(type) {
	case json.Number:
		r, ok := new(big.Rat).SetString(string(x))
		if !ok || strings.ContainsAny(string(x), "/xXoObB_") {
			return nil, fmt.Errorf("bad number %q", string(x))
		}
		return r, nil
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return nil, errors.New("null")
	}
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return new(big.Rat).SetInt64(rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return new(big.Rat).SetInt(new(big.Int).SetUint64(rv.Uint())), nil
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%v is not finite", f)
		}
		return new(big.Rat).SetFloat64(f), nil
	}
	return nil, fmt.Errorf("not a number: %T", v)
}

func builtin(kind string) bool {
	switch kind {
	case "bool", "boolfunc", "string", "func", "count",
		"int", "int8", "int16", "int32", "int64",
		"uint", "uint8", "uint16", "uint32", "uint64",
		"float32", "float64", "duration", "ip", "ipMask", "ipNet", "bytesHex", "bytesBase64",
		"stringSlice", "stringArray", "intSlice", "int32Slice", "int64Slice", "uintSlice",
		"float32Slice", "float64Slice", "boolSlice", "durationSlice", "ipSlice", "ipNetSlice",
		"stringToString", "stringToInt", "stringToInt64":
		return true
	}
	return false
}

// Diff returns "" if got holds exactly the flags of want with equal values,
// else a description of every difference. Floats compare bit for bit (NaN
// equals NaN); byte slices and IPs compare by content; a [JSONText] want
// compares with got decoded as JSON.
func Diff(want, got map[string]any) string {
	var diffs []string
	for name, w := range want {
		g, ok := got[name]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("--%s: not set (Changed is false), want %#v", name, w))
			continue
		}
		if !equal(w, g) {
			diffs = append(diffs, fmt.Sprintf("--%s: got %#v, want %#v", name, g, w))
		}
	}
	for name, g := range got {
		if _, ok := want[name]; !ok {
			diffs = append(diffs, fmt.Sprintf("--%s: set to %#v, want not set", name, g))
		}
	}
	sort.Strings(diffs)
	return strings.Join(diffs, "\n")
}

func equal(w, g any) bool {
	if j, ok := w.(JSONText); ok {
		s, ok := g.(string)
		if !ok {
			return false
		}
		return jsonEqual(j.Value, s)
	}
	return deepEqual(reflect.ValueOf(w), reflect.ValueOf(g))
}

func jsonEqual(v any, text string) bool {
	raw, err := json.Marshal(v)
	if err != nil {
		return false
	}
	var a, b any
	da := json.NewDecoder(bytes.NewReader(raw))
	da.UseNumber()
	db := json.NewDecoder(strings.NewReader(text))
	db.UseNumber()
	if da.Decode(&a) != nil || db.Decode(&b) != nil || db.More() {
		return false
	}
	return reflect.DeepEqual(a, b)
}

func deepEqual(a, b reflect.Value) bool {
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		if math.IsNaN(x) || math.IsNaN(y) {
			return math.IsNaN(x) && math.IsNaN(y)
		}
		return math.Float64bits(x) == math.Float64bits(y)
	case reflect.Slice:
		if a.Type().Elem().Kind() == reflect.Uint8 {
			return bytes.Equal(a.Bytes(), b.Bytes())
		}
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !deepEqual(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for it := a.MapRange(); it.Next(); {
			bv := b.MapIndex(it.Key())
			if !bv.IsValid() || !deepEqual(it.Value(), bv) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !deepEqual(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// annotated applies flagschema.Annotated's rule: a non-empty "jsonschema"
// annotation.
func annotated(f *pflag.Flag) bool {
	for _, v := range f.Annotations["jsonschema"] {
		if strings.TrimSpace(v) != "" {
			return true
		}
	}
	return false
}
