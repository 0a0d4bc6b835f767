package flagschema

import (
	"math"
	"net"
	"reflect"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/pflag"
)

func TestDefaultZeroOmitted(t *testing.T) {
	zero := map[string]func(fs *pflag.FlagSet){
		"bool":           func(fs *pflag.FlagSet) { fs.Bool("x", false, "") },
		"string":         func(fs *pflag.FlagSet) { fs.String("x", "", "") },
		"int":            func(fs *pflag.FlagSet) { fs.Int("x", 0, "") },
		"int8":           func(fs *pflag.FlagSet) { fs.Int8("x", 0, "") },
		"int16":          func(fs *pflag.FlagSet) { fs.Int16("x", 0, "") },
		"int32":          func(fs *pflag.FlagSet) { fs.Int32("x", 0, "") },
		"int64":          func(fs *pflag.FlagSet) { fs.Int64("x", 0, "") },
		"uint":           func(fs *pflag.FlagSet) { fs.Uint("x", 0, "") },
		"uint8":          func(fs *pflag.FlagSet) { fs.Uint8("x", 0, "") },
		"uint16":         func(fs *pflag.FlagSet) { fs.Uint16("x", 0, "") },
		"uint32":         func(fs *pflag.FlagSet) { fs.Uint32("x", 0, "") },
		"uint64":         func(fs *pflag.FlagSet) { fs.Uint64("x", 0, "") },
		"float32":        func(fs *pflag.FlagSet) { fs.Float32("x", 0, "") },
		"float64":        func(fs *pflag.FlagSet) { fs.Float64("x", 0, "") },
		"count":          func(fs *pflag.FlagSet) { fs.Count("x", "") },
		"duration":       func(fs *pflag.FlagSet) { fs.Duration("x", 0, "") },
		"ip":             func(fs *pflag.FlagSet) { fs.IP("x", nil, "") },
		"ipMask":         func(fs *pflag.FlagSet) { fs.IPMask("x", nil, "") },
		"ipNet":          func(fs *pflag.FlagSet) { fs.IPNet("x", net.IPNet{}, "") },
		"bytesHex":       func(fs *pflag.FlagSet) { fs.BytesHex("x", nil, "") },
		"bytesBase64":    func(fs *pflag.FlagSet) { fs.BytesBase64("x", nil, "") },
		"stringSlice":    func(fs *pflag.FlagSet) { fs.StringSlice("x", nil, "") },
		"stringArray":    func(fs *pflag.FlagSet) { fs.StringArray("x", []string{}, "") },
		"intSlice":       func(fs *pflag.FlagSet) { fs.IntSlice("x", nil, "") },
		"int32Slice":     func(fs *pflag.FlagSet) { fs.Int32Slice("x", nil, "") },
		"int64Slice":     func(fs *pflag.FlagSet) { fs.Int64Slice("x", nil, "") },
		"uintSlice":      func(fs *pflag.FlagSet) { fs.UintSlice("x", nil, "") },
		"float32Slice":   func(fs *pflag.FlagSet) { fs.Float32Slice("x", nil, "") },
		"float64Slice":   func(fs *pflag.FlagSet) { fs.Float64Slice("x", nil, "") },
		"boolSlice":      func(fs *pflag.FlagSet) { fs.BoolSlice("x", nil, "") },
		"durationSlice":  func(fs *pflag.FlagSet) { fs.DurationSlice("x", nil, "") },
		"ipSlice":        func(fs *pflag.FlagSet) { fs.IPSlice("x", nil, "") },
		"ipNetSlice":     func(fs *pflag.FlagSet) { fs.IPNetSlice("x", nil, "") },
		"stringToString": func(fs *pflag.FlagSet) { fs.StringToString("x", nil, "") },
		"stringToInt":    func(fs *pflag.FlagSet) { fs.StringToInt("x", map[string]int{}, "") },
		"stringToInt64":  func(fs *pflag.FlagSet) { fs.StringToInt64("x", nil, "") },
		"time":           func(fs *pflag.FlagSet) { fs.Time("x", time.Time{}, []string{time.RFC3339}, "") },
		"mapStringString": func(fs *pflag.FlagSet) {
			fs.Var(mapStringString{}, "x", "")
		},
		"filter": func(fs *pflag.FlagSet) { fs.Var(&nilString{}, "x", "") },
		"list":   func(fs *pflag.FlagSet) { fs.Var(&list{}, "x", "") },
	}
	for kind, add := range zero {
		t.Run(kind, func(t *testing.T) {
			fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
			add(fs)
			f := fs.Lookup("x")
			if KindOf(f).Name() != kind {
				t.Fatalf("Kind = %q, want %q", KindOf(f).Name(), kind)
			}
			if v, ok := Default(f); ok {
				t.Errorf("Default = %#v, true for DefValue %q; want omitted", v, f.DefValue)
			}
			s, err := For(f)
			if err != nil {
				t.Fatal(err)
			}
			if s.Default != nil {
				t.Errorf("schema default %s; want none", s.Default)
			}
		})
	}
}

