package flagschema

import (
	"encoding/json"
	"net"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/pflag"
)

// Custom pflag.Value types in the manner of real CLIs.

// tristate is a bool-like value with a third state (like kubectl's).
type tristate string

func (t *tristate) String() string     { return string(*t) }
func (t *tristate) Set(s string) error { *t = tristate(s); return nil }
func (t *tristate) Type() string       { return "tristate" }
func (t *tristate) IsBoolFlag() bool   { return true }

// mapStringString prints like a Go map (like docker's opts).
type mapStringString map[string]string

func (m mapStringString) String() string {
	if len(m) == 0 {
		return "map[]"
	}
	var b strings.Builder
	b.WriteString("map[")
	first := true
	for k, v := range m {
		if !first {
			b.WriteString(" ")
		}
		first = false
		b.WriteString(k + ":" + v)
	}
	b.WriteString("]")
	return b.String()
}
func (m mapStringString) Set(s string) error {
	k, v, _ := strings.Cut(s, "=")
	m[k] = v
	return nil
}
func (m mapStringString) Type() string { return "mapStringString" }

// list is a custom slice value that also implements pflag.SliceValue.
type list []string

func (l *list) String() string           { return "[" + strings.Join(*l, ",") + "]" }
func (l *list) Set(s string) error       { *l = append(*l, s); return nil }
func (l *list) Type() string             { return "list" }
func (l *list) Append(s string) error    { *l = append(*l, s); return nil }
func (l *list) Replace(s []string) error { *l = s; return nil }
func (l *list) GetSlice() []string       { return *l }

// port is a custom numeric value.
type port int

func (p *port) String() string { return strconv.Itoa(int(*p)) }
func (p *port) Set(s string) error {
	n, err := strconv.Atoi(s)
	*p = port(n)
	return err
}
func (p *port) Type() string { return "port" }

// nilString is a custom value whose zero prints as <nil>.
type nilString struct{ p *string }

func (n *nilString) String() string {
	if n.p == nil {
		return "<nil>"
	}
	return *n.p
}
func (n *nilString) Set(s string) error { n.p = &s; return nil }
func (n *nilString) Type() string       { return "filter" }

// mustCIDR parses a CIDR for test flag defaults.
func mustCIDR(t testing.TB, s string) net.IPNet {
	t.Helper()
	_, n, err := net.ParseCIDR(s)
	if err != nil {
		t.Fatal(err)
	}
	return *n
}

// jsonEqual fails t unless got marshals to the same JSON value as want.
func jsonEqual(t *testing.T, got any, want string) {
	t.Helper()
	raw, err := json.Marshal(got)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var g, w any
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatalf("unmarshal got: %v", err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want %s: %v", want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got  %s\nwant %s", raw, want)
	}
}

// platform-dependent schemas of int and uint.
func intWant() string {
	if strconv.IntSize == 32 {
		return `"type":"integer","minimum":-2147483648,"maximum":2147483647`
	}
	return `"type":"integer"`
}

func uintWant() string {
	if strconv.IntSize == 32 {
		return `"type":"integer","minimum":0,"maximum":4294967295`
	}
	return `"type":"integer","minimum":0`
}

const (
	durPat  = `"^[-+]?(0|(([0-9]+\\.?[0-9]*|\\.[0-9]+)([nuµμm]?s|m|h))+)$"`
	ipAny   = `"pattern":"^[0-9A-Fa-f:.]+$","anyOf":[{"type":"string","format":"ipv4"},{"type":"string","format":"ipv6"}]`
	cidrPat = `"^[0-9A-Fa-f:.]+/[0-9]{1,3}$"`
)

// typeCase builds one flag named "x" with a non-zero default and gives the
// whole schema For must return.
type typeCase struct {
	kind string
	add  func(t testing.TB, fs *pflag.FlagSet)
	want string
}

