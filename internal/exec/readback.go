package exec

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/spf13/pflag"
)

// A command reads a flag either through the variable bound to it, which
// holds what Set parsed, or through pflag's getters (GetStringToString,
// GetStringSlice, ...), which for the string lists, the string maps and
// the float lists parse the flag's printed value (Value.String()) again.
// That second parse loses what the printed form cannot hold: up to pflag
// v1.0.x, a stringToString value printed last loses its trailing white
// space and "]" and a key printed first its leading "["; a list of one
// empty string reads back empty; "\r\n" in a stringArray element reads
// back as "\n"; a float list keeps six decimals. CommandLine.Argv refuses a value
// that either way of reading does not give back exactly.

// readBack parses the values vals, one Set each, with a fresh flag of the
// pflag type kind, and returns what the bound variable holds and what
// pflag's getter returns, both as the flag's Go type.
func readBack(kind string, vals []string) (bound, got any, err error) {
	fs := pflag.NewFlagSet("verify", pflag.ContinueOnError)
	var read func() (any, any, error)
	switch kind {
	case "stringToString":
		read = readPair(fs.StringToString("v", nil, ""), fs.GetStringToString)
	case "stringToInt":
		read = readPair(fs.StringToInt("v", nil, ""), fs.GetStringToInt)
	case "stringToInt64":
		read = readPair(fs.StringToInt64("v", nil, ""), fs.GetStringToInt64)
	case "stringSlice":
		read = readPair(fs.StringSlice("v", nil, ""), fs.GetStringSlice)
	case "stringArray":
		read = readPair(fs.StringArray("v", nil, ""), fs.GetStringArray)
	case "float32Slice":
		read = readPair(fs.Float32Slice("v", nil, ""), fs.GetFloat32Slice)
	case "float64Slice":
		read = readPair(fs.Float64Slice("v", nil, ""), fs.GetFloat64Slice)
	default:
		return nil, nil, fmt.Errorf("no read-back for %s", kind)
	}
	for _, v := range vals {
		if err := fs.Set("v", v); err != nil {
			return nil, nil, err
		}
	}
	bound, got, err = read()
	if err != nil {
		return bound, nil, fmt.Errorf("pflag's getter: %w", err)
	}
	return bound, got, nil
}

// readPair returns what the variable p bound to flag "v" holds and what
// pflag's getter get returns for it.
func readPair[T any](p *T, get func(string) (T, error)) func() (any, any, error) {
	return func() (any, any, error) {
		g, err := get("v")
		return *p, g, err
	}
}

// getterName is the pflag getter of kind.
func getterName(kind string) string {
	return "Get" + string(kind[0]-'a'+'A') + kind[1:]
}

// checkMapReadBack reports the first key of want that the getter of the
// map flag kind reads back differently from the text, or that it loses.
func checkMapReadBack[V comparable](kind, text string, want map[string]V) error {
	_, got, err := readBack(kind, []string{text})
	if err != nil {
		return fmt.Errorf("%s reads %q back with an error (%v): %w", getterName(kind), text, err, ErrUnrepresentable)
	}
	g := got.(map[string]V)
	for _, k := range slices.Sorted(maps.Keys(want)) {
		w := want[k]
		v, ok := g[k]
		if !ok {
			return fmt.Errorf("key %q is read back as another key by pflag's %s, which trims \"[\" and \"]\" from the ends of the flag's printed value: %w", k, getterName(kind), ErrUnrepresentable)
		}
		if v != w {
			return fmt.Errorf("key %q: value %q is read back as %q by pflag's %s, which trims white space and \"]\" from the end of the flag's printed value: %w", k, fmt.Sprint(w), fmt.Sprint(v), getterName(kind), ErrUnrepresentable)
		}
	}
	if len(g) != len(want) {
		return fmt.Errorf("pflag's %s reads back %d keys, not %d: %w", getterName(kind), len(g), len(want), ErrUnrepresentable)
	}
	return nil
}

// checkListReadBack reports the first element of want that the getter of
// the list flag kind reads back differently from vals (one Set each).
func checkListReadBack[E comparable](kind string, vals []string, want []E) error {
	_, got, err := readBack(kind, vals)
	if err != nil {
		return fmt.Errorf("%s reads the list back with an error (%v): %w", getterName(kind), err, ErrUnrepresentable)
	}
	g := got.([]E)
	same := func(a, b E) bool { return quoteElem(a) == quoteElem(b) } // NaN is NaN
	if slices.EqualFunc(g, want, same) {
		return nil
	}
	if len(g) != len(want) {
		why := ""
		if len(want) == 1 && fmt.Sprint(want[0]) == "" {
			why = " (a list of one empty string is printed as [], which reads back empty)"
		}
		return fmt.Errorf("pflag's %s reads back %d elements, not %d%s: %w", getterName(kind), len(g), len(want), why, ErrUnrepresentable)
	}
	for i := range want {
		if !same(g[i], want[i]) {
			return elemErr(i, fmt.Errorf("%s is read back as %s by pflag's %s: %w", quoteElem(want[i]), quoteElem(g[i]), getterName(kind), ErrUnrepresentable))
		}
	}
	return nil
}

func quoteElem(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return fmt.Sprint(x)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// checkFloatsReadBack checks a float32 or float64 list, written as text
// from the canonical elements parts, against pflag's getter, which reads
// the elements back from six decimals; other element types pass.
func checkFloatsReadBack(elem, text string, parts []string) error {
	switch elem {
	case "float32":
		want := make([]float32, len(parts))
		for i, p := range parts {
			x, _ := strconv.ParseFloat(p, 32) // canonical: parses
			want[i] = float32(x)
		}
		return checkListReadBack("float32Slice", []string{text}, want)
	case "float64":
		want := make([]float64, len(parts))
		for i, p := range parts {
			want[i], _ = strconv.ParseFloat(p, 64)
		}
		return checkListReadBack("float64Slice", []string{text}, want)
	}
	return nil
}
