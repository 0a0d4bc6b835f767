package flagschema

import (
	"maps"
	"math"
	"net"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/pflag"
)

// A Kind is what cobramcp knows about one pflag value type, the values
// whose Type() returns its name: the JSON Schema of its values, how its
// default is read, how a value is written on a command line and checked
// to read back, how a fresh value of it is made, and the word a help page
// shows for it. The kinds are one table (kinds, below); every package
// that needs to know a flag's type reads it here ([KindOf], [Lookup],
// [HelpKind], [ListOf]) and switches on nothing.
//
// A type that is not in the table (a custom [pflag.Value]) has a kind too
// ([KindOf]): its values are text, its schema a string whose description
// names the type.
type Kind struct {
	name string
	// help are the words a help page shows for a flag of the kind,
	// pflag's own (pflag.UnquoteUsage) first; none for a kind that a help
	// page shows as another's (boolfunc as bool).
	help []string
	// elem names the kind of a list's elements or of a map's values;
	// elemK is that kind (set when the table is built).
	elem  string
	elemK *Kind
	// form is how the kind's values are written: one value, a list, a map.
	form *form
	// note is appended to the description of the kind's schema.
	note string

	// One value (form one): its schema, how a text of it (a default, a
	// list's element) is read as JSON, refusing what Set refuses, and
	// how a JSON value is written as a text Set reads back exactly.
	schema func() *jsonschema.Schema
	parse  func(text string) (any, error)
	format func(v any) (string, error)
	// unset reports a default text that means "no default" ("<nil>" for
	// an IP) though parse may not take it.
	unset func(text string) bool

	// define adds a flag of the kind, with its zero default, to fs; nil
	// for a kind whose values only the flag's author can make (func and
	// boolfunc hold the author's function).
	define func(fs *pflag.FlagSet, name, usage string)
	// layouts: a value holds settings of its flag's own (time's layouts),
	// so a fresh one would not parse a text as the flag does.
	layouts bool
	// get is pflag's getter for the kinds whose getter parses the
	// printed value again (the string lists and maps, the float lists):
	// a value is written only if the getter reads it back exactly.
	get func(fs *pflag.FlagSet, name string) (any, error)

	noOpt     string // the NoOptDefVal pflag gives every flag of the kind
	sample    string // a text Set takes
	emptyList bool   // a list of the kind is set to no elements by "--NAME="
	text      bool   // the value is text: annotated, the flag takes any JSON value as its JSON text
}

