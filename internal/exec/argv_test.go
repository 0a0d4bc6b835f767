package exec_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/cobramcp/cobramcp/internal/exec"
	"github.com/cobramcp/cobramcp/internal/flagschema"
	"github.com/cobramcp/cobramcp/test/roundtrip"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// level is a custom pflag.Value: its value is the last string given.
type level struct{ s string }

func (l *level) String() string     { return l.s }
func (l *level) Set(s string) error { l.s = s; return nil }
func (l *level) Type() string       { return "level" }

// tree is a fresh command tree: root with a persistent count flag and the
// leaf "run" holding a flag of every pflag type, each with a default that
// is not the zero value (so a test sees that the first value replaces it).
type tree struct {
	root, leaf *cobra.Command
	hooks      []string // values given to --hook (a func flag)
	traces     []string // values given to --trace (a boolfunc flag)
}

func newTree() *tree {
	t := &tree{}
	t.root = &cobra.Command{Use: "app"}
	t.root.PersistentFlags().Count("verbose", "a persistent count flag")
	t.leaf = &cobra.Command{Use: "run", Args: cobra.ArbitraryArgs, RunE: func(*cobra.Command, []string) error { return nil }}
	t.root.AddCommand(t.leaf)
	fs := t.leaf.Flags()
	fs.BoolP("bool", "b", true, "")
	fs.StringP("string", "s", "def", "")
	fs.String("secret", "", "a flag the tests never ask for")
	fs.Int("int", 7, "")
	fs.Int8("int8", 7, "")
	fs.Int16("int16", 7, "")
	fs.Int32("int32", 7, "")
	fs.Int64("int64", 7, "")
	fs.Uint("uint", 7, "")
	fs.Uint8("uint8", 7, "")
	fs.Uint16("uint16", 7, "")
	fs.Uint32("uint32", 7, "")
	fs.Uint64("uint64", 7, "")
	fs.Float32("float32", 1.5, "")
	fs.Float64("float64", 1.5, "")
	fs.CountP("count", "c", "")
	fs.Duration("duration", time.Second, "")
	fs.IP("ip", net.IPv4(127, 0, 0, 1), "")
	fs.IPMask("ipMask", net.CIDRMask(8, 32), "")
	fs.IPNet("ipNet", net.IPNet{IP: net.IPv4(10, 0, 0, 0).To4(), Mask: net.CIDRMask(8, 32)}, "")
	fs.BytesHex("bytesHex", []byte{0xab}, "")
	fs.BytesBase64("bytesBase64", []byte("hi"), "")
	fs.StringSlice("stringSlice", []string{"d1", "d2"}, "")
	fs.StringArray("stringArray", []string{"d1", "d2"}, "")
	fs.IntSlice("intSlice", []int{9}, "")
	fs.Int32Slice("int32Slice", []int32{9}, "")
	fs.Int64Slice("int64Slice", []int64{9}, "")
	fs.UintSlice("uintSlice", []uint{9}, "")
	fs.Float32Slice("float32Slice", []float32{9}, "")
	fs.Float64Slice("float64Slice", []float64{9}, "")
	fs.BoolSlice("boolSlice", []bool{true}, "")
	fs.DurationSlice("durationSlice", []time.Duration{time.Hour}, "")
	fs.IPSlice("ipSlice", []net.IP{net.IPv4(1, 1, 1, 1)}, "")
	fs.IPNetSlice("ipNetSlice", []net.IPNet{{IP: net.IPv4(10, 0, 0, 0).To4(), Mask: net.CIDRMask(8, 32)}}, "")
	fs.StringToString("stringToString", map[string]string{"dk": "dv"}, "")
	fs.StringToInt("stringToInt", map[string]int{"dk": 1}, "")
	fs.StringToInt64("stringToInt64", map[string]int64{"dk": 1}, "")
	fs.Var(&level{s: "info"}, "custom", "a custom pflag.Value")
	fs.String("json", "", "an annotated string flag")
	annotate(fs, "json", `{"type": "object"}`)
	fs.Var(&level{}, "jsoncustom", "an annotated custom flag")
	annotate(fs, "jsoncustom", `{"type": ["object", "array", "number", "boolean"]}`)
	fs.Int("limit", 0, "an annotated int flag")
	annotate(fs, "limit", `{"type": "integer", "minimum": 1}`)
	fs.Func("hook", "a func flag", func(s string) error { t.hooks = append(t.hooks, s); return nil })
	fs.BoolFunc("trace", "a boolfunc flag", func(s string) error { t.traces = append(t.traces, s); return nil })
	t.leaf.InheritedFlags() // merge the root's persistent flags into leaf.Flags()
	return t
}

func annotate(fs *pflag.FlagSet, name, schema string) {
	if err := fs.SetAnnotation(name, flagschema.Annotation, []string{schema}); err != nil {
		panic(err)
	}
}

// positional is the positional part of a call and how the command reads
// it: the fields of exec.CommandLine that place the args.
type positional struct {
	Args, AfterDash []string
	SubCommand      func(word string) bool
	StopsAtFirstArg bool
}

// argvOf is the argv that exec.CommandLine writes, after the command's
// path, for a command whose flags are fs, with the positional part p.
func argvOf(fs *pflag.FlagSet, flags map[string]any, p positional) ([]string, error) {
	l := exec.CommandLine{Name: "run", Flags: fs, SubCommand: p.SubCommand, StopsAtFirstArg: p.StopsAtFirstArg}
	return l.Argv(flags, p.Args, p.AfterDash)
}

// plainArgv is argvOf for a command without sub-commands and a call
// without words after "--".
func plainArgv(fs *pflag.FlagSet, flags map[string]any, args []string) ([]string, error) {
	return argvOf(fs, flags, positional{Args: args})
}

// roundTrip builds the argv for flags and args on a fresh tree, runs the
// real cobra command on it and fails t unless the command sees exactly the
// asked values (and Changed for exactly the asked flags), args and
// ArgsLenAtDash. It returns Argv's result; when Argv fails it runs nothing.
func roundTrip(t testing.TB, flags map[string]any, args []string) ([]string, error) {
	t.Helper()
	return roundTripP(t, flags, positional{Args: args})
}

