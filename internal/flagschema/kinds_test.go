package flagschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// kindRow is what one entry of the table must do, checked against a real
// pflag flag of its type made by pflag's own constructor (not the
// entry's): one row per kind, and TestKindTable fails for an entry without
// a row.
type kindRow struct {
	name string
	// add defines the flag "f" of the kind with a default that is not
	// zero where pflag's constructor takes one. It returns how to read
	// what the flag holds where Value.String() does not say it in one
	// way (func and boolfunc print nothing: what their function was
	// given; a map prints its keys in any order: the map, keys sorted),
	// else nil.
	add func(fs *pflag.FlagSet) func() string

	schema string // the schema generated for the kind, without description
	note   string // the note the description ends with
	def    string // Default of f as JSON, "" for none

	value string   // a call's value, as JSON (numbers as json.Number)
	argv  []string // the texts Write gives, one "--f=TEXT" each
	read  string   // what the flag holds once pflag parsed the argv (Value.String())

	fresh    bool   // Fresh makes a value for a pin's check
	word     string // the type word pflag's help prints for f
	helpKind string // the kind HelpKind reads that word as, "" for none
}

func intSchemaJSON(signed bool, bits int) string {
	switch {
	case bits == 64 && signed:
		return `{"type":"integer"}`
	case bits == 64:
		return `{"type":"integer","minimum":0}`
	case signed:
		return fmt.Sprintf(`{"type":"integer","minimum":%d,"maximum":%d}`, int64(-1)<<(bits-1), int64(1)<<(bits-1)-1)
	}
	return fmt.Sprintf(`{"type":"integer","minimum":0,"maximum":%d}`, uint64(math.MaxUint64)>>(64-bits))
}