// kinds is the table: pflag's own types by name. Adding a type is one
// entry here and its row in kinds_test.go (TestKindTable fails without
// it).
var kinds = sync.OnceValue(func() map[string]*Kind {
	list := []*Kind{
		{name: "bool", help: []string{""}, form: one, schema: typed("boolean"),
			parse: parseBool, format: formatBool, unset: empty,
			define: func(fs *pflag.FlagSet, n, u string) { fs.Bool(n, false, u) },
			noOpt:  "true", sample: "true"},
		// boolfunc and func call their author's function: no fresh one.
		{name: "boolfunc", form: one, schema: typed("boolean"),
			parse: parseBool, format: formatBool, unset: empty, noOpt: "true", sample: "true"},
		{name: "string", help: []string{"string"}, form: one, schema: typed("string"),
			parse: verbatim, format: formatText, text: true,
			define: func(fs *pflag.FlagSet, n, u string) { fs.String(n, "", u) }, sample: probeText},
		{name: "func", form: one, schema: typed("string"),
			parse: verbatim, format: formatText, text: true, sample: probeText},

		intKind("int", strconv.IntSize, func(fs *pflag.FlagSet, n, u string) { fs.Int(n, 0, u) }),
		intKind("int8", 8, func(fs *pflag.FlagSet, n, u string) { fs.Int8(n, 0, u) }),
		intKind("int16", 16, func(fs *pflag.FlagSet, n, u string) { fs.Int16(n, 0, u) }),
		intKind("int32", 32, func(fs *pflag.FlagSet, n, u string) { fs.Int32(n, 0, u) }),
		intKind("int64", 64, func(fs *pflag.FlagSet, n, u string) { fs.Int64(n, 0, u) }),
		uintKind("uint", strconv.IntSize, func(fs *pflag.FlagSet, n, u string) { fs.Uint(n, 0, u) }),
		uintKind("uint8", 8, func(fs *pflag.FlagSet, n, u string) { fs.Uint8(n, 0, u) }),
		uintKind("uint16", 16, func(fs *pflag.FlagSet, n, u string) { fs.Uint16(n, 0, u) }),
		uintKind("uint32", 32, func(fs *pflag.FlagSet, n, u string) { fs.Uint32(n, 0, u) }),
		uintKind("uint64", 64, func(fs *pflag.FlagSet, n, u string) { fs.Uint64(n, 0, u) }),
		{name: "count", help: []string{"count"}, form: one, schema: minZero,
			parse: parseCount, format: formatInt("count", true, strconv.IntSize), unset: empty,
			define: func(fs *pflag.FlagSet, n, u string) { fs.Count(n, u) }, noOpt: "+1", sample: "1"},
		{name: "float32", help: []string{"float32"}, form: one, schema: typed("number"),
			parse: parseFloat, format: formatFloat(32),
			define: func(fs *pflag.FlagSet, n, u string) { fs.Float32(n, 0, u) }, sample: "1"},
		// pflag's help says "float" for float64.
		{name: "float64", help: []string{"float", "float64"}, form: one, schema: typed("number"),
			parse: parseFloat, format: formatFloat(64),
			define: func(fs *pflag.FlagSet, n, u string) { fs.Float64(n, 0, u) }, sample: "1"},

		{name: "duration", help: []string{"duration"}, form: one, note: durationNote,
			schema: patterned(durationPattern), parse: parseDuration, format: formatDuration, unset: zeroDuration,
			define: func(fs *pflag.FlagSet, n, u string) { fs.Duration(n, 0, u) }, sample: "1s"},
		{name: "ip", help: []string{"ip"}, form: one, note: ipNote, schema: ipSchema,
			parse: parseIP, format: formatIP, unset: emptyText,
			define: func(fs *pflag.FlagSet, n, u string) { fs.IP(n, nil, u) }, sample: "127.0.0.1"},
		{name: "ipMask", help: []string{"ipMask"}, form: one, note: ipMaskNote,
			schema: patterned(ipMaskPattern), parse: parseIPMask, format: formatIPMask, unset: emptyText,
			define: func(fs *pflag.FlagSet, n, u string) { fs.IPMask(n, nil, u) }, sample: "255.255.255.0"},
		{name: "ipNet", help: []string{"ipNet"}, form: one, note: ipNetNote,
			schema: patterned(cidrPattern), parse: parseIPNet, format: formatIPNet, unset: emptyText,
			define: func(fs *pflag.FlagSet, n, u string) { fs.IPNet(n, net.IPNet{}, u) }, sample: "10.0.0.0/8"},
		{name: "bytesHex", help: []string{"bytesHex"}, form: one, note: hexNote,
			schema: patterned(hexPattern), parse: parseHex, format: formatHex,
			define: func(fs *pflag.FlagSet, n, u string) { fs.BytesHex(n, nil, u) }, sample: "cafe"},
		{name: "bytesBase64", help: []string{"bytesBase64"}, form: one, note: base64Note,
			schema: base64Schema, parse: parseBase64, format: formatBase64,
			define: func(fs *pflag.FlagSet, n, u string) { fs.BytesBase64(n, nil, u) }, sample: "Y29icmFtY3A="},
		// time is read as text: its layouts are its flag's own.
		{name: "time", help: []string{"time"}, form: one, note: "type: time", schema: typed("string"),
			parse: verbatim, format: formatText, unset: emptyText, text: true, layouts: true,
			define: func(fs *pflag.FlagSet, n, u string) {
				fs.Time(n, time.Time{}, []string{time.RFC3339Nano, time.RFC3339, time.DateTime, time.DateOnly}, u)
			}, sample: "2006-01-02T15:04:05Z"},

		{name: "stringSlice", help: []string{"strings"}, elem: "string", form: csvList, emptyList: true,
			define: func(fs *pflag.FlagSet, n, u string) { fs.StringSlice(n, nil, u) },
			get:    func(fs *pflag.FlagSet, n string) (any, error) { return fs.GetStringSlice(n) }, sample: probeText},
		{name: "stringArray", help: []string{"stringArray"}, elem: "string", form: eachList,
			define: func(fs *pflag.FlagSet, n, u string) { fs.StringArray(n, nil, u) },
			get:    func(fs *pflag.FlagSet, n string) (any, error) { return fs.GetStringArray(n) }, sample: probeText},
		{name: "intSlice", help: []string{"ints"}, elem: "int", form: commaList,
			define: func(fs *pflag.FlagSet, n, u string) { fs.IntSlice(n, nil, u) }, sample: "1"},
		{name: "int32Slice", help: []string{"int32Slice"}, elem: "int32", form: commaList,
			define: func(fs *pflag.FlagSet, n, u string) { fs.Int32Slice(n, nil, u) }, sample: "1"},
		{name: "int64Slice", help: []string{"int64Slice"}, elem: "int64", form: commaList,
			define: func(fs *pflag.FlagSet, n, u string) { fs.Int64Slice(n, nil, u) }, sample: "1"},
		{name: "uintSlice", help: []string{"uints"}, elem: "uint", form: commaList,
			define: func(fs *pflag.FlagSet, n, u string) { fs.UintSlice(n, nil, u) }, sample: "1"},
		// pflag's getters read the elements back from six decimals.
		{name: "float32Slice", help: []string{"float32Slice"}, elem: "float32", form: commaList, note: floatSliceNote,
			define: func(fs *pflag.FlagSet, n, u string) { fs.Float32Slice(n, nil, u) },
			get:    func(fs *pflag.FlagSet, n string) (any, error) { return fs.GetFloat32Slice(n) }, sample: "1"},
		{name: "float64Slice", help: []string{"float64Slice"}, elem: "float64", form: commaList, note: floatSliceNote,
			define: func(fs *pflag.FlagSet, n, u string) { fs.Float64Slice(n, nil, u) },
			get:    func(fs *pflag.FlagSet, n string) (any, error) { return fs.GetFloat64Slice(n) }, sample: "1"},
		// boolSlice, ipSlice and ipNetSlice read their value as CSV: "" is
		// the empty list.
		{name: "boolSlice", help: []string{"bools"}, elem: "bool", form: commaList, emptyList: true,
			define: func(fs *pflag.FlagSet, n, u string) { fs.BoolSlice(n, nil, u) }, sample: "true"},
		{name: "durationSlice", help: []string{"durationSlice"}, elem: "duration", form: commaList, note: durationSliceNote,
			define: func(fs *pflag.FlagSet, n, u string) { fs.DurationSlice(n, nil, u) }, sample: "1s"},
		{name: "ipSlice", help: []string{"ipSlice"}, elem: "ip", form: commaList, note: ipSliceNote, emptyList: true,
			define: func(fs *pflag.FlagSet, n, u string) { fs.IPSlice(n, nil, u) }, sample: "127.0.0.1"},
		{name: "ipNetSlice", help: []string{"ipNetSlice"}, elem: "ipNet", form: commaList, note: ipNetSliceNote, emptyList: true,
			define: func(fs *pflag.FlagSet, n, u string) { fs.IPNetSlice(n, nil, u) }, sample: "10.0.0.0/8"},

		{name: "stringToString", help: []string{"stringToString"}, elem: "string", form: pairs,
			define: func(fs *pflag.FlagSet, n, u string) { fs.StringToString(n, nil, u) },
			get:    func(fs *pflag.FlagSet, n string) (any, error) { return fs.GetStringToString(n) }, sample: "k=v"},
		{name: "stringToInt", help: []string{"stringToInt"}, elem: "int", form: intMap,
			define: func(fs *pflag.FlagSet, n, u string) { fs.StringToInt(n, nil, u) },
			get:    func(fs *pflag.FlagSet, n string) (any, error) { return fs.GetStringToInt(n) }, sample: "k=1"},
		{name: "stringToInt64", help: []string{"stringToInt64"}, elem: "int64", form: intMap,
			define: func(fs *pflag.FlagSet, n, u string) { fs.StringToInt64(n, nil, u) },
			get:    func(fs *pflag.FlagSet, n string) (any, error) { return fs.GetStringToInt64(n) }, sample: "k=1"},
	}
	m := make(map[string]*Kind, len(list))
	for _, k := range list {
		m[k.name] = k
	}
	for _, k := range list {
		if k.elem != "" {
			k.elemK = m[k.elem]
		}
	}
	return m
})