func typeCases() []typeCase {
	return []typeCase{
		{"bool", func(_ testing.TB, fs *pflag.FlagSet) { fs.Bool("x", true, "u") },
			`{"type":"boolean","description":"u","default":true}`},
		{"string", func(_ testing.TB, fs *pflag.FlagSet) { fs.String("x", "hi", "u") },
			`{"type":"string","description":"u","default":"hi"}`},
		{"int", func(_ testing.TB, fs *pflag.FlagSet) { fs.Int("x", -7, "u") },
			`{` + intWant() + `,"description":"u","default":-7}`},
		{"int8", func(_ testing.TB, fs *pflag.FlagSet) { fs.Int8("x", 3, "u") },
			`{"type":"integer","minimum":-128,"maximum":127,"description":"u","default":3}`},
		{"int16", func(_ testing.TB, fs *pflag.FlagSet) { fs.Int16("x", -300, "u") },
			`{"type":"integer","minimum":-32768,"maximum":32767,"description":"u","default":-300}`},
		{"int32", func(_ testing.TB, fs *pflag.FlagSet) { fs.Int32("x", 1<<20, "u") },
			`{"type":"integer","minimum":-2147483648,"maximum":2147483647,"description":"u","default":1048576}`},
		{"int64", func(_ testing.TB, fs *pflag.FlagSet) { fs.Int64("x", 1<<40, "u") },
			`{"type":"integer","description":"u","default":1099511627776}`},
		{"uint", func(_ testing.TB, fs *pflag.FlagSet) { fs.Uint("x", 7, "u") },
			`{` + uintWant() + `,"description":"u","default":7}`},
		{"uint8", func(_ testing.TB, fs *pflag.FlagSet) { fs.Uint8("x", 255, "u") },
			`{"type":"integer","minimum":0,"maximum":255,"description":"u","default":255}`},
		{"uint16", func(_ testing.TB, fs *pflag.FlagSet) { fs.Uint16("x", 8080, "u") },
			`{"type":"integer","minimum":0,"maximum":65535,"description":"u","default":8080}`},
		{"uint32", func(_ testing.TB, fs *pflag.FlagSet) { fs.Uint32("x", 1, "u") },
			`{"type":"integer","minimum":0,"maximum":4294967295,"description":"u","default":1}`},
		{"uint64", func(_ testing.TB, fs *pflag.FlagSet) { fs.Uint64("x", 1<<33, "u") },
			`{"type":"integer","minimum":0,"description":"u","default":8589934592}`},
		{"float32", func(_ testing.TB, fs *pflag.FlagSet) { fs.Float32("x", 0.1, "u") },
			`{"type":"number","description":"u","default":0.1}`},
		{"float64", func(_ testing.TB, fs *pflag.FlagSet) { fs.Float64("x", 2.5, "u") },
			`{"type":"number","description":"u","default":2.5}`},
		{"count", func(_ testing.TB, fs *pflag.FlagSet) { fs.CountP("x", "v", "u") },
			`{"type":"integer","minimum":0,"description":"u"}`},
		{"duration", func(_ testing.TB, fs *pflag.FlagSet) { fs.Duration("x", 90*time.Second, "u") },
			`{"type":"string","pattern":` + durPat + `,"description":"u (Go duration such as 30s, 5m, 1h30m)","default":"1m30s"}`},
		{"ip", func(_ testing.TB, fs *pflag.FlagSet) { fs.IP("x", net.ParseIP("::1"), "u") },
			`{"type":"string",` + ipAny + `,"description":"u (IPv4 or IPv6 address)","default":"::1"}`},
		{"ipMask", func(_ testing.TB, fs *pflag.FlagSet) { fs.IPMask("x", net.IPv4Mask(255, 255, 0, 0), "u") },
			`{"type":"string","pattern":"^([0-9]{1,3}(\\.[0-9]{1,3}){3}|[0-9A-Fa-f]{8})$","description":"u (IPv4 mask such as 255.255.255.0 or ffffff00)","default":"ffff0000"}`},
		{"ipNet", func(t testing.TB, fs *pflag.FlagSet) { fs.IPNet("x", mustCIDR(t, "10.0.0.0/8"), "u") },
			`{"type":"string","pattern":` + cidrPat + `,"description":"u (CIDR network such as 10.0.0.0/8 or 2001:db8::/32)","default":"10.0.0.0/8"}`},
		{"bytesHex", func(_ testing.TB, fs *pflag.FlagSet) { fs.BytesHex("x", []byte{0xca, 0xfe}, "u") },
			`{"type":"string","pattern":"^([0-9A-Fa-f]{2})*$","description":"u (hex-encoded bytes)","default":"CAFE"}`},
		{"bytesBase64", func(_ testing.TB, fs *pflag.FlagSet) { fs.BytesBase64("x", []byte("hi"), "u") },
			`{"type":"string","pattern":"^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$","contentEncoding":"base64","description":"u (base64-encoded bytes)","default":"aGk="}`},
		{"stringSlice", func(_ testing.TB, fs *pflag.FlagSet) { fs.StringSlice("x", []string{"a", "b,c", `d"e`}, "u") },
			`{"type":"array","items":{"type":"string"},"description":"u","default":["a","b,c","d\"e"]}`},
		{"stringArray", func(_ testing.TB, fs *pflag.FlagSet) { fs.StringArray("x", []string{"a b", "c,d"}, "u") },
			`{"type":"array","items":{"type":"string"},"description":"u","default":["a b","c,d"],"minItems":1}`},
		{"intSlice", func(_ testing.TB, fs *pflag.FlagSet) { fs.IntSlice("x", []int{1, -2}, "u") },
			`{"type":"array","items":{` + intWant() + `},"description":"u","default":[1,-2],"minItems":1}`},
		{"int32Slice", func(_ testing.TB, fs *pflag.FlagSet) { fs.Int32Slice("x", []int32{3}, "u") },
			`{"type":"array","items":{"type":"integer","minimum":-2147483648,"maximum":2147483647},"description":"u","default":[3],"minItems":1}`},
		{"int64Slice", func(_ testing.TB, fs *pflag.FlagSet) { fs.Int64Slice("x", []int64{1 << 40}, "u") },
			`{"type":"array","items":{"type":"integer"},"description":"u","default":[1099511627776],"minItems":1}`},
		{"uintSlice", func(_ testing.TB, fs *pflag.FlagSet) { fs.UintSlice("x", []uint{0, 9}, "u") },
			`{"type":"array","items":{` + uintWant() + `},"description":"u","default":[0,9],"minItems":1}`},
		{"float32Slice", func(_ testing.TB, fs *pflag.FlagSet) { fs.Float32Slice("x", []float32{0.5, 1}, "u") },
			`{"type":"array","items":{"type":"number"},"description":"u (each with at most six decimal places, as pflag reads the list back)","default":[0.5,1],"minItems":1}`},
		{"float64Slice", func(_ testing.TB, fs *pflag.FlagSet) { fs.Float64Slice("x", []float64{1e-3}, "u") },
			`{"type":"array","items":{"type":"number"},"description":"u (each with at most six decimal places, as pflag reads the list back)","default":[0.001],"minItems":1}`},
		{"boolSlice", func(_ testing.TB, fs *pflag.FlagSet) { fs.BoolSlice("x", []bool{true, false}, "u") },
			`{"type":"array","items":{"type":"boolean"},"description":"u","default":[true,false]}`},
		{"durationSlice", func(_ testing.TB, fs *pflag.FlagSet) {
			fs.DurationSlice("x", []time.Duration{time.Second, 0, 90 * time.Minute}, "u")
		},
			`{"type":"array","items":{"type":"string","pattern":` + durPat + `},"description":"u (each a Go duration such as 30s, 5m, 1h30m)","default":["1s","0s","1h30m0s"],"minItems":1}`},
		{"ipSlice", func(_ testing.TB, fs *pflag.FlagSet) {
			fs.IPSlice("x", []net.IP{net.ParseIP("1.2.3.4"), net.ParseIP("fe80::1")}, "u")
		},
			`{"type":"array","items":{"type":"string",` + ipAny + `},"description":"u (IPv4 or IPv6 addresses)","default":["1.2.3.4","fe80::1"]}`},
		{"ipNetSlice", func(t testing.TB, fs *pflag.FlagSet) {
			fs.IPNetSlice("x", []net.IPNet{mustCIDR(t, "10.0.0.0/8"), mustCIDR(t, "2001:db8::/32")}, "u")
		},
			`{"type":"array","items":{"type":"string","pattern":` + cidrPat + `},"description":"u (CIDR networks such as 10.0.0.0/8 or 2001:db8::/32)","default":["10.0.0.0/8","2001:db8::/32"]}`},
		{"stringToString", func(_ testing.TB, fs *pflag.FlagSet) {
			fs.StringToString("x", map[string]string{"a": "1", "b": "x,y", "c": `q"`}, "u")
		},
			`{"type":"object","additionalProperties":{"type":"string"},"description":"u","default":{"a":"1","b":"x,y","c":"q\""},"minProperties":1,"propertyNames":{"pattern":"^[^=]*$"}}`},
		{"stringToInt", func(_ testing.TB, fs *pflag.FlagSet) { fs.StringToInt("x", map[string]int{"a": 1, "b": -2}, "u") },
			`{"type":"object","additionalProperties":{` + intWant() + `},"description":"u","default":{"a":1,"b":-2},"minProperties":1,"propertyNames":{"pattern":"^([^,=\\[\\]][^,=]*)?$"}}`},
		{"stringToInt64", func(_ testing.TB, fs *pflag.FlagSet) {
			fs.StringToInt64("x", map[string]int64{"big": 1 << 40}, "u")
		},
			`{"type":"object","additionalProperties":{"type":"integer"},"description":"u","default":{"big":1099511627776},"minProperties":1,"propertyNames":{"pattern":"^([^,=\\[\\]][^,=]*)?$"}}`},
		{"func", func(_ testing.TB, fs *pflag.FlagSet) { fs.Func("x", "u", func(string) error { return nil }) },
			`{"type":"string","description":"u"}`},
		{"boolfunc", func(_ testing.TB, fs *pflag.FlagSet) { fs.BoolFunc("x", "u", func(string) error { return nil }) },
			`{"type":"boolean","description":"u"}`},
		{"time", func(_ testing.TB, fs *pflag.FlagSet) {
			fs.Time("x", time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), []string{time.RFC3339}, "u")
		},
			`{"type":"string","description":"u (type: time)","default":"2024-01-02T03:04:05Z"}`},
		// Custom pflag.Value types.
		{"tristate", func(_ testing.TB, fs *pflag.FlagSet) {
			v := tristate("auto")
			fs.Var(&v, "x", "u")
			fs.Lookup("x").NoOptDefVal = "true"
		},
			`{"type":"string","description":"u (type: tristate; if given without a value: true)","default":"auto"}`},
		{"mapStringString", func(_ testing.TB, fs *pflag.FlagSet) { fs.Var(mapStringString{}, "x", "u") },
			`{"type":"string","description":"u (type: mapStringString)"}`},
		// A custom value that accumulates is served as an array; no default:
		// whether the first element replaces it is the value's own rule.
		{"list", func(_ testing.TB, fs *pflag.FlagSet) { fs.Var(&list{"a"}, "x", "u") },
			`{"type":"array","items":{"type":"string"},"description":"u (Repeatable: each element is given to the flag as its own --x=ELEMENT, verbatim, in order.)"}`},
		{"port", func(_ testing.TB, fs *pflag.FlagSet) {
			p := port(8080)
			fs.Var(&p, "x", "u")
		},
			`{"type":"string","description":"u (type: port)","default":"8080"}`},
		{"filter", func(_ testing.TB, fs *pflag.FlagSet) { fs.Var(&nilString{}, "x", "") },
			`{"type":"string","description":"(type: filter)"}`},
	}
}