func kindRows() []kindRow {
	var funcGot []string
	record := func(s string) error { funcGot = append(funcGot, s); return nil }
	recorded := func() string { return strings.Join(funcGot, "|") }
	mask := net.IPv4Mask(255, 255, 0, 0)
	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	return []kindRow{
		{name: "bool", add: func(fs *pflag.FlagSet) func() string { fs.Bool("f", true, "u"); return nil },
			schema: `{"type":"boolean"}`, def: `true`,
			value: `false`, argv: []string{"false"}, read: "false", fresh: true, word: "", helpKind: "bool"},
		{name: "boolfunc", add: func(fs *pflag.FlagSet) func() string {
			funcGot = nil
			fs.BoolFunc("f", "u", record)
			return recorded
		},
			schema: `{"type":"boolean"}`,
			value:  `true`, argv: []string{"true"}, read: "true", word: "", helpKind: "bool"},
		{name: "string", add: func(fs *pflag.FlagSet) func() string { fs.String("f", "dflt", "u"); return nil },
			schema: `{"type":"string"}`, def: `"dflt"`,
			value: `"-n, \"q\" a=b"`, argv: []string{`-n, "q" a=b`}, read: `-n, "q" a=b`, fresh: true, word: "string", helpKind: "string"},
		{name: "func", add: func(fs *pflag.FlagSet) func() string {
			funcGot = nil
			fs.Func("f", "u", record)
			return recorded
		},
			schema: `{"type":"string"}`,
			value:  `"x,y"`, argv: []string{"x,y"}, read: "x,y", word: "value"},

		{name: "int", add: func(fs *pflag.FlagSet) func() string { fs.Int("f", 7, "u"); return nil },
			schema: intSchemaJSON(true, strconv.IntSize), def: `7`,
			value: `1e3`, argv: []string{"1000"}, read: "1000", fresh: true, word: "int", helpKind: "int"},
		{name: "int8", add: func(fs *pflag.FlagSet) func() string { fs.Int8("f", -5, "u"); return nil },
			schema: intSchemaJSON(true, 8), def: `-5`,
			value: `-128`, argv: []string{"-128"}, read: "-128", fresh: true, word: "int8", helpKind: "int8"},
		{name: "int16", add: func(fs *pflag.FlagSet) func() string { fs.Int16("f", 300, "u"); return nil },
			schema: intSchemaJSON(true, 16), def: `300`,
			value: `32767`, argv: []string{"32767"}, read: "32767", fresh: true, word: "int16", helpKind: "int16"},
		{name: "int32", add: func(fs *pflag.FlagSet) func() string { fs.Int32("f", -70000, "u"); return nil },
			schema: intSchemaJSON(true, 32), def: `-70000`,
			value: `2.0`, argv: []string{"2"}, read: "2", fresh: true, word: "int32", helpKind: "int32"},
		// pflag's help says "int" for int64.
		{name: "int64", add: func(fs *pflag.FlagSet) func() string { fs.Int64("f", 1<<40, "u"); return nil },
			schema: intSchemaJSON(true, 64), def: `1099511627776`,
			value: `9223372036854775807`, argv: []string{"9223372036854775807"}, read: "9223372036854775807", fresh: true, word: "int", helpKind: "int"},
		{name: "uint", add: func(fs *pflag.FlagSet) func() string { fs.Uint("f", 3, "u"); return nil },
			schema: intSchemaJSON(false, strconv.IntSize), def: `3`,
			value: `42`, argv: []string{"42"}, read: "42", fresh: true, word: "uint", helpKind: "uint"},
		{name: "uint8", add: func(fs *pflag.FlagSet) func() string { fs.Uint8("f", 8, "u"); return nil },
			schema: intSchemaJSON(false, 8), def: `8`,
			value: `255`, argv: []string{"255"}, read: "255", fresh: true, word: "uint8", helpKind: "uint8"},
		{name: "uint16", add: func(fs *pflag.FlagSet) func() string { fs.Uint16("f", 16, "u"); return nil },
			schema: intSchemaJSON(false, 16), def: `16`,
			value: `65535`, argv: []string{"65535"}, read: "65535", fresh: true, word: "uint16", helpKind: "uint16"},
		{name: "uint32", add: func(fs *pflag.FlagSet) func() string { fs.Uint32("f", 32, "u"); return nil },
			schema: intSchemaJSON(false, 32), def: `32`,
			value: `4294967295`, argv: []string{"4294967295"}, read: "4294967295", fresh: true, word: "uint32", helpKind: "uint32"},
		// pflag's help says "uint" for uint64.
		{name: "uint64", add: func(fs *pflag.FlagSet) func() string { fs.Uint64("f", 64, "u"); return nil },
			schema: intSchemaJSON(false, 64), def: `64`,
			value: `18446744073709551615`, argv: []string{"18446744073709551615"}, read: "18446744073709551615", fresh: true, word: "uint", helpKind: "uint"},
		{name: "count", add: func(fs *pflag.FlagSet) func() string { fs.Count("f", "u"); return nil },
			schema: `{"type":"integer","minimum":0}`,
			value:  `3`, argv: []string{"3"}, read: "3", fresh: true, word: "count", helpKind: "count"},
		{name: "float32", add: func(fs *pflag.FlagSet) func() string { fs.Float32("f", 1.5, "u"); return nil },
			schema: `{"type":"number"}`, def: `1.5`,
			value: `0.1`, argv: []string{"0.1"}, read: "0.1", fresh: true, word: "float32", helpKind: "float32"},
		// pflag's help says "float" for float64.
		{name: "float64", add: func(fs *pflag.FlagSet) func() string { fs.Float64("f", 2.5, "u"); return nil },
			schema: `{"type":"number"}`, def: `2.5`,
			value: `1e-7`, argv: []string{"1e-07"}, read: "1e-07", fresh: true, word: "float", helpKind: "float64"},

		{name: "duration", add: func(fs *pflag.FlagSet) func() string { fs.Duration("f", 90*time.Second, "u"); return nil },
			schema: `{"type":"string","pattern":` + strconv.Quote(durationPattern) + `}`, note: durationNote, def: `"1m30s"`,
			value: `"90m"`, argv: []string{"1h30m0s"}, read: "1h30m0s", fresh: true, word: "duration", helpKind: "duration"},
		{name: "ip", add: func(fs *pflag.FlagSet) func() string { fs.IP("f", net.IPv4(10, 0, 0, 1), "u"); return nil },
			schema: `{"type":"string","pattern":` + strconv.Quote(ipPattern) + `,"anyOf":[{"type":"string","format":"ipv4"},{"type":"string","format":"ipv6"}]}`,
			note:   ipNote, def: `"10.0.0.1"`,
			value: `" 0:0::1"`, argv: []string{"::1"}, read: "::1", fresh: true, word: "ip", helpKind: "ip"},
		{name: "ipMask", add: func(fs *pflag.FlagSet) func() string { fs.IPMask("f", mask, "u"); return nil },
			schema: `{"type":"string","pattern":` + strconv.Quote(ipMaskPattern) + `}`, note: ipMaskNote, def: `"ffff0000"`,
			value: `"255.255.255.0"`, argv: []string{"255.255.255.0"}, read: "ffffff00", fresh: true, word: "ipMask", helpKind: "ipMask"},
		{name: "ipNet", add: func(fs *pflag.FlagSet) func() string {
			fs.IPNet("f", net.IPNet{IP: net.IPv4(10, 0, 0, 0), Mask: net.CIDRMask(8, 32)}, "u")
			return nil
		},
			schema: `{"type":"string","pattern":` + strconv.Quote(cidrPattern) + `}`, note: ipNetNote, def: `"10.0.0.0/8"`,
			value: `"192.168.1.7/24"`, argv: []string{"192.168.1.0/24"}, read: "192.168.1.0/24", fresh: true, word: "ipNet", helpKind: "ipNet"},
		{name: "bytesHex", add: func(fs *pflag.FlagSet) func() string { fs.BytesHex("f", []byte{0xca, 0xfe}, "u"); return nil },
			schema: `{"type":"string","pattern":` + strconv.Quote(hexPattern) + `}`, note: hexNote, def: `"CAFE"`,
			value: `"00Ff"`, argv: []string{"00ff"}, read: "00FF", fresh: true, word: "bytesHex", helpKind: "bytesHex"},
		{name: "bytesBase64", add: func(fs *pflag.FlagSet) func() string { fs.BytesBase64("f", []byte("hi"), "u"); return nil },
			schema: `{"type":"string","pattern":` + strconv.Quote(base64Pattern) + `,"contentEncoding":"base64"}`, note: base64Note, def: `"aGk="`,
			value: `"aGk/"`, argv: []string{"aGk/"}, read: "aGk/", fresh: true, word: "bytesBase64", helpKind: "bytesBase64"},
		// time's layouts are its flag's: no fresh value parses as it does.
		{name: "time", add: func(fs *pflag.FlagSet) func() string { fs.Time("f", at, []string{time.RFC3339}, "u"); return nil },
			schema: `{"type":"string"}`, note: "type: time", def: `"2024-01-02T03:04:05Z"`,
			value: `"2024-05-06T07:08:09Z"`, argv: []string{"2024-05-06T07:08:09Z"}, read: "2024-05-06T07:08:09Z", word: "time", helpKind: "time"},

		{name: "stringSlice", add: func(fs *pflag.FlagSet) func() string { fs.StringSlice("f", []string{"a", "b,c"}, "u"); return nil },
			schema: `{"type":"array","items":{"type":"string"}}`, def: `["a","b,c"]`,
			value: `["a,b","\"q\"","-n"]`, argv: []string{`"a,b","""q""",-n`}, read: `["a,b","""q""",-n]`, fresh: true, word: "strings", helpKind: "stringSlice"},
		{name: "stringArray", add: func(fs *pflag.FlagSet) func() string { fs.StringArray("f", []string{"x"}, "u"); return nil },
			schema: `{"type":"array","items":{"type":"string"},"minItems":1}`, def: `["x"]`,
			value: `["x,y","--z=1"]`, argv: []string{"x,y", "--z=1"}, read: `["x,y",--z=1]`, fresh: true, word: "stringArray", helpKind: "stringArray"},
		{name: "intSlice", add: func(fs *pflag.FlagSet) func() string { fs.IntSlice("f", []int{1, 2}, "u"); return nil },
			schema: `{"type":"array","items":` + intSchemaJSON(true, strconv.IntSize) + `,"minItems":1}`, def: `[1,2]`,
			value: `[1,-2]`, argv: []string{"1,-2"}, read: "[1,-2]", fresh: true, word: "ints", helpKind: "intSlice"},
		{name: "int32Slice", add: func(fs *pflag.FlagSet) func() string { fs.Int32Slice("f", []int32{3}, "u"); return nil },
			schema: `{"type":"array","items":` + intSchemaJSON(true, 32) + `,"minItems":1}`, def: `[3]`,
			value: `[-2147483648]`, argv: []string{"-2147483648"}, read: "[-2147483648]", fresh: true, word: "int32Slice", helpKind: "int32Slice"},
		{name: "int64Slice", add: func(fs *pflag.FlagSet) func() string { fs.Int64Slice("f", []int64{1 << 40}, "u"); return nil },
			schema: `{"type":"array","items":{"type":"integer"},"minItems":1}`, def: `[1099511627776]`,
			value: `[1e18]`, argv: []string{"1000000000000000000"}, read: "[1000000000000000000]", fresh: true, word: "int64Slice", helpKind: "int64Slice"},
		{name: "uintSlice", add: func(fs *pflag.FlagSet) func() string { fs.UintSlice("f", []uint{4}, "u"); return nil },
			schema: `{"type":"array","items":` + intSchemaJSON(false, strconv.IntSize) + `,"minItems":1}`, def: `[4]`,
			value: `[0,7]`, argv: []string{"0,7"}, read: "[0,7]", fresh: true, word: "uints", helpKind: "uintSlice"},
		{name: "float32Slice", add: func(fs *pflag.FlagSet) func() string { fs.Float32Slice("f", []float32{0.5}, "u"); return nil },
			schema: `{"type":"array","items":{"type":"number"},"minItems":1}`, note: floatSliceNote, def: `[0.5]`,
			value: `[0.25,-1]`, argv: []string{"0.25,-1"}, read: "[0.250000,-1.000000]", fresh: true, word: "float32Slice", helpKind: "float32Slice"},
		{name: "float64Slice", add: func(fs *pflag.FlagSet) func() string { fs.Float64Slice("f", []float64{2.5}, "u"); return nil },
			schema: `{"type":"array","items":{"type":"number"},"minItems":1}`, note: floatSliceNote, def: `[2.5]`,
			value: `[0.125]`, argv: []string{"0.125"}, read: "[0.125000]", fresh: true, word: "float64Slice", helpKind: "float64Slice"},
		// An empty list is "--f=".
		{name: "boolSlice", add: func(fs *pflag.FlagSet) func() string { fs.BoolSlice("f", []bool{true}, "u"); return nil },
			schema: `{"type":"array","items":{"type":"boolean"}}`, def: `[true]`,
			value: `[]`, argv: []string{""}, read: "[]", fresh: true, word: "bools", helpKind: "boolSlice"},
		{name: "durationSlice", add: func(fs *pflag.FlagSet) func() string {
			fs.DurationSlice("f", []time.Duration{time.Second}, "u")
			return nil
		},
			schema: `{"type":"array","items":{"type":"string","pattern":` + strconv.Quote(durationPattern) + `},"minItems":1}`, note: durationSliceNote, def: `["1s"]`,
			value: `["1s","120s"]`, argv: []string{"1s,2m0s"}, read: "[1s,2m0s]", fresh: true, word: "durationSlice", helpKind: "durationSlice"},
		{name: "ipSlice", add: func(fs *pflag.FlagSet) func() string {
			fs.IPSlice("f", []net.IP{net.IPv4(10, 0, 0, 1)}, "u")
			return nil
		},
			schema: `{"type":"array","items":{"type":"string","pattern":` + strconv.Quote(ipPattern) + `,"anyOf":[{"type":"string","format":"ipv4"},{"type":"string","format":"ipv6"}]}}`,
			note:   ipSliceNote, def: `["10.0.0.1"]`,
			value: `["::1","10.0.0.2"]`, argv: []string{"::1,10.0.0.2"}, read: "[::1,10.0.0.2]", fresh: true, word: "ipSlice", helpKind: "ipSlice"},
		{name: "ipNetSlice", add: func(fs *pflag.FlagSet) func() string {
			fs.IPNetSlice("f", []net.IPNet{{IP: net.IPv4(10, 0, 0, 0), Mask: net.CIDRMask(8, 32)}}, "u")
			return nil
		},
			schema: `{"type":"array","items":{"type":"string","pattern":` + strconv.Quote(cidrPattern) + `}}`, note: ipNetSliceNote, def: `["10.0.0.0/8"]`,
			value: `["192.168.0.0/16"]`, argv: []string{"192.168.0.0/16"}, read: "[192.168.0.0/16]", fresh: true, word: "ipNetSlice", helpKind: "ipNetSlice"},

		{name: "stringToString", add: func(fs *pflag.FlagSet) func() string {
			m := fs.StringToString("f", map[string]string{"a": "1"}, "u")
			return func() string { return fmt.Sprint(*m) } // keys sorted
		},
			schema: `{"type":"object","minProperties":1,"additionalProperties":{"type":"string"},"propertyNames":{"pattern":` + strconv.Quote(stringMapKeyPattern) + `}}`, def: `{"a":"1"}`,
			value: `{"k":"v,w","x":"y"}`, argv: []string{`"k=v,w",x=y`}, read: `map[k:v,w x:y]`, fresh: true, word: "stringToString", helpKind: "stringToString"},
		{name: "stringToInt", add: func(fs *pflag.FlagSet) func() string {
			m := fs.StringToInt("f", map[string]int{"cpu": 2}, "u")
			return func() string { return fmt.Sprint(*m) }
		},
			schema: `{"type":"object","minProperties":1,"additionalProperties":` + intSchemaJSON(true, strconv.IntSize) + `,"propertyNames":{"pattern":` + strconv.Quote(intMapKeyPattern) + `}}`, def: `{"cpu":2}`,
			value: `{"b":-2,"a":1}`, argv: []string{"a=1,b=-2"}, read: "map[a:1 b:-2]", fresh: true, word: "stringToInt", helpKind: "stringToInt"},
		{name: "stringToInt64", add: func(fs *pflag.FlagSet) func() string {
			m := fs.StringToInt64("f", map[string]int64{"mem": 1 << 40}, "u")
			return func() string { return fmt.Sprint(*m) }
		},
			schema: `{"type":"object","minProperties":1,"additionalProperties":{"type":"integer"},"propertyNames":{"pattern":` + strconv.Quote(intMapKeyPattern) + `}}`, def: `{"mem":1099511627776}`,
			value: `{"big":9223372036854775807}`, argv: []string{"big=9223372036854775807"}, read: "map[big:9223372036854775807]", fresh: true, word: "stringToInt64", helpKind: "stringToInt64"},
	}
}