// probeText is the sample of the kinds that take any text: a word no
// CLI acts on.
const probeText = "cobramcp-probe"

// intKind is the entry of a signed integer type of the given bit size:
// exact bounds up to 32 bits (see typedInt).
func intKind(name string, bits int, define func(fs *pflag.FlagSet, n, u string)) *Kind {
	return &Kind{name: name, help: []string{name}, form: one, schema: typedInt(true, bits),
		parse: parseInt(true, bits), format: formatInt(name, true, bits), define: define, sample: "1"}
}

// uintKind is the entry of an unsigned integer type of the given bit size.
func uintKind(name string, bits int, define func(fs *pflag.FlagSet, n, u string)) *Kind {
	return &Kind{name: name, help: []string{name}, form: one, schema: typedInt(false, bits),
		parse: parseInt(false, bits), format: formatInt(name, false, bits), define: define, sample: "1"}
}

// Lookup returns the kind of the pflag type named name, and false for a
// name pflag does not define (a custom value's).
func Lookup(name string) (*Kind, bool) {
	k, ok := kinds()[name]
	return k, ok
}

// Kinds returns the table's kinds, by name.
func Kinds() []*Kind {
	return slices.SortedFunc(maps.Values(kinds()), func(a, b *Kind) int { return strings.Compare(a.name, b.name) })
}