// flagFor builds the flag of one case.
func flagFor(t testing.TB, add func(testing.TB, *pflag.FlagSet)) *pflag.Flag {
	t.Helper()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	add(t, fs)
	f := fs.Lookup("x")
	if f == nil {
		t.Fatal("case does not define flag x")
	}
	return f
}

func TestForEveryType(t *testing.T) {
	for _, tc := range typeCases() {
		t.Run(tc.kind, func(t *testing.T) {
			f := flagFor(t, tc.add)
			if got := KindOf(f).Name(); got != tc.kind {
				t.Fatalf("Kind = %q, want %q", got, tc.kind)
			}
			s, err := For(f)
			if err != nil {
				t.Fatalf("For: %v", err)
			}
			jsonEqual(t, s, tc.want)
		})
	}
}

// TestEveryTypeCovered fails when a built-in type has no case above.
func TestEveryTypeCovered(t *testing.T) {
	covered := map[string]bool{}
	for _, tc := range typeCases() {
		covered[tc.kind] = true
	}
	for _, k := range []string{
		"bool", "string", "int", "int8", "int16", "int32", "int64",
		"uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
		"count", "duration", "ip", "ipMask", "ipNet", "bytesHex", "bytesBase64",
		"stringSlice", "stringArray", "intSlice", "int32Slice", "int64Slice", "uintSlice",
		"float32Slice", "float64Slice", "boolSlice", "durationSlice", "ipSlice", "ipNetSlice",
		"stringToString", "stringToInt", "stringToInt64",
	} {
		if !covered[k] {
			t.Errorf("no case for %s", k)
		}
		if _, ok := Lookup(k); !ok {
			t.Errorf("Lookup(%q) = false", k)
		}
	}
}