// decodeValue decodes a call's JSON value as a call's input is decoded.
func decodeValue(t *testing.T, s string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("value %s: %v", s, err)
	}
	return v
}

func compactJSONText(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestKindTable checks every entry of the table against a real flag of
// its type: its schema, its default, a value written and parsed back by
// pflag's own command-line parser, its sample, its fresh value, its
// definition and the help word pflag prints for it.
func TestKindTable(t *testing.T) {
	rows := map[string]kindRow{}
	for _, r := range kindRows() {
		if _, dup := rows[r.name]; dup {
			t.Errorf("two rows for %s", r.name)
		}
		rows[r.name] = r
		if _, ok := Lookup(r.name); !ok {
			t.Errorf("row %s: no such kind in the table", r.name)
		}
	}
	for _, k := range Kinds() {
		r, ok := rows[k.Name()]
		if !ok {
			t.Errorf("kind %s has no row in kindRows: add one", k.Name())
			continue
		}
		t.Run(k.Name(), func(t *testing.T) { checkKind(t, k, r) })
	}
}

func checkKind(t *testing.T, k *Kind, r kindRow) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	read := r.add(fs)
	f := fs.Lookup("f")
	if got := KindOf(f); got != k {
		t.Fatalf("KindOf(a real %s flag) = %s", r.name, got.Name())
	}

	// The schema, and its shape.
	s, note := k.typeSchema()
	if got := compactJSONText(t, s); got != r.schema {
		t.Errorf("schema\n got %s\nwant %s", got, r.schema)
	}
	if note != r.note {
		t.Errorf("note %q, want %q", note, r.note)
	}
	if k.IsList() != (s.Type == "array") || k.IsMap() != (s.Type == "object") {
		t.Errorf("IsList %v, IsMap %v for a schema of type %s", k.IsList(), k.IsMap(), s.Type)
	}

	// The default of a real flag.
	v, ok := Default(f)
	switch {
	case r.def == "" && ok:
		t.Errorf("Default = %#v, want none", v)
	case r.def != "" && !ok:
		t.Errorf("Default: none, want %s", r.def)
	case ok:
		if got := compactJSONText(t, v); got != r.def {
			t.Errorf("Default = %s, want %s", got, r.def)
		}
	}

	// A value written, parsed by pflag's own parser, read back.
	argv, err := Write(f, decodeValue(t, r.value))
	if err != nil {
		t.Fatalf("Write(%s): %v", r.value, err)
	}
	if !slices.Equal(argv, r.argv) {
		t.Errorf("Write(%s) = %q, want %q", r.value, argv, r.argv)
	}
	args := make([]string, len(argv))
	for i, a := range argv {
		args[i] = "--f=" + a
	}
	if err := fs.Parse(args); err != nil {
		t.Fatalf("pflag parses %q: %v", args, err)
	}
	holds := func() string {
		if read != nil {
			return read()
		}
		return f.Value.String()
	}
	if got := holds(); got != r.read {
		t.Errorf("after %q the flag holds %q, want %q", args, holds(), r.read)
	}

	// The sample is a text the real flag takes.
	sample, ok := k.Sample()
	if !ok {
		t.Error("no sample")
	} else {
		sfs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		r.add(sfs)
		if err := sfs.Set("f", sample); err != nil {
			t.Errorf("the real flag refuses the sample %q: %v", sample, err)
		}
	}

	// A fresh value for a pin's check: of the same Go type, and a Set on
	// it leaves the flag as it was.
	before := holds()
	fresh, ok := k.Fresh(f.Value)
	if ok != r.fresh {
		t.Fatalf("Fresh: %v, want %v", ok, r.fresh)
	}
	if ok {
		if reflect.TypeOf(fresh) != reflect.TypeOf(f.Value) {
			t.Errorf("Fresh gives a %T for a %T", fresh, f.Value)
		}
		if err := fresh.Set(sample); err != nil {
			t.Errorf("the fresh value refuses the sample %q: %v", sample, err)
		}
		if after := holds(); after != before {
			t.Errorf("setting the fresh value changed the flag: %q, was %q", after, before)
		}
	}

	// The definition: pflag's own value, as its constructor makes it.
	dfs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	if k.Define(dfs, "g", "usage") {
		g := dfs.Lookup("g")
		if reflect.TypeOf(g.Value) != reflect.TypeOf(f.Value) || g.Value.Type() != k.Name() {
			t.Errorf("Define makes a %T of type %q, want a %T of type %q", g.Value, g.Value.Type(), f.Value, k.Name())
		}
		if g.NoOptDefVal != f.NoOptDefVal || g.Usage != "usage" {
			t.Errorf("Define: NoOptDefVal %q, usage %q; pflag's constructor gives %q", g.NoOptDefVal, g.Usage, f.NoOptDefVal)
		}
		if v, ok := Default(g); ok {
			t.Errorf("Define: the default is %#v, want none", v)
		}
	} else if r.fresh {
		t.Error("Define: false, but Fresh makes a value")
	}
	if k.noOpt != f.NoOptDefVal {
		t.Errorf("noOpt %q, but pflag gives %q", k.noOpt, f.NoOptDefVal)
	}

	// The help word pflag prints, read back.
	word, _ := pflag.UnquoteUsage(f)
	if word != r.word {
		t.Errorf("pflag's help word %q, want %q", word, r.word)
	}
	hk, ok := HelpKind(word)
	switch {
	case r.helpKind == "" && ok:
		t.Errorf("HelpKind(%q) = %s, want none", word, hk.Name())
	case r.helpKind != "" && (!ok || hk.Name() != r.helpKind):
		t.Errorf("HelpKind(%q) = %v, want %s", word, hk, r.helpKind)
	}
	if ok && hk == k && k.HelpWords()[0] != word {
		t.Errorf("HelpWords %q: pflag's own word %q is not first", k.HelpWords(), word)
	}
}

