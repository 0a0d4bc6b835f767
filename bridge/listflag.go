package bridge

import "github.com/spf13/pflag"

// The mcp group is built on every run of the adopting CLI, whatever command
// runs, so its list flags are defined without what pflag's StringSlice and
// StringArray do at definition: they print the default to remember it, and
// printing a list (even an empty one) makes a CSV writer with a 4 KB
// buffer. A listValue stands in for pflag's own value and makes it on first
// use, so that parsing, printing and reading stay pflag's.

// listValue is a list flag's value: pflag's stringSlice (comma-separated
// values, CSV quoting) or stringArray (each value whole), made when the flag
// is first set or read.
type listValue struct {
	p     *[]string
	array bool
	v     pflag.Value // pflag's own value, once made
}

// listFlag defines on fs a list flag with an empty default, stored in *p:
// a stringArray when array is true, a stringSlice otherwise. Its DefValue
// is "" where pflag's would be "[]": pflag's help tells an empty default
// by the value's type, which it knows only for its own, and shows any
// other "[]" as "(default [])".
func listFlag(fs *pflag.FlagSet, p *[]string, name, usage string, array bool) {
	*p = nil
	fs.AddFlag(&pflag.Flag{Name: name, Usage: usage, Value: &listValue{p: p, array: array}})
}

// real is pflag's own value, made on first use with the current value of
// *l.p as its default (as pflag would have made it at definition).
func (l *listValue) real() pflag.Value {
	if l.v == nil {
		fs := pflag.NewFlagSet("", pflag.ContinueOnError)
		if l.array {
			fs.StringArrayVar(l.p, "v", *l.p, "")
		} else {
			fs.StringSliceVar(l.p, "v", *l.p, "")
		}
		l.v = fs.Lookup("v").Value
	}
	return l.v
}

func (l *listValue) Set(s string) error { return l.real().Set(s) }

func (l *listValue) Type() string {
	if l.array {
		return "stringArray"
	}
	return "stringSlice"
}

func (l *listValue) String() string {
	if l.v == nil && len(*l.p) == 0 {
		return "[]" // what pflag prints for an empty list
	}
	return l.real().String()
}

// Append, Replace and GetSlice make listValue a pflag.SliceValue, as
// pflag's own list values are.
func (l *listValue) Append(s string) error { return l.real().(pflag.SliceValue).Append(s) }

func (l *listValue) Replace(s []string) error { return l.real().(pflag.SliceValue).Replace(s) }

func (l *listValue) GetSlice() []string { return l.real().(pflag.SliceValue).GetSlice() }
