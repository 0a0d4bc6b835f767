package flagschema

import (
	"fmt"
	"maps"
	"reflect"
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
// back as "\n"; a float list keeps six decimals. [Write] refuses a value
// that either way of reading does not give back exactly: the kinds whose
// getter can lose something have it in the table (Kind.get).

// readBack parses the texts vals, one Set each, with a fresh flag of the
// kind k, and returns what pflag's getter of k returns for it.
func readBack(k *Kind, vals []string) (any, error) {
	fs := pflag.NewFlagSet("verify", pflag.ContinueOnError)
	k.define(fs, "v", "")
	for _, v := range vals {
		if err := fs.Set("v", v); err != nil {
			return nil, err
		}
	}
	got, err := k.get(fs, "v")
	if err != nil {
		return nil, fmt.Errorf("pflag's getter: %w", err)
	}
	return got, nil
}

// getterName is the pflag getter of the type named kind.
func getterName(kind string) string {
	return "Get" + string(kind[0]-'a'+'A') + kind[1:]
}

// checkMapReadBack reports the first key of want (the texts of its values
// as the getter's values print) that the getter of the map kind k reads
// back differently from text, or that it loses.
func checkMapReadBack(k *Kind, text string, want map[string]string) error {
	got, err := readBack(k, []string{text})
	if err != nil {
		return fmt.Errorf("%s reads %q back with an error (%v): %w", getterName(k.name), text, err, ErrUnrepresentable)
	}
	g := mapTexts(got)
	for _, key := range slices.Sorted(maps.Keys(want)) {
		w := want[key]
		v, ok := g[key]
		if !ok {
			return fmt.Errorf("key %q is read back as another key by pflag's %s, which trims \"[\" and \"]\" from the ends of the flag's printed value: %w", key, getterName(k.name), ErrUnrepresentable)
		}
		if v != w {
			return fmt.Errorf("key %q: value %q is read back as %q by pflag's %s, which trims white space and \"]\" from the end of the flag's printed value: %w", key, w, v, getterName(k.name), ErrUnrepresentable)
		}
	}
	if len(g) != len(want) {
		return fmt.Errorf("pflag's %s reads back %d keys, not %d: %w", getterName(k.name), len(g), len(want), ErrUnrepresentable)
	}
	return nil
}

// checkListReadBack reports the first element of want (the elements'
// texts as the getter's elements print) that the getter of the list kind
// k reads back differently from vals (one Set each).
func checkListReadBack(k *Kind, vals []string, want []string) error {
	got, err := readBack(k, vals)
	if err != nil {
		return fmt.Errorf("%s reads the list back with an error (%v): %w", getterName(k.name), err, ErrUnrepresentable)
	}
	g, quoted := listTexts(got)
	if slices.Equal(g, want) {
		return nil
	}
	show := func(s string) string {
		if quoted {
			return strconv.Quote(s)
		}
		return s
	}
	if len(g) != len(want) {
		why := ""
		if len(want) == 1 && want[0] == "" {
			why = " (a list of one empty string is printed as [], which reads back empty)"
		}
		return fmt.Errorf("pflag's %s reads back %d elements, not %d%s: %w", getterName(k.name), len(g), len(want), why, ErrUnrepresentable)
	}
	for i := range want {
		if g[i] != want[i] {
			return elemErr(i, fmt.Errorf("%s is read back as %s by pflag's %s: %w", show(want[i]), show(g[i]), getterName(k.name), ErrUnrepresentable))
		}
	}
	return nil
}

// listTexts returns the elements of a list a getter returned, each as its
// text (a float in the shortest form of its size, which is how Write
// writes it), and whether they are strings (quoted in messages).
func listTexts(list any) ([]string, bool) {
	rv := reflect.ValueOf(list)
	out := make([]string, rv.Len())
	for i := range out {
		out[i] = elemText(rv.Index(i))
	}
	return out, rv.Type().Elem().Kind() == reflect.String
}

// mapTexts returns the entries of a map a getter returned, each value as
// its text.
func mapTexts(m any) map[string]string {
	rv := reflect.ValueOf(m)
	out := make(map[string]string, rv.Len())
	for it := rv.MapRange(); it.Next(); {
		out[it.Key().String()] = elemText(it.Value())
	}
	return out
}

// elemText is the text of one element or value a getter returned.
func elemText(v reflect.Value) string {
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Float32:
		return strconv.FormatFloat(v.Float(), 'g', -1, 32)
	case reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	}
	return fmt.Sprint(v.Interface())
}