// KindOf returns the kind of f's value, by its Type(): the table's entry,
// or for a custom [pflag.Value] a kind of text named after its type (""
// for a flag without a value).
func KindOf(f *pflag.Flag) *Kind {
	name := ""
	if f != nil && f.Value != nil {
		name = f.Value.Type()
	}
	if k, ok := Lookup(name); ok {
		return k
	}
	return custom(name)
}

// custom is the kind of a type not in the table: text, whose schema's
// description names the type.
func custom(name string) *Kind {
	k := &Kind{name: name, form: one, schema: typed("string"), parse: verbatim, format: formatText, unset: emptyText, text: true}
	if name != "" {
		k.note = "type: " + name
	}
	return k
}

// HelpKind returns the kind that a help page's type word names (pflag's
// help format, pflag.UnquoteUsage: "strings" for stringSlice, "" for
// bool), and false for a word that names none of pflag's types.
func HelpKind(word string) (*Kind, bool) {
	k, ok := helpWords()[word]
	return k, ok
}

var helpWords = sync.OnceValue(func() map[string]*Kind {
	m := map[string]*Kind{}
	for _, k := range kinds() {
		for _, w := range k.help {
			m[w] = k
		}
	}
	return m
})

// ListOf returns the kind of the list whose Set takes comma-separated
// elements of the kind elem ("intSlice" for "int"), and false when pflag
// has none (a list of strings is CSV or one element per occurrence).
func ListOf(elem string) (*Kind, bool) {
	for _, k := range kinds() {
		if k.form == commaList && k.elem == elem {
			return k, true
		}
	}
	return nil, false
}

// Name returns the pflag type name: what the value's Type() returns.
func (k *Kind) Name() string { return k.name }

// IsList reports whether the kind's value is a list (served as an array).
func (k *Kind) IsList() bool { return k.form.shape == listShape }

// IsMap reports whether the kind's value is a map (served as an object).
func (k *Kind) IsMap() bool { return k.form.shape == mapShape }

// HelpWords returns the words a help page shows for a flag of the kind,
// pflag's own first; [HelpKind] reads each back as this kind.
func (k *Kind) HelpWords() []string { return append([]string(nil), k.help...) }

// Sample returns a text that a flag of the kind takes, and false for a
// custom type's kind.
func (k *Kind) Sample() (string, bool) { return k.sample, k.sample != "" }

// Define adds to fs a flag of the kind with its zero default, as pflag's
// own constructor makes it (a bool's NoOptDefVal "true"); false for a
// custom type's kind and for func and boolfunc, which hold their author's
// function.
func (k *Kind) Define(fs *pflag.FlagSet, name, usage string) bool {
	if k.define == nil {
		return false
	}
	k.define(fs, name, usage)
	return true
}