// childName is the sub-command of "run" that roundTripP adds when asked,
// so that the args must go after "--".
const childName = "child"

// isChild is the Positional.SubCommand of "run" with the sub-command
// childName.
func isChild(w string) bool { return w == childName }

// anyWord is the Positional.SubCommand of a CLI whose matching is not
// known (read from outside, not asked): any word may name a sub-command.
func anyWord(string) bool { return true }

// roundTripP is roundTrip with args and args after "--"; when
// p.SubCommand is set, on a leaf that has the sub-command childName.
func roundTripP(t testing.TB, flags map[string]any, p positional) ([]string, error) {
	t.Helper()
	tr := newTree()
	if p.SubCommand != nil {
		tr.leaf.AddCommand(&cobra.Command{Use: childName, Run: func(*cobra.Command, []string) {}})
	}
	fs := tr.leaf.Flags()
	fs.SetInterspersed(!p.StopsAtFirstArg)
	argv, err := argvOf(fs, flags, p)
	if err != nil {
		return nil, err
	}
	want, werr := roundtrip.Want(fs, flags)
	if werr != nil {
		t.Fatalf("Argv accepted a value that does not fit its flag (%v): argv %q", werr, argv)
	}
	got, err := roundtrip.Execute(tr.root, append([]string{"run"}, argv...))
	if err != nil {
		t.Fatalf("argv %q does not parse: %v", argv, err)
	}
	if got.Command != tr.leaf {
		t.Fatalf("argv %q ran %q, want run", argv, got.Command.Name())
	}
	if d := roundtrip.Diff(want, got.Flags); d != "" {
		t.Fatalf("argv %q:\n%s", argv, d)
	}
	if d := roundtrip.Diff(want, got.Getters); d != "" {
		t.Fatalf("argv %q, read with pflag's getters:\n%s", argv, d)
	}
	all := slices.Clone(p.Args)
	if p.StopsAtFirstArg && len(p.Args) > 0 && len(p.AfterDash) > 0 {
		all = append(all, "--") // after the first arg, "--" is an arg
	}
	all = append(all, p.AfterDash...)
	if !slices.Equal(got.Args, all) || len(all) == 0 && len(got.Args) != 0 {
		t.Fatalf("argv %q: args %q, want %q", argv, got.Args, all)
	}
	if w := wantArgsLenAtDash(p); got.ArgsLenAtDash != w {
		t.Fatalf("argv %q: ArgsLenAtDash %d, want %d", argv, got.ArgsLenAtDash, w)
	}
	return argv, nil
}

// wantArgsLenAtDash is where "--" stands as a person would type the
// args: after the args when there are words for after it; before all of
// them when one begins with "-" (other than "-" alone) or the first word
// cobra looks up (not "" or "-") names a sub-command; nowhere otherwise. When the flags stop at the first arg, only the first arg can
// begin a flag, and a "--" after an arg is an arg that pflag does not
// record: with args, ArgsLenAtDash is 0 when the first needs "--", else
// -1.
func wantArgsLenAtDash(p positional) int {
	if len(p.AfterDash) > 0 && (!p.StopsAtFirstArg || len(p.Args) == 0) {
		return len(p.Args)
	}
	for i, a := range p.Args {
		if i > 0 && p.StopsAtFirstArg {
			break
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			return 0
		}
	}
	for _, a := range p.Args {
		if a != "" && a != "-" && p.SubCommand != nil {
			if p.SubCommand(a) {
				return 0
			}
			break
		}
	}
	return -1
}

// hostile holds strings that a naive argv builder gets wrong.
var hostile = []string{
	"", " ", "plain", "--x=y", "--secret=leak", "-n", "-", "--", "-b=false",
	",", ",,", "a,b", " a, b ", `"`, `""`, `"quoted"`, `a"b`, `"a,b"`, `'`, "`",
	"=", "a=b", "==", "k=v,k2=v2", `"k=v"`, "\n", "\r", "\r\n", "a\r\nb", "\t",
	"ünïcødé ✓ 日本語", "  leading", "trailing  ", `\`, `\"`, "[x]", "[]", "{}", "\xff\xfe",
	"run", "help", "--help", "-h", "+1",
	strings.Repeat("long,\"=\n", 100<<10/8),
}

// unrepresentable reports whether Argv may refuse the string s as an
// element of a stringSlice or as a key or value of a stringToString:
// pflag's CSV reader turns "\r\n" into "\n", and no argument holds a NUL.
func csvUnrepresentable(s string) bool {
	return strings.Contains(s, "\r\n") || strings.Contains(s, "\x00")
}

// An independent account of what pflag's getters (v1.0.x), which parse the
// flag's printed value again, lose. GetStringToString prints the pairs,
// keys sorted, as a CSV record (a field is quoted when it holds a comma, a
// quote, CR or LF, or begins with white space), trims the white space
// around it, and reads it back after trimming "[" and "]" from both ends.
func stringMapGetterLoses(m map[string]string) bool {
	if len(m) == 0 {
		return false
	}
	keys := slices.Sorted(maps.Keys(m))
	quoted := func(r string) bool {
		first, _ := utf8.DecodeRuneInString(r)
		return r == `\.` || strings.ContainsAny(r, ",\"\r\n") || unicode.IsSpace(first)
	}
	first := keys[0] + "=" + m[keys[0]]
	last := keys[len(keys)-1] + "=" + m[keys[len(keys)-1]]
	lastRune, _ := utf8.DecodeLastRuneInString(last)
	return !quoted(first) && strings.IndexAny(first[:1], "[]") == 0 ||
		!quoted(last) && (unicode.IsSpace(lastRune) || strings.IndexAny(last[len(last)-1:], "[]") == 0)
}

// intMapGetterLoses: GetStringToInt(64) prints "[k=1,...]" with the keys
// in map order and trims "[" and "]" from both ends.
func intMapGetterLoses(keys ...string) bool {
	for _, k := range keys {
		if strings.HasPrefix(k, "[") || strings.HasPrefix(k, "]") {
			return true
		}
	}
	return false
}