// TestHelpWordsNameOneKind: a help word names one kind, and every word of
// a kind reads back as that kind.
func TestHelpWordsNameOneKind(t *testing.T) {
	seen := map[string]string{}
	for _, k := range Kinds() {
		for _, w := range k.HelpWords() {
			if other, dup := seen[w]; dup {
				t.Errorf("help word %q names %s and %s", w, other, k.Name())
			}
			seen[w] = k.Name()
			if got, ok := HelpKind(w); !ok || got != k {
				t.Errorf("HelpKind(%q) = %v, want %s", w, got, k.Name())
			}
		}
	}
	if k, ok := HelpKind("value"); ok {
		t.Errorf("HelpKind(value) = %s: pflag's word for func names no type", k.Name())
	}
}

// TestListOf: every list whose elements are comma-separated is the list
// of its element kind.
func TestListOf(t *testing.T) {
	for _, k := range Kinds() {
		if !k.IsList() || k.form != commaList {
			continue
		}
		if got, ok := ListOf(k.elem); !ok || got != k {
			t.Errorf("ListOf(%s) = %v, want %s", k.elem, got, k.Name())
		}
	}
	for _, elem := range []string{"string", "int8", "time", "custom"} {
		if k, ok := ListOf(elem); ok {
			t.Errorf("ListOf(%s) = %s, want none", elem, k.Name())
		}
	}
}