// TestGeneratedSchemasResolve checks that every generated schema resolves
// with jsonschema-go and that its default validates against it.
func TestGeneratedSchemasResolve(t *testing.T) {
	for _, tc := range typeCases() {
		t.Run(tc.kind, func(t *testing.T) {
			s, err := For(flagFor(t, tc.add))
			if err != nil {
				t.Fatal(err)
			}
			rs, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			if s.Default == nil {
				return
			}
			var d any
			if err := json.Unmarshal(s.Default, &d); err != nil {
				t.Fatal(err)
			}
			if err := rs.Validate(d); err != nil {
				t.Errorf("default %s does not validate: %v", s.Default, err)
			}
		})
	}
}

// TestValuesValidate checks the generated schemas against values that the
// pflag type accepts and values it refuses.
func TestValuesValidate(t *testing.T) {
	tests := []struct {
		kind   string
		valid  []any
		refuse []any
	}{
		{"int8", []any{-128, 127, 0}, []any{128, -129, 1.5, "1"}},
		{"uint8", []any{0, 255}, []any{-1, 256}},
		{"int16", []any{-32768, 32767}, []any{32768}},
		{"uint16", []any{65535}, []any{65536}},
		{"int32", []any{int64(-2147483648), int64(2147483647)}, []any{int64(2147483648)}},
		{"uint32", []any{int64(4294967295)}, []any{int64(4294967296), -1}},
		{"int64", []any{int64(-9223372036854775808), int64(9223372036854775807)}, []any{0.5}},
		{"uint64", []any{uint64(18446744073709551615)}, []any{-1}},
		{"count", []any{0, 3}, []any{-1}},
		{"bool", []any{true, false}, []any{"true", 1}},
		{"float64", []any{1.5, 2}, []any{"1.5"}},
		{"duration", []any{"0", "1h30m", "-1.5s", "300ms", "2µs"}, []any{"1", "1 h", "", "h", 30}},
		{"ip", []any{"1.2.3.4", "::1", "::ffff:1.2.3.4", "fe80::1"}, []any{"localhost", "", "1.2.3.4/8", 4}},
		{"bytesHex", []any{"", "cafe", "CAFE00"}, []any{"caf", "zz"}},
		{"bytesBase64", []any{"", "aGk=", "aGkh", "aA=="}, []any{"aGk", "a===", "!!!!"}},
		{"ipMask", []any{"255.255.255.0", "ffffff00"}, []any{"/24", "ffff"}},
		{"ipNet", []any{"10.0.0.0/8", "2001:db8::/32"}, []any{"10.0.0.0", "x/8"}},
		{"stringSlice", []any{[]any{}, []any{"a"}}, []any{"a", []any{1}}},
		{"intSlice", []any{[]any{1, 2}}, []any{[]any{"1"}, []any{1.5}}},
		{"int32Slice", []any{[]any{1}}, []any{[]any{int64(2147483648)}}},
		{"boolSlice", []any{[]any{true}}, []any{[]any{"true"}}},
		{"durationSlice", []any{[]any{"1s", "2m"}}, []any{[]any{"2"}}},
		{"stringToString", []any{map[string]any{"a": "b"}}, []any{map[string]any{"a": 1}, []any{}}},
		{"stringToInt", []any{map[string]any{"a": 1}}, []any{map[string]any{"a": "1"}}},
		{"stringToInt64", []any{map[string]any{"a": int64(1 << 40)}}, []any{map[string]any{"a": 0.5}}},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			k, _ := Lookup(tt.kind)
			s, _ := k.typeSchema()
			rs, err := s.Resolve(nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range tt.valid {
				if err := rs.Validate(v); err != nil {
					t.Errorf("%#v refused: %v", v, err)
				}
			}
			for _, v := range tt.refuse {
				if err := rs.Validate(v); err == nil {
					t.Errorf("%#v accepted", v)
				}
			}
		})
	}
}