// floatGetterLoses: GetFloat64Slice and GetFloat32Slice read the elements
// back from six decimals ("%f").
func floatGetterLoses(x float64, bits int) bool {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return false
	}
	text := fmt.Sprintf("%f", x)
	if bits == 32 {
		text = fmt.Sprintf("%f", float32(x))
	}
	y, err := strconv.ParseFloat(text, bits)
	return err != nil || y != x
}

func TestArgvRoundTripHostileStrings(t *testing.T) {
	for _, h := range hostile {
		name := h
		if len(name) > 20 {
			name = name[:20]
		}
		cases := []struct {
			flags   map[string]any
			args    []string
			mayFail bool
		}{
			{flags: map[string]any{"string": h}},
			{flags: map[string]any{"custom": h}},
			{flags: map[string]any{"json": h}},
			{flags: map[string]any{"jsoncustom": h}},
			{flags: map[string]any{"stringArray": []any{h}}, mayFail: csvUnrepresentable(h) || h == ""},
			{flags: map[string]any{"stringArray": []any{h, "x", h}}, mayFail: csvUnrepresentable(h)},
			{flags: map[string]any{"stringSlice": []any{h}}, mayFail: csvUnrepresentable(h) || h == ""},
			{flags: map[string]any{"stringSlice": []any{h, h}}, mayFail: csvUnrepresentable(h)},
			{flags: map[string]any{"stringSlice": []any{"a", h, "b"}}, mayFail: csvUnrepresentable(h)},
			{flags: map[string]any{"stringToString": map[string]any{"k": h}}, mayFail: csvUnrepresentable(h) || stringMapGetterLoses(map[string]string{"k": h})},
			{flags: map[string]any{"stringToString": map[string]any{"k": h, "k2": h}}, mayFail: csvUnrepresentable(h) || stringMapGetterLoses(map[string]string{"k": h, "k2": h})},
			{flags: map[string]any{"stringToString": map[string]any{h: "v"}}, mayFail: csvUnrepresentable(h) || strings.Contains(h, "=") || stringMapGetterLoses(map[string]string{h: "v"})},
			{flags: map[string]any{"stringToInt": map[string]any{h: json.Number("-3")}}, mayFail: strings.ContainsAny(h, ",=") || intMapGetterLoses(h)},
			{flags: map[string]any{"stringToInt64": map[string]any{h: 3, "z": 4}}, mayFail: strings.ContainsAny(h, ",=") || intMapGetterLoses(h)},
			{args: []string{h}},
			{args: []string{"a", h, "--", h}},
			{flags: map[string]any{"string": h, "stringArray": []string{h}}, args: []string{h}, mayFail: csvUnrepresentable(h) || h == ""},
		}
		for i, c := range cases {
			_, err := roundTrip(t, c.flags, c.args)
			// A value that may fail may also succeed: the single-pair
			// stringToString form is not read as CSV and carries "\r\n".
			if err != nil && !(c.mayFail && errors.Is(err, exec.ErrUnrepresentable)) {
				t.Errorf("%q case %d (%v): unexpected error: %v", name, i, c.flags, err)
			}
		}
	}
}