// TestCustomKind: a type not in the table is text named after its type.
func TestCustomKind(t *testing.T) {
	var p port
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fs.Var(&p, "f", "u")
	f := fs.Lookup("f")
	k := KindOf(f)
	if _, ok := Lookup("port"); ok || k.Name() != "port" {
		t.Fatalf("KindOf = %q", k.Name())
	}
	if _, ok := k.Sample(); ok {
		t.Error("a custom kind has a sample")
	}
	if _, ok := k.Fresh(f.Value); ok {
		t.Error("a custom kind makes a fresh value")
	}
	if k.Define(pflag.NewFlagSet("", pflag.ContinueOnError), "g", "") {
		t.Error("a custom kind defines a flag")
	}
	s, note := k.typeSchema()
	if s.Type != "string" || note != "type: port" {
		t.Errorf("schema %s, note %q", s.Type, note)
	}
	if argv, err := Write(f, "8080"); err != nil || !slices.Equal(argv, []string{"8080"}) {
		t.Errorf("Write = %q, %v", argv, err)
	}
	// A custom value reporting a built-in type's name is no pflag value:
	// no fresh value is made of the built-in type for it.
	var fake fakeInt
	if _, ok := KindOf(&pflag.Flag{Value: &fake}).Fresh(&fake); ok {
		t.Error("Fresh made a pflag int for a custom value of type \"int\"")
	}
}

// fakeInt is a custom value that reports pflag's type name "int".
type fakeInt struct{ s string }

func (v *fakeInt) String() string     { return v.s }
func (v *fakeInt) Set(s string) error { v.s = s; return nil }
func (v *fakeInt) Type() string       { return "int" }