// TestForIsFresh checks that changing a returned schema changes nothing
// that a later call returns.
func TestForIsFresh(t *testing.T) {
	for _, tc := range typeCases() {
		f := flagFor(t, tc.add)
		s1, _ := For(f)
		s1.Description = "changed"
		s1.Type = "null"
		if s1.Items != nil {
			s1.Items.Type = "null"
		}
		if s1.AdditionalProperties != nil {
			s1.AdditionalProperties.Type = "null"
		}
		s2, _ := For(f)
		jsonEqual(t, s2, tc.want)
	}
}

func TestDescription(t *testing.T) {
	tests := []struct {
		name string
		add  func(fs *pflag.FlagSet)
		want string
	}{
		{"usage", func(fs *pflag.FlagSet) { fs.String("x", "", "the name") }, "the name"},
		{"backquoted name", func(fs *pflag.FlagSet) { fs.String("x", "", "read `file` first") }, "read file first"},
		{"trimmed", func(fs *pflag.FlagSet) { fs.String("x", "", "  padded \n") }, "padded"},
		{"no usage", func(fs *pflag.FlagSet) { fs.String("x", "", "") }, ""},
		{"no usage with note", func(fs *pflag.FlagSet) { fs.Duration("x", 0, "") }, "(Go duration such as 30s, 5m, 1h30m)"},
		{"NoOptDefVal", func(fs *pflag.FlagSet) {
			fs.String("x", "", "color output")
			fs.Lookup("x").NoOptDefVal = "always"
		}, "color output (if given without a value: always)"},
		{"NoOptDefVal with type note", func(fs *pflag.FlagSet) {
			fs.Duration("x", 0, "wait")
			fs.Lookup("x").NoOptDefVal = "1m"
		}, "wait (Go duration such as 30s, 5m, 1h30m; if given without a value: 1m)"},
		{"bool NoOptDefVal true is implied", func(fs *pflag.FlagSet) { fs.Bool("x", false, "verbose") }, "verbose"},
		{"bool NoOptDefVal other", func(fs *pflag.FlagSet) {
			fs.Bool("x", true, "verbose")
			fs.Lookup("x").NoOptDefVal = "false"
		}, "verbose (if given without a value: false)"},
		{"count +1 is implied", func(fs *pflag.FlagSet) { fs.Count("x", "verbosity") }, "verbosity"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
			tt.add(fs)
			s, err := For(fs.Lookup("x"))
			if err != nil {
				t.Fatal(err)
			}
			if s.Description != tt.want {
				t.Errorf("description = %q, want %q", s.Description, tt.want)
			}
		})
	}
}

func TestDeprecated(t *testing.T) {
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	fs.String("old", "", "u")
	fs.String("new", "", "u")
	if err := fs.MarkDeprecated("old", "use --new"); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"old": true, "new": false} {
		s, err := For(fs.Lookup(name))
		if err != nil {
			t.Fatal(err)
		}
		if s.Deprecated != want {
			t.Errorf("--%s: Deprecated = %v, want %v", name, s.Deprecated, want)
		}
	}
}

func TestNilFlag(t *testing.T) {
	s, err := For(nil)
	if err != nil || s == nil || s.Type != "string" {
		t.Errorf("For(nil) = %v, %v; want a string schema", s, err)
	}
	if v, ok := Default(nil); ok {
		t.Errorf("Default(nil) = %v, true", v)
	}
	if Annotated(nil) {
		t.Error("Annotated(nil) = true")
	}
	if k := KindOf(nil).Name(); k != "" {
		t.Errorf("KindOf(nil).Name() = %q", k)
	}
}
