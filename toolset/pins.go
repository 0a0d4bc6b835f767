package toolset

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/cobramcp/cobramcp/internal/exec"
	"github.com/cobramcp/cobramcp/internal/flagschema"
	"github.com/cobramcp/cobramcp/internal/schemacheck"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/pflag"
)

// toolPins is what the pins of a view make of one tool that takes a
// pinned flag: the flags fixed, the command line that writes them, and
// the schema a call is checked against.
type toolPins struct {
	names []string         // the pinned flags' names, sorted
	line  exec.CommandLine // the tool's command line with the pins as Fixed elements (claims' aside)
	check *validator       // the tool's input schema without the pinned flags
	// claims are the pins to a claim of the caller, by flag name: their
	// texts join line.Fixed at each call.
	claims map[string]Pin
}

// validator resolves a schema at its first use.
type validator struct {
	schema   *jsonschema.Schema
	once     sync.Once
	resolved *jsonschema.Resolved // a private copy of schema, resolved
	quick    *schemacheck.Checker // the fast checker of that copy
	err      error
}

func newValidator(s *jsonschema.Schema) *validator { return &validator{schema: s} }

// get returns the resolved schema and its fast checker. It resolves a
// private deep copy at the first call: the published schema shares the
// subschemas of inherited flags with other tools, and resolving writes into
// a schema.
func (v *validator) get() (*jsonschema.Resolved, *schemacheck.Checker, error) {
	v.once.Do(func() {
		v.resolved, v.err = v.schema.CloneSchemas().Resolve(nil)
		if v.err != nil {
			v.err = fmt.Errorf("input schema does not resolve: %w", v.err)
			return
		}
		v.quick, _ = schemacheck.New(v.resolved.Schema())
	})
	return v.resolved, v.quick, v.err
}

// pinTexts checks pin's value for t's flag f with the flag's own parser
// (pflag.Value.Set on a fresh value of the flag's type) and against the
// flag's schema, and returns the texts to write, one "--NAME=TEXT" element
// each: the value as given, or, for a list flag given a JSON array
// ('["a,b","c"]'), the array written by package exec as the flag's parser
// reads it back.
func pinTexts(t *Tool, f *pflag.Flag, pin Pin) ([]string, error) {
	prop := t.flagSchemaOf(pin.Flag)
	if prop == nil {
		return nil, fmt.Errorf("flag --%s (pinned %s): tool %s has no schema for it", pin.Flag, pin.From, t.Name)
	}
	bad := func(why string) error {
		return fmt.Errorf("flag --%s=%s (pinned %s): %s", pin.Flag, pin.Value, pin.From, why)
	}
	texts := []string{pin.Value}
	if _, ok := f.Value.(pflag.SliceValue); ok && strings.HasPrefix(strings.TrimSpace(pin.Value), "[") {
		var list []any
		if jsonDecode([]byte(strings.TrimSpace(pin.Value)), &list) == nil {
			fs := pflag.NewFlagSet("", pflag.ContinueOnError)
			cp := *f
			cp.Shorthand = ""
			fs.AddFlag(&cp)
			line := exec.CommandLine{Name: t.Name, Flags: fs}
			argv, err := line.Argv(map[string]any{f.Name: list}, nil, nil)
			if err != nil {
				return nil, bad(err.Error())
			}
			texts = texts[:0]
			for _, a := range argv {
				texts = append(texts, strings.TrimPrefix(a, "--"+f.Name+"="))
			}
		}
	}
	for _, text := range texts {
		if strings.IndexByte(text, 0) >= 0 {
			return nil, bad("a NUL byte cannot be passed on a command line")
		}
	}
	v, ok := freshValue(f.Value)
	if ok {
		for _, text := range texts {
			if err := v.Set(text); err != nil {
				return nil, bad(setProblem(prop, err))
			}
		}
	}
	doc, ok := pinnedJSON(f, v, prop, pin.Value)
	if !ok {
		return texts, nil
	}
	r, err := prop.CloneSchemas().Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("flag --%s: its schema does not resolve: %w", pin.Flag, err)
	}
	if err := r.Validate(doc); err != nil {
		return nil, bad(schemaProblem(err, prop, "", doc))
	}
	return texts, nil
}

// setProblem words the error of a flag's parser for a pin, as a person
// would fix it.
func setProblem(prop *jsonschema.Schema, err error) string {
	switch {
	case schemaHas(prop, "boolean"):
		return "want true or false"
	case schemaHas(prop, "integer"), schemaHas(prop, "number"):
		return "want a number"
	}
	return err.Error()
}

func schemaHas(prop *jsonschema.Schema, typ string) bool {
	return prop.Type == typ || slices.Contains(prop.Types, typ)
}

// pinnedJSON is the value of a pinned flag as its schema describes it,
// read from what the flag's own parser made of it (v, nil when no fresh
// value could be made) or, for a string, from the text itself; false when
// the schema's type is not one read so (an object, a list of objects).
func pinnedJSON(f *pflag.Flag, v pflag.Value, prop *jsonschema.Schema, text string) (any, bool) {
	plain := func(s string) (any, bool) {
		var out any
		if json.Unmarshal([]byte(s), &out) != nil {
			return nil, false
		}
		return out, true
	}
	switch {
	case schemaHas(prop, "string") || prop.Type == "" && len(prop.Types) == 0 && len(prop.Enum) > 0:
		return text, true
	case flagschema.Annotated(f):
		// A flag whose value is JSON text (see flagschema.Annotation).
		if d, ok := plain(text); ok {
			return d, true
		}
		return text, true
	case v == nil:
		return nil, false
	case schemaHas(prop, "boolean"), schemaHas(prop, "integer"), schemaHas(prop, "number"):
		return plain(v.String())
	case schemaHas(prop, "array"):
		sv, ok := v.(pflag.SliceValue)
		if !ok || prop.Items == nil {
			return nil, false
		}
		items := sv.GetSlice()
		out := make([]any, len(items))
		for i, it := range items {
			if schemaHas(prop.Items, "string") {
				out[i] = it
				continue
			}
			d, ok := plain(it)
			if !ok {
				return nil, false
			}
			out[i] = d
		}
		return out, true
	}
	return nil, false
}

// freshValue returns a value of v's type that shares nothing with v, for
// its Set to check a text without changing the flag: a new value of a
// pflag type (its kind's, flagschema.Kind.Fresh), or a copy of a value
// that holds no reference; false when there is none (a custom type
// holding pointers, slices or maps, which a copy would share and Set could
// write through).
func freshValue(v pflag.Value) (pflag.Value, bool) {
	if k, ok := flagschema.Lookup(v.Type()); ok {
		if fresh, ok := k.Fresh(v); ok {
			return fresh, true
		}
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || !flat(rv.Elem().Type()) {
		return nil, false
	}
	cp := reflect.New(rv.Elem().Type())
	cp.Elem().Set(rv.Elem())
	out, ok := cp.Interface().(pflag.Value)
	return out, ok
}

// flat reports whether a value of type t holds no reference.
func flat(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return true
	case reflect.Array:
		return flat(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !flat(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// pinError is the error of a call that sets pinned flags: it names them
// and where each was pinned, never the value (a pin may hold a secret).
func pinError(set []string, from map[string]string) error {
	slices.Sort(set)
	var b strings.Builder
	for i, n := range set {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "flag --%s is pinned by whoever started this server (%s) and cannot be set by a call", n, from[n])
	}
	return errors.New(b.String())
}