// TestDefaultTyped checks the Go types of defaults and the reading of
// DefValue texts that pflag did not write itself.
func TestDefaultTyped(t *testing.T) {
	tests := []struct {
		name   string
		add    func(fs *pflag.FlagSet)
		defVal string // if set, replaces f.DefValue
		want   any
		ok     bool
	}{
		{"int is int64", func(fs *pflag.FlagSet) { fs.Int("x", 5, "") }, "", int64(5), true},
		{"hex int text", func(fs *pflag.FlagSet) { fs.Int("x", 0, "") }, "0x10", int64(16), true},
		{"uint64 max", func(fs *pflag.FlagSet) { fs.Uint64("x", math.MaxUint64, "") }, "", uint64(math.MaxUint64), true},
		{"int64 min", func(fs *pflag.FlagSet) { fs.Int64("x", math.MinInt64, "") }, "", int64(math.MinInt64), true},
		{"float", func(fs *pflag.FlagSet) { fs.Float64("x", 0.25, "") }, "", 0.25, true},
		{"float NaN omitted", func(fs *pflag.FlagSet) { fs.Float64("x", math.NaN(), "") }, "", nil, false},
		{"float Inf omitted", func(fs *pflag.FlagSet) { fs.Float64("x", math.Inf(1), "") }, "", nil, false},
		{"bool true", func(fs *pflag.FlagSet) { fs.Bool("x", true, "") }, "", true, true},
		{"bad int text", func(fs *pflag.FlagSet) { fs.Int("x", 0, "") }, "many", nil, false},
		{"bad bool text", func(fs *pflag.FlagSet) { fs.Bool("x", false, "") }, "yes please", nil, false},
		{"duration 0s omitted", func(fs *pflag.FlagSet) { fs.Duration("x", 0, "") }, "0s", nil, false},
		{"duration text kept", func(fs *pflag.FlagSet) { fs.Duration("x", time.Hour, "") }, "", "1h0m0s", true},
		{"bad duration", func(fs *pflag.FlagSet) { fs.Duration("x", 0, "") }, "soon", nil, false},
		{"slice text", func(fs *pflag.FlagSet) { fs.IntSlice("x", nil, "") }, "[1,2]", []any{int64(1), int64(2)}, true},
		{"slice empty text", func(fs *pflag.FlagSet) { fs.IntSlice("x", []int{1}, "") }, "[]", nil, false},
		{"slice bad text", func(fs *pflag.FlagSet) { fs.IntSlice("x", nil, "") }, "1,2", nil, false},
		{"slice bad element", func(fs *pflag.FlagSet) { fs.IntSlice("x", nil, "") }, "[1,b]", nil, false},
		{"slice spaces", func(fs *pflag.FlagSet) { fs.BoolSlice("x", nil, "") }, "[true, false]", []any{true, false}, true},
		{"string slice keeps spaces", func(fs *pflag.FlagSet) { fs.StringSlice("x", []string{" a", "b "}, "") }, "", []any{" a", "b "}, true},
		{"string slice text keeps spaces", func(fs *pflag.FlagSet) { fs.StringSlice("x", nil, "") }, `[" a",b ]`, []any{" a", "b "}, true},
		{"string slice csv", func(fs *pflag.FlagSet) { fs.StringSlice("x", nil, "") }, `[a,"b,c"]`, []any{"a", "b,c"}, true},
		{"map text", func(fs *pflag.FlagSet) { fs.StringToInt("x", nil, "") }, "[a=1,b=2]", map[string]any{"a": int64(1), "b": int64(2)}, true},
		{"go map text", func(fs *pflag.FlagSet) { fs.StringToString("x", nil, "") }, "map[a:1 b:two]", map[string]any{"a": "1", "b": "two"}, true},
		{"go empty map", func(fs *pflag.FlagSet) { fs.StringToString("x", nil, "") }, "map[]", nil, false},
		{"map bad pair", func(fs *pflag.FlagSet) { fs.StringToInt64("x", nil, "") }, "[a]", nil, false},
		{"map bad value", func(fs *pflag.FlagSet) { fs.StringToInt64("x", nil, "") }, "[a=b]", nil, false},
		{"map not a map", func(fs *pflag.FlagSet) { fs.StringToString("x", nil, "") }, "a=b", nil, false},
		{"ip <nil>", func(fs *pflag.FlagSet) { fs.IP("x", nil, "") }, "", nil, false},
		{"ip unspecified kept", func(fs *pflag.FlagSet) { fs.IP("x", net.IPv4zero, "") }, "", "0.0.0.0", true},
		{"int8 out of range", func(fs *pflag.FlagSet) { fs.Int8("x", 0, "") }, "300", nil, false},
		{"uint8 negative", func(fs *pflag.FlagSet) { fs.Uint8("x", 0, "") }, "-1", nil, false},
		{"int32 in range", func(fs *pflag.FlagSet) { fs.Int32("x", 0, "") }, "-2147483648", int64(-2147483648), true},
		{"int32 out of range", func(fs *pflag.FlagSet) { fs.Int32("x", 0, "") }, "2147483648", nil, false},
		{"uint32 max", func(fs *pflag.FlagSet) { fs.Uint32("x", 0, "") }, "4294967295", uint64(4294967295), true},
		{"int32 slice element out of range", func(fs *pflag.FlagSet) { fs.Int32Slice("x", nil, "") }, "[1,3000000000]", nil, false},
		{"bad hex", func(fs *pflag.FlagSet) { fs.BytesHex("x", nil, "") }, "xyz", nil, false},
		{"bad base64", func(fs *pflag.FlagSet) { fs.BytesBase64("x", nil, "") }, "aGk", nil, false},
		{"base64 with newline", func(fs *pflag.FlagSet) { fs.BytesBase64("x", nil, "") }, "aG\nk=", nil, false},
		{"bad ip", func(fs *pflag.FlagSet) { fs.IP("x", nil, "") }, "nope", nil, false},
		{"bad ip in slice", func(fs *pflag.FlagSet) { fs.IPSlice("x", nil, "") }, "[1.2.3.4,nope]", nil, false},
		{"mask as IPv6", func(fs *pflag.FlagSet) { fs.IPMask("x", nil, "") }, "::ffff:255.255.0.0", nil, false},
		{"mask dotted", func(fs *pflag.FlagSet) { fs.IPMask("x", nil, "") }, "255.255.0.0", "255.255.0.0", true},
		{"network without prefix", func(fs *pflag.FlagSet) { fs.IPNet("x", net.IPNet{}, "") }, "10.0.0.0", nil, false},
		{"custom text", func(fs *pflag.FlagSet) { fs.Var(mapStringString{"a": "1"}, "x", "") }, "", "map[a:1]", true},
		{"custom zero text kept", func(fs *pflag.FlagSet) {
			p := port(0)
			fs.Var(&p, "x", "")
		}, "", "0", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
			tt.add(fs)
			f := fs.Lookup("x")
			if tt.defVal != "" {
				f.DefValue = tt.defVal
			}
			got, ok := Default(f)
			if ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Default = %#v, %v; want %#v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestDefaultChangedFlag checks that a flag set on the command line still
// reports its default, not its value.
func TestDefaultChangedFlag(t *testing.T) {
	tests := []struct {
		name string
		add  func(fs *pflag.FlagSet)
		args []string
		want any
		ok   bool
	}{
		{"int", func(fs *pflag.FlagSet) { fs.Int("x", 3, "") }, []string{"--x=9"}, int64(3), true},
		{"zero int", func(fs *pflag.FlagSet) { fs.Int("x", 0, "") }, []string{"--x=9"}, nil, false},
		{"string", func(fs *pflag.FlagSet) { fs.String("x", "a", "") }, []string{"--x", "b"}, "a", true},
		{"count", func(fs *pflag.FlagSet) { fs.CountP("x", "v", "") }, []string{"-vvv"}, nil, false},
		{"string slice", func(fs *pflag.FlagSet) { fs.StringSlice("x", []string{"a", "b,c"}, "") },
			[]string{"--x=d", "--x=e"}, []any{"a", "b,c"}, true},
		{"string array", func(fs *pflag.FlagSet) { fs.StringArray("x", []string{"a"}, "") },
			[]string{"--x=b,c"}, []any{"a"}, true},
		{"int slice", func(fs *pflag.FlagSet) { fs.IntSlice("x", []int{1}, "") },
			[]string{"--x=5,6"}, []any{int64(1)}, true},
		{"map", func(fs *pflag.FlagSet) { fs.StringToString("x", map[string]string{"k": "v"}, "") },
			[]string{"--x=a=b"}, map[string]any{"k": "v"}, true},
		{"duration", func(fs *pflag.FlagSet) { fs.Duration("x", time.Minute, "") },
			[]string{"--x=1h"}, "1m0s", true},
		{"custom", func(fs *pflag.FlagSet) {
			v := tristate("auto")
			fs.Var(&v, "x", "")
		}, []string{"--x=false"}, "auto", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
			tt.add(fs)
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			f := fs.Lookup("x")
			if !f.Changed {
				t.Fatal("flag not changed by the arguments")
			}
			got, ok := Default(f)
			if ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Default = %#v, %v; want %#v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestDefaultVariableChanged checks that a slice whose variable was changed
// behind pflag's back (so Value no longer holds the default) reports the
// default pflag shows in help.
func TestDefaultVariableChanged(t *testing.T) {
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	var v []string
	fs.StringSliceVar(&v, "x", []string{"a"}, "")
	v = append(v, "b")
	got, ok := Default(fs.Lookup("x"))
	if want := []any{"a"}; !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("Default = %#v, %v; want %#v", got, ok, want)
	}
}

// TestAnyDefaultValidates sets DefValue texts of every shape on flags of
// every type: whenever For keeps a default, it must validate.
func TestAnyDefaultValidates(t *testing.T) {
	texts := []string{
		"", "0", "1", "-1", "300", "70000", "5000000000", "-9223372036854775809", "18446744073709551615",
		"0x10", "1e3", "1.5", "NaN", "true", "false", "yes", "1s", "0s", "soon",
		"::1", "1.2.3.4", "ffffff00", "255.255.0.0", "10.0.0.0/8", "CAFE", "aGk=", "aGk",
		"[]", "[1,2]", "[a,b]", "[true]", "[1s,2m]", `[a,"b,c"]`, "[1,", "[a=1,b=2]", "[a=x]", "map[a:1]", "map[]", "<nil>",
	}
	for _, tc := range typeCases() {
		for _, text := range texts {
			f := flagFor(t, tc.add)
			f.DefValue = text
			s, err := For(f)
			if err != nil {
				t.Fatal(err)
			}
			if s.Default == nil {
				continue
			}
			if _, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true}); err != nil {
				t.Errorf("%s with DefValue %q: default %s does not validate: %v", tc.kind, text, s.Default, err)
			}
		}
	}
}