func TestArgvRoundTripTypes(t *testing.T) {
	tests := []struct {
		name  string
		flags map[string]any
	}{
		{"bool false overrides default true", map[string]any{"bool": false}},
		{"bool true", map[string]any{"bool": true}},
		{"ints as json.Number", map[string]any{
			"int": json.Number("-9223372036854775808"), "int8": json.Number("-128"), "int16": json.Number("32767"),
			"int32": json.Number("-2147483648"), "int64": json.Number("9223372036854775807"),
			"uint": json.Number("18446744073709551615"), "uint8": json.Number("255"), "uint16": json.Number("65535"),
			"uint32": json.Number("4294967295"), "uint64": json.Number("18446744073709551615"),
		}},
		{"ints in exponent and fraction form", map[string]any{
			"int": json.Number("1e6"), "int8": json.Number("1.2e1"), "int64": json.Number("-0.0"),
			"uint64": json.Number("1.8446744073709551615e19"), "int32": json.Number("100.000"),
		}},
		{"ints as Go values", map[string]any{
			"int": 1000000, "int8": int8(-5), "int16": uint8(200), "int64": float64(1e15), "uint": uint64(math.MaxUint64),
			"uint32": float32(16777216), "count": 3,
		}},
		{"count", map[string]any{"count": json.Number("5"), "verbose": json.Number("2")}},
		{"count zero", map[string]any{"count": 0}},
		{"floats", map[string]any{"float32": json.Number("0.1"), "float64": json.Number("0.1")}},
		{"float extremes", map[string]any{"float32": json.Number("3.4028234663852886e38"), "float64": json.Number("4.9e-324")}},
		{"float precision beyond float64", map[string]any{"float64": json.Number("0.10000000000000000555111512312578270211815834045410156250001")}},
		{"float negative zero", map[string]any{"float64": json.Number("-0"), "float32": json.Number("-0.0")}},
		{"float Go values", map[string]any{"float64": math.Pi, "float32": float32(math.Pi)}},
		{"float32 Go value to float64 flag is exact", map[string]any{"float64": float32(0.1)}},
		{"float64 Go value to float32 flag rounds once", map[string]any{"float32": 0.1}},
		{"large integral float64 to int64 is exact", map[string]any{"int64": float64(81064793292668928), "uint64": 1e19}},
		{"float64 from int", map[string]any{"float64": json.Number("9007199254740993"), "float32": 16777217}},
		{"float NaN and Inf from Go", map[string]any{"float64": math.NaN(), "float32": math.Inf(-1)}},
		{"duration", map[string]any{"duration": "1h2m3.5s"}},
		{"duration Go value", map[string]any{"duration": -90 * time.Second}},
		{"duration zero", map[string]any{"duration": "0"}},
		{"ip v4", map[string]any{"ip": "192.168.0.1"}},
		{"ip v6 with spaces", map[string]any{"ip": " 2001:db8::1 "}},
		{"ipMask dotted", map[string]any{"ipMask": "255.255.255.0"}},
		{"ipMask hex", map[string]any{"ipMask": "ffff0000"}},
		{"ipNet", map[string]any{"ipNet": "192.168.1.7/24"}},
		{"ipNet v6", map[string]any{"ipNet": "2001:db8::/32"}},
		{"bytesHex", map[string]any{"bytesHex": "DEADbeef"}},
		{"bytesHex empty", map[string]any{"bytesHex": ""}},
		{"bytesHex Go bytes", map[string]any{"bytesHex": []byte{0, 1, 255}}},
		{"bytesBase64", map[string]any{"bytesBase64": "aGVsbG8sIHdvcmxkIQ=="}},
		{"bytesBase64 Go bytes", map[string]any{"bytesBase64": []byte("a,b=c\n")}},
		{"stringSlice empty", map[string]any{"stringSlice": []any{}}},
		{"stringSlice two empty elements", map[string]any{"stringSlice": []string{"", ""}}},
		{"stringSlice mixed", map[string]any{"stringSlice": []string{"a,b", `"q"`, " lead", "x\ny", "-n", "k=v"}}},
		{"stringArray mixed", map[string]any{"stringArray": []string{"a,b", `"q"`, "--x=y", "x\ny", ""}}},
		{"intSlice", map[string]any{"intSlice": []any{json.Number("1"), json.Number("-2"), json.Number("3e2")}}},
		{"int32Slice", map[string]any{"int32Slice": []any{json.Number("2147483647"), json.Number("-2147483648")}}},
		{"int64Slice", map[string]any{"int64Slice": []int64{math.MinInt64, 0, math.MaxInt64}}},
		{"uintSlice", map[string]any{"uintSlice": []uint64{0, math.MaxUint64}}},
		{"float32Slice", map[string]any{"float32Slice": []any{json.Number("0.1"), json.Number("-1e-6"), json.Number("3")}}},
		{"float64Slice", map[string]any{"float64Slice": []float64{0.1, -0.0, 1e308, 0.000001}}},
		{"boolSlice", map[string]any{"boolSlice": []any{true, false, false}}},
		{"boolSlice empty", map[string]any{"boolSlice": []any{}}},
		{"durationSlice", map[string]any{"durationSlice": []any{"1s", "-2m", "1.5h"}}},
		{"ipSlice", map[string]any{"ipSlice": []any{"10.0.0.1", "::1", " 1.2.3.4"}}},
		{"ipSlice empty", map[string]any{"ipSlice": []string{}}},
		{"ipNetSlice", map[string]any{"ipNetSlice": []any{"10.1.2.3/8", "fe80::/10"}}},
		{"ipNetSlice empty", map[string]any{"ipNetSlice": []any{}}},
		{"stringToString one pair", map[string]any{"stringToString": map[string]any{"a": "1,2"}}},
		{"stringToString quoted value", map[string]any{"stringToString": map[string]any{"k": `"quoted"`}}},
		{"stringToString quote at key start", map[string]any{"stringToString": map[string]any{`"k`: "v"}}},
		{"stringToString value with =", map[string]any{"stringToString": map[string]any{"k": "a=b=c"}}},
		{"stringToString many", map[string]any{"stringToString": map[string]string{"a": "x,y", "b": `"`, "c": "", "": "empty key", " sp ": "\n"}}},
		{"stringToInt", map[string]any{"stringToInt": map[string]any{"a": json.Number("1"), "b b": json.Number("-2"), `"q"`: json.Number("3")}}},
		{"stringToInt64", map[string]any{"stringToInt64": map[string]int64{"a[": math.MinInt64, "b]": math.MaxInt64}}},
		{"custom", map[string]any{"custom": "debug"}},
		{"annotated string takes an object as JSON text", map[string]any{"json": map[string]any{"a": []any{json.Number("1"), "<b>&"}, "z": nil}}},
		{"annotated string takes a string raw", map[string]any{"json": `{"a":1}`}},
		{"annotated custom takes an array", map[string]any{"jsoncustom": []any{true, json.Number("1.5e300"), "x"}}},
		{"annotated custom takes a number", map[string]any{"jsoncustom": json.Number("12345678901234567890123")}},
		{"annotated custom takes a bool", map[string]any{"jsoncustom": false}},
		{"annotated int is native", map[string]any{"limit": json.Number("1e3")}},
		{"nil means not set", map[string]any{"string": nil, "bool": nil, "stringSlice": nil}},
		{"many at once", map[string]any{
			"bool": false, "string": "-x", "int": 1, "stringSlice": []any{"a,b"}, "stringArray": []any{"c,d"},
			"stringToString": map[string]any{"k": "v"}, "count": 2, "verbose": 1, "custom": "--custom=no",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := roundTrip(t, tt.flags, nil); err != nil {
				t.Fatalf("Argv: %v", err)
			}
			if _, err := roundTrip(t, tt.flags, []string{"--secret=x", "-b", "arg"}); err != nil {
				t.Fatalf("Argv with args: %v", err)
			}
		})
	}
}