// Fresh returns a new value of the kind, sharing nothing with v, for its
// Set to check a text without changing v; false when v is not pflag's own
// value of this kind (a custom value reporting the same type name) or
// when a fresh value would not parse as v does (time's layouts are its
// flag's own).
func (k *Kind) Fresh(v pflag.Value) (pflag.Value, bool) {
	if k.define == nil || k.layouts || v == nil {
		return nil, false
	}
	fs := pflag.NewFlagSet("", pflag.ContinueOnError)
	k.define(fs, "x", "")
	f := fs.Lookup("x")
	if reflect.TypeOf(f.Value) != reflect.TypeOf(v) {
		return nil, false
	}
	return f.Value, true
}

// elemKind returns the kind of a list's elements or a map's values.
func (k *Kind) elemKind() *Kind { return k.elemK }

// A shape is what a kind's value is as JSON.
type shape int

const (
	oneShape  shape = iota // one value
	listShape              // an array
	mapShape               // an object
)

// A form is how the values of a family of kinds are served and written:
// their schema, how a default is read, and how a value is written as the
// texts of "--NAME=TEXT" elements, one element each (name is the flag's,
// for a message).
type form struct {
	shape  shape
	schema func(k *Kind) *jsonschema.Schema
	def    func(k *Kind, f *pflag.Flag) (any, error)
	write  func(k *Kind, name string, v any) ([]string, error)
}

// The forms.
var (
	// one: one value, written as one text.
	one = &form{shape: oneShape, schema: oneSchema, def: oneDefault, write: writeOne}
	// commaList: elements comma-joined in one text (the number, bool,
	// duration and address lists).
	commaList = &form{shape: listShape, schema: listSchema, def: listDefault, write: writeCommaList}
	// csvList: the elements as one CSV record (stringSlice).
	csvList = &form{shape: listShape, schema: listSchema, def: listDefault, write: writeCSVList}
	// eachList: one element per occurrence (stringArray).
	eachList = &form{shape: listShape, schema: listSchema, def: listDefault, write: writeEach}
	// pairs: key=value pairs, CSV where needed (stringToString).
	pairs = &form{shape: mapShape, schema: mapSchemaOf(stringMapKeyPattern), def: mapDefault(true), write: writeStringMap}
	// intMap: key=integer pairs comma-joined (stringToInt, stringToInt64).
	intMap = &form{shape: mapShape, schema: mapSchemaOf(intMapKeyPattern), def: mapDefault(false), write: writeIntMap}
)

// Schemas of one value.

func typed(t string) func() *jsonschema.Schema {
	return func() *jsonschema.Schema { return &jsonschema.Schema{Type: t} }
}

func patterned(p string) func() *jsonschema.Schema {
	return func() *jsonschema.Schema { return &jsonschema.Schema{Type: "string", Pattern: p} }
}

func minZero() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(0.0)}
}

func ipSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: ipPattern, AnyOf: []*jsonschema.Schema{
		{Type: "string", Format: "ipv4"},
		{Type: "string", Format: "ipv6"},
	}}
}

func base64Schema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: base64Pattern, ContentEncoding: "base64"}
}

// typedInt is the schema of an integer type of the given bit size.
//
// The sized types up to 32 bits get exact minimum and maximum.
// jsonschema-go stores bounds as float64, which cannot hold 2^63-1 or
// 2^64-1 exactly; rather than a bound that is off by one (and shows a
// misleading number to a model), the 64-bit types get no maximum, int64
// no minimum, and the unsigned types minimum 0. int and uint follow the
// platform's int size.
func typedInt(signed bool, bits int) func() *jsonschema.Schema {
	switch {
	case bits == 64 && signed:
		return typed("integer")
	case bits == 64:
		return minZero
	case signed:
		lo, hi := float64(int64(-1)<<(bits-1)), float64(int64(1)<<(bits-1)-1)
		return func() *jsonschema.Schema { return intSchema(lo, hi) }
	}
	hi := float64(uint64(math.MaxUint64) >> (64 - bits))
	return func() *jsonschema.Schema { return intSchema(0, hi) }
}