func TestArgvForm(t *testing.T) {
	tests := []struct {
		name  string
		flags map[string]any
		args  []string
		want  []string
	}{
		{"big integer stays digits", map[string]any{"int64": json.Number("1000000")}, nil, []string{"--int64=1000000"}},
		{"integral float64 written as integer", map[string]any{"int64": 1e6}, nil, []string{"--int64=1000000"}},
		{"integral float64 written with its exact digits", map[string]any{"int64": float64(81064793292668928)}, nil, []string{"--int64=81064793292668928"}},
		{"exponent written as integer", map[string]any{"uint64": json.Number("1.5e3")}, nil, []string{"--uint64=1500"}},
		{"float shortest form", map[string]any{"float64": 0.1}, nil, []string{"--float64=0.1"}},
		{"bool false explicit", map[string]any{"bool": false}, nil, []string{"--bool=false"}},
		{"count as value", map[string]any{"count": 3}, nil, []string{"--count=3"}},
		{"one element per flag, sorted by name", map[string]any{"string": "-n", "bool": true, "int": 1}, nil,
			[]string{"--bool=true", "--int=1", "--string=-n"}},
		{"stringArray repeats", map[string]any{"stringArray": []any{"a,b", ""}}, nil, []string{"--stringArray=a,b", "--stringArray="}},
		{"stringSlice CSV", map[string]any{"stringSlice": []any{"a,b", `q"`, "c"}}, nil, []string{`--stringSlice="a,b","q""",c`}},
		{"stringSlice empty", map[string]any{"stringSlice": []any{}}, nil, []string{"--stringSlice="}},
		{"intSlice comma-joined", map[string]any{"intSlice": []any{1, json.Number("2"), 3.0}}, nil, []string{"--intSlice=1,2,3"}},
		{"map keys sorted", map[string]any{"stringToInt": map[string]any{"b": 2, "a": 1}}, nil, []string{"--stringToInt=a=1,b=2"}},
		{"args after --", nil, []string{"--token=x", "-n"}, []string{"--", "--token=x", "-n"}},
		{"no args, no --", map[string]any{"bool": true}, []string{}, []string{"--bool=true"}},
		{"nothing", nil, nil, []string{}},
		{"annotated object compact JSON", map[string]any{"json": map[string]any{"b": "<&>", "a": 1}}, nil, []string{`--json={"a":1,"b":"<&>"}`}},
		{"duration canonical", map[string]any{"duration": "90s"}, nil, []string{"--duration=1m30s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := plainArgv(newTree().leaf.Flags(), tt.flags, tt.args)
			if err != nil {
				t.Fatalf("Argv: %v", err)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("Argv = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestArgvErrors(t *testing.T) {
	tests := []struct {
		name     string
		flags    map[string]any
		args     []string
		want     error
		contains []string // the message names the flag and what was wrong
	}{
		{"unknown flag", map[string]any{"nope": 1}, nil, exec.ErrUnknownFlag, []string{"--nope"}},
		{"int8 overflow", map[string]any{"int8": json.Number("128")}, nil, exec.ErrInvalidValue, []string{"--int8", "128", "-128 to 127"}},
		{"int64 overflow", map[string]any{"int64": json.Number("9223372036854775808")}, nil, exec.ErrInvalidValue, []string{"--int64", "out of range"}},
		{"uint negative", map[string]any{"uint8": -1}, nil, exec.ErrInvalidValue, []string{"--uint8", "0 to 255"}},
		{"uint64 overflow", map[string]any{"uint64": json.Number("18446744073709551616")}, nil, exec.ErrInvalidValue, []string{"--uint64"}},
		{"huge exponent", map[string]any{"int": json.Number("1e999999999999")}, nil, exec.ErrInvalidValue, []string{"--int", "out of range"}},
		{"tiny exponent", map[string]any{"int": json.Number("1e-999999999999")}, nil, exec.ErrInvalidValue, []string{"--int", "not an integer"}},
		{"int not integral", map[string]any{"int": json.Number("1.5")}, nil, exec.ErrInvalidValue, []string{"--int", "not an integer"}},
		{"int not integral float64", map[string]any{"int": 2.5}, nil, exec.ErrInvalidValue, []string{"--int", "not an integer"}},
		{"int NaN", map[string]any{"int": math.NaN()}, nil, exec.ErrInvalidValue, []string{"--int"}},
		{"int from string", map[string]any{"int": "5"}, nil, exec.ErrInvalidValue, []string{"--int", "want an integer, got string"}},
		{"int bad json.Number", map[string]any{"int": json.Number("0x10")}, nil, exec.ErrInvalidValue, []string{"--int", "not a number"}},
		{"float32 overflow", map[string]any{"float32": json.Number("1e39")}, nil, exec.ErrInvalidValue, []string{"--float32", "out of range"}},
		{"float64 overflow", map[string]any{"float64": json.Number("1e309")}, nil, exec.ErrInvalidValue, []string{"--float64"}},
		{"float32 overflow Go", map[string]any{"float32": 1e300}, nil, exec.ErrInvalidValue, []string{"--float32"}},
		{"float bad json.Number", map[string]any{"float64": json.Number("NaN")}, nil, exec.ErrInvalidValue, []string{"--float64"}},
		{"float from bool", map[string]any{"float64": true}, nil, exec.ErrInvalidValue, []string{"--float64", "want a number, got boolean"}},
		{"bool from string", map[string]any{"bool": "true"}, nil, exec.ErrInvalidValue, []string{"--bool", "want a boolean, got string"}},
		{"string from number", map[string]any{"string": json.Number("1")}, nil, exec.ErrInvalidValue, []string{"--string", "want a string, got number"}},
		{"custom from object", map[string]any{"custom": map[string]any{}}, nil, exec.ErrInvalidValue, []string{"--custom", "got object"}},
		{"slice from string", map[string]any{"stringSlice": "a,b"}, nil, exec.ErrInvalidValue, []string{"--stringSlice", "want an array"}},
		{"slice element type", map[string]any{"stringSlice": []any{"a", json.Number("1")}}, nil, exec.ErrInvalidValue, []string{"--stringSlice", "element 1"}},
		{"intSlice element range", map[string]any{"int32Slice": []any{json.Number("2147483648")}}, nil, exec.ErrInvalidValue, []string{"--int32Slice", "element 0"}},
		{"slice null element", map[string]any{"intSlice": []any{nil}}, nil, exec.ErrInvalidValue, []string{"--intSlice", "element 0", "null"}},
		{"map from array", map[string]any{"stringToString": []any{}}, nil, exec.ErrInvalidValue, []string{"--stringToString", "want an object"}},
		{"map value type", map[string]any{"stringToInt": map[string]any{"a": "1"}}, nil, exec.ErrInvalidValue, []string{"--stringToInt", `key "a"`}},
		{"duration syntax", map[string]any{"duration": "5 minutes"}, nil, exec.ErrInvalidValue, []string{"--duration"}},
		{"duration number", map[string]any{"duration": json.Number("5")}, nil, exec.ErrInvalidValue, []string{"--duration"}},
		{"ip syntax", map[string]any{"ip": "1.2.3"}, nil, exec.ErrInvalidValue, []string{"--ip"}},
		{"ip empty", map[string]any{"ip": ""}, nil, exec.ErrInvalidValue, []string{"--ip"}},
		{"ipMask syntax", map[string]any{"ipMask": "255.0.255"}, nil, exec.ErrInvalidValue, []string{"--ipMask"}},
		{"ipNet syntax", map[string]any{"ipNet": "10.0.0.0"}, nil, exec.ErrInvalidValue, []string{"--ipNet"}},
		{"ipSlice element", map[string]any{"ipSlice": []any{"1.1.1.1", "x"}}, nil, exec.ErrInvalidValue, []string{"--ipSlice", "element 1"}},
		{"bytesHex syntax", map[string]any{"bytesHex": "abc"}, nil, exec.ErrInvalidValue, []string{"--bytesHex"}},
		{"bytesBase64 syntax", map[string]any{"bytesBase64": "a"}, nil, exec.ErrInvalidValue, []string{"--bytesBase64"}},
		{"annotated int stays native", map[string]any{"limit": "5"}, nil, exec.ErrInvalidValue, []string{"--limit"}},
		{"NUL in string", map[string]any{"string": "a\x00b"}, nil, exec.ErrUnrepresentable, []string{"--string", "NUL"}},
		{"NUL in arg", nil, []string{"ok", "a\x00"}, exec.ErrUnrepresentable, []string{"positional argument 1", "NUL"}},
		{"intSlice empty", map[string]any{"intSlice": []any{}}, nil, exec.ErrUnrepresentable, []string{"--intSlice", "empty list"}},
		{"durationSlice empty", map[string]any{"durationSlice": []any{}}, nil, exec.ErrUnrepresentable, []string{"--durationSlice", "empty list"}},
		{"float64Slice empty", map[string]any{"float64Slice": []float64{}}, nil, exec.ErrUnrepresentable, []string{"--float64Slice"}},
		{"stringArray empty", map[string]any{"stringArray": []any{}}, nil, exec.ErrUnrepresentable, []string{"--stringArray", "empty list"}},
		{"stringToString empty", map[string]any{"stringToString": map[string]any{}}, nil, exec.ErrUnrepresentable, []string{"--stringToString", "empty map"}},
		{"stringToInt empty", map[string]any{"stringToInt": map[string]int{}}, nil, exec.ErrUnrepresentable, []string{"--stringToInt", "empty map"}},
		{"stringToString key with =", map[string]any{"stringToString": map[string]any{"a=b": "c"}}, nil, exec.ErrUnrepresentable, []string{"--stringToString", `"a=b"`}},
		{"stringToInt key with ,", map[string]any{"stringToInt": map[string]any{"a,b": 1}}, nil, exec.ErrUnrepresentable, []string{"--stringToInt", `"a,b"`}},
		{"stringToInt64 key with =", map[string]any{"stringToInt64": map[string]any{"a=": 1}}, nil, exec.ErrUnrepresentable, []string{"--stringToInt64"}},
		{"stringSlice CRLF", map[string]any{"stringSlice": []any{"a\r\nb"}}, nil, exec.ErrUnrepresentable, []string{"--stringSlice", `\r\n`}},
		{"stringSlice one empty element", map[string]any{"stringSlice": []any{""}}, nil, exec.ErrUnrepresentable, []string{"--stringSlice", "GetStringSlice", "one empty string"}},
		{"stringArray one empty element", map[string]any{"stringArray": []any{""}}, nil, exec.ErrUnrepresentable, []string{"--stringArray", "GetStringArray", "one empty string"}},
		{"stringArray CRLF", map[string]any{"stringArray": []any{"a", "x\r\ny"}}, nil, exec.ErrUnrepresentable, []string{"--stringArray", "element 1", `"x\ny"`, "GetStringArray"}},
		{"stringToString value ending in a tab", map[string]any{"stringToString": map[string]any{"k": "v\t"}}, nil, exec.ErrUnrepresentable, []string{"--stringToString", `key "k"`, `"v\t"`, "GetStringToString"}},
		{"stringToString last value ending in U+2028", map[string]any{"stringToString": map[string]any{"a": "x", "b": "y\u2028"}}, nil, exec.ErrUnrepresentable, []string{"--stringToString", `key "b"`, "GetStringToString"}},
		{"stringToString last value ending in ]", map[string]any{"stringToString": map[string]any{"k": "[v]"}}, nil, exec.ErrUnrepresentable, []string{"--stringToString", `key "k"`, "GetStringToString"}},
		{"stringToString first key beginning with [", map[string]any{"stringToString": map[string]any{"[a": "x", "b": "y"}}, nil, exec.ErrUnrepresentable, []string{"--stringToString", `key "[a"`, "GetStringToString"}},
		{"stringToString CRLF in one pair", map[string]any{"stringToString": map[string]any{"a": "x\r\ny"}}, nil, exec.ErrUnrepresentable, []string{"--stringToString", `key "a"`}},
		{"stringToInt key beginning with [", map[string]any{"stringToInt": map[string]any{"b": 1, "[a": 2}}, nil, exec.ErrUnrepresentable, []string{"--stringToInt", `"[a"`, "GetStringToInt"}},
		{"stringToInt64 key beginning with ]", map[string]any{"stringToInt64": map[string]any{"]": 1}}, nil, exec.ErrUnrepresentable, []string{"--stringToInt64", "GetStringToInt64"}},
		{"float64Slice seven decimals", map[string]any{"float64Slice": []any{1.5, 3.1415927}}, nil, exec.ErrUnrepresentable, []string{"--float64Slice", "element 1", "3.141593", "GetFloat64Slice"}},
		{"float32Slice tiny", map[string]any{"float32Slice": []any{json.Number("1e-40")}}, nil, exec.ErrUnrepresentable, []string{"--float32Slice", "element 0", "GetFloat32Slice"}},
		{"stringToString CRLF in CSV form", map[string]any{"stringToString": map[string]any{"a": "x\r\ny", "b": "c"}}, nil, exec.ErrUnrepresentable, []string{"--stringToString"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			argv, err := plainArgv(newTree().leaf.Flags(), tt.flags, tt.args)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Argv = %q, %v; want error %v", argv, err, tt.want)
			}
			if argv != nil {
				t.Errorf("Argv returned %q with its error", argv)
			}
			for _, s := range tt.contains {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
}

// TestArgvSameFlagTwice: two names that normalize to one flag would set it
// twice; Argv refuses rather than pick one.
func TestArgvSameFlagTwice(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.SetNormalizeFunc(func(_ *pflag.FlagSet, name string) pflag.NormalizedName {
		return pflag.NormalizedName(strings.ReplaceAll(name, "_", "-"))
	})
	fs.String("dry-run", "", "")
	argv, err := plainArgv(fs, map[string]any{"dry_run": "a"}, nil)
	if err != nil || !slices.Equal(argv, []string{"--dry-run=a"}) {
		t.Fatalf("Argv(dry_run) = %q, %v; want the canonical name", argv, err)
	}
	if _, err := plainArgv(fs, map[string]any{"dry_run": "a", "dry-run": "b"}, nil); !errors.Is(err, exec.ErrInvalidValue) {
		t.Fatalf("Argv(dry_run, dry-run) error = %v, want ErrInvalidValue", err)
	}
}

// TestArgvExcludedFlagUnreachable: a flag left out of the tool (here
// --secret and the shorthand -s) cannot be set through positional args.
func TestArgvExcludedFlagUnreachable(t *testing.T) {
	args := []string{"--secret=x", "--secret", "y", "-s", "z", "-bs=w", "--", "--string=v"}
	tr := newTree()
	argv, err := plainArgv(tr.leaf.Flags(), map[string]any{"string": "ok"}, args)
	if err != nil {
		t.Fatal(err)
	}
	got, err := roundtrip.Execute(tr.root, append([]string{"run"}, argv...))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Flags) != 1 || got.Flags["string"] != "ok" {
		t.Fatalf("flags seen: %v, want only string=ok", got.Flags)
	}
	if !slices.Equal(got.Args, args) {
		t.Fatalf("args %q, want %q", got.Args, args)
	}
}

// TestArgvPositionalArgNamingSubcommand: a first arg that names a
// sub-command goes after "--", so it does not select the sub-command; the
// first word cobra looks at is the first that is neither "" nor "-".
func TestArgvPositionalArgNamingSubcommand(t *testing.T) {
	for _, args := range [][]string{{childName}, {"", childName}, {"-", childName}, {childName, "x"}, {"x", childName}, {"x"}, {"chi"}, {"CHILD"}, {"", "-"}} {
		p := positional{Args: args, SubCommand: isChild}
		argv, err := roundTripP(t, nil, p)
		if err != nil {
			t.Fatal(err)
		}
		if wantDash := wantArgsLenAtDash(p) == 0; wantDash != slices.Contains(argv, "--") {
			t.Errorf("args %q: argv %q", args, argv)
		}
	}
	// Without SubCommand, Argv cannot know: documented, and visible here.
	tr := newTree()
	tr.leaf.AddCommand(&cobra.Command{Use: childName, Run: func(*cobra.Command, []string) {}})
	argv, err := plainArgv(tr.leaf.Flags(), nil, []string{childName})
	if err != nil {
		t.Fatal(err)
	}
	got, err := roundtrip.Execute(tr.root, append([]string{"run"}, argv...))
	if err != nil {
		t.Fatal(err)
	}
	if got.Command.Name() != childName {
		t.Fatalf("Argv without SubCommand: ran %q, want %q (the documented limit)", got.Command.Name(), childName)
	}
}

// TestArgvPositional: args placed as a person types them, and the words
// after "--" after it, with ArgsLenAtDash checked by roundTripP.
func TestArgvPositional(t *testing.T) {
	tests := []struct {
		p        positional
		wantArgv []string
		wantErr  error
	}{
		{positional{Args: []string{"ns1"}}, []string{"ns1"}, nil},
		{positional{Args: []string{"a", "-", ""}}, []string{"a", "-", ""}, nil},
		{positional{Args: []string{"a", "-1"}}, []string{"--", "a", "-1"}, nil},
		{positional{Args: []string{"--not-a-flag"}}, []string{"--", "--not-a-flag"}, nil},
		{positional{Args: []string{"web-0"}, AfterDash: []string{"ls", "-l"}}, []string{"web-0", "--", "ls", "-l"}, nil},
		{positional{AfterDash: []string{"--", "-x"}}, []string{"--", "--", "-x"}, nil},
		{positional{Args: []string{"a"}, AfterDash: []string{}}, []string{"a"}, nil},
		{positional{Args: []string{"-n"}, AfterDash: []string{"ls"}}, nil, exec.ErrDashConflict},
		{positional{Args: []string{childName}, AfterDash: []string{"ls"}, SubCommand: isChild}, nil, exec.ErrDashConflict},
		// A command with sub-commands: its args follow "--" when the first
		// word cobra looks up would be read as one's name (SubCommand
		// says how the CLI matches names), and only then.
		{positional{Args: []string{childName}, SubCommand: isChild}, []string{"--", childName}, nil},
		{positional{Args: []string{"", "-", childName, "a"}, SubCommand: isChild}, []string{"--", "", "-", childName, "a"}, nil},
		{positional{Args: []string{"a"}, SubCommand: isChild}, []string{"a"}, nil},
		{positional{Args: []string{"chi"}, SubCommand: isChild}, []string{"chi"}, nil},
		{positional{Args: []string{"a", childName}, SubCommand: isChild}, []string{"a", childName}, nil},
		{positional{Args: []string{"", "-"}, SubCommand: isChild}, []string{"", "-"}, nil},
		{positional{Args: []string{"a"}, AfterDash: []string{"ls"}, SubCommand: isChild}, []string{"a", "--", "ls"}, nil},
		{positional{Args: []string{"chi"}, SubCommand: anyWord}, []string{"--", "chi"}, nil},
		{positional{Args: []string{"a"}, AfterDash: []string{"ls"}, SubCommand: anyWord}, nil, exec.ErrDashConflict},
		{positional{AfterDash: []string{"ls"}, SubCommand: isChild}, []string{"--", "ls"}, nil},
		{positional{Args: []string{"a"}, AfterDash: []string{"l\x00s"}}, nil, exec.ErrUnrepresentable},
		// Flags that stop at the first arg (SetInterspersed(false)): only
		// the first arg can need "--", and a "--" after an arg is an arg.
		{positional{Args: []string{"a", "-1", "--x"}, StopsAtFirstArg: true}, []string{"a", "-1", "--x"}, nil},
		{positional{Args: []string{"-a", "b"}, StopsAtFirstArg: true}, []string{"--", "-a", "b"}, nil},
		{positional{Args: []string{"", "-a"}, StopsAtFirstArg: true}, []string{"", "-a"}, nil},
		{positional{Args: []string{childName, "-a"}, StopsAtFirstArg: true, SubCommand: isChild}, []string{"--", childName, "-a"}, nil},
		{positional{Args: []string{"", "a"}, StopsAtFirstArg: true, SubCommand: isChild}, []string{"", "a"}, nil},
		{positional{Args: []string{"", childName}, StopsAtFirstArg: true, SubCommand: isChild}, []string{"--", "", childName}, nil},
		{positional{Args: []string{"web-0", "-it"}, AfterDash: []string{"ls", "-l"}, StopsAtFirstArg: true}, []string{"web-0", "-it", "--", "ls", "-l"}, nil},
		{positional{AfterDash: []string{"ls", "-l"}, StopsAtFirstArg: true}, []string{"--", "ls", "-l"}, nil},
		{positional{Args: []string{"-n"}, AfterDash: []string{"ls"}, StopsAtFirstArg: true}, []string{"--", "-n", "--", "ls"}, nil},
	}
	for _, tt := range tests {
		argv, err := roundTripP(t, map[string]any{"string": "v"}, tt.p)
		if tt.wantErr != nil {
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("%+v: err %v, want %v", tt.p, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%+v: %v", tt.p, err)
			continue
		}
		if want := append([]string{"--string=v"}, tt.wantArgv...); !slices.Equal(argv, want) {
			t.Errorf("%+v: argv %q, want %q", tt.p, argv, want)
		}
	}
}

// TestArgvFuncFlags: func flags get the string verbatim, boolfunc flags an
// explicit true or false.
func TestArgvFuncFlags(t *testing.T) {
	tr := newTree()
	argv, err := plainArgv(tr.leaf.Flags(), map[string]any{"hook": "-a,b=c", "trace": false}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr.root.SetArgs(append([]string{"run"}, argv...))
	if err := tr.root.Execute(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tr.hooks, []string{"-a,b=c"}) || !slices.Equal(tr.traces, []string{"false"}) {
		t.Fatalf("hook got %q, trace got %q", tr.hooks, tr.traces)
	}
}

// TestArgvNoParse: a command with DisableFlagParsing gets the args as
// given, flags and all.
func TestArgvNoParse(t *testing.T) {
	var seen []string
	root := &cobra.Command{Use: "app"}
	raw := &cobra.Command{Use: "raw", DisableFlagParsing: true, Run: func(_ *cobra.Command, a []string) { seen = a }}
	root.AddCommand(raw)
	args := []string{"--token=x", "-n", "--", "a b", ""}
	l := exec.CommandLine{Name: "app raw", Path: []string{"raw"}, NoParse: true}
	argv, err := l.Argv(nil, args, nil)
	if err != nil {
		t.Fatal(err)
	}
	args[0] = "changed" // Argv returned a copy
	root.SetArgs(argv)
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"--token=x", "-n", "--", "a b", ""}; !slices.Equal(seen, want) {
		t.Fatalf("command saw %q, want %q", seen, want)
	}
}

func TestArgvLongValue(t *testing.T) {
	long := strings.Repeat("é,\"x\n", 25<<10) // 100 KiB+ of CSV-hostile text
	if len(long) < 100<<10 {
		t.Fatalf("test value is only %d bytes", len(long))
	}
	flags := map[string]any{
		"string": long, "stringSlice": []any{long, long}, "stringArray": []any{long},
		"stringToString": map[string]any{"k": long, "k2": long},
	}
	if _, err := roundTrip(t, flags, []string{long}); err != nil {
		t.Fatal(err)
	}
}

func TestArgvIntegerRanges(t *testing.T) {
	// Every bound and one past it, for every sized integer type, as
	// json.Number and as a Go float64 where float64 is exact.
	types := []struct {
		name   string
		lo, hi string
	}{
		{"int8", "-128", "127"}, {"int16", "-32768", "32767"}, {"int32", "-2147483648", "2147483647"},
		{"int64", "-9223372036854775808", "9223372036854775807"},
		{"uint8", "0", "255"}, {"uint16", "0", "65535"}, {"uint32", "0", "4294967295"},
		{"uint64", "0", "18446744073709551615"},
	}
	for _, ty := range types {
		for _, n := range []string{ty.lo, ty.hi} {
			if _, err := roundTrip(t, map[string]any{ty.name: json.Number(n)}, nil); err != nil {
				t.Errorf("%s=%s: %v", ty.name, n, err)
			}
		}
		for _, n := range []string{addInt(ty.lo, -1), addInt(ty.hi, 1)} {
			if _, err := plainArgv(newTree().leaf.Flags(), map[string]any{ty.name: json.Number(n)}, nil); !errors.Is(err, exec.ErrInvalidValue) {
				t.Errorf("%s=%s: error %v, want ErrInvalidValue", ty.name, n, err)
			}
		}
	}
}

// addInt adds d to the decimal integer s, beyond 64 bits if need be.
func addInt(s string, d int64) string {
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic("bad integer " + s)
	}
	return n.Add(n, big.NewInt(d)).String()
}

func BenchmarkArgv(b *testing.B) {
	fs := newTree().leaf.Flags()
	flags := map[string]any{
		"bool": false, "string": "--hello, world", "int": json.Number("1000000"), "float64": json.Number("0.1"),
		"stringSlice":    []any{"a,b", `"c"`, "d"},
		"stringArray":    []any{"x", "y"},
		"stringToString": map[string]any{"k": "v", "k2": "v,2"},
		"intSlice":       []any{json.Number("1"), json.Number("2")},
		"duration":       "1m",
		"json":           map[string]any{"a": json.Number("1")},
	}
	args := []string{"--token=x", "file.txt"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := plainArgv(fs, flags, args); err != nil {
			b.Fatal(err)
		}
	}
}
