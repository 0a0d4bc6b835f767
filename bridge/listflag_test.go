package bridge

import (
	"fmt"
	"slices"
	"testing"

	"github.com/spf13/pflag"
)

// TestListFlagAsPflag: a listFlag parses, prints and reads back as pflag's
// own StringSlice and StringArray do, and its help line is theirs.
func TestListFlagAsPflag(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"unset", nil},
		{"one", []string{"--l=a"}},
		{"commas", []string{"--l=a,b", "--l", "c"}},
		{"quoted comma", []string{`--l="a,b",c`}},
		{"empty value", []string{"--l="}},
		{"spaces", []string{"--l= a , b"}},
		{"bad csv", []string{`--l="a`}},
	}
	for _, array := range []bool{false, true} {
		for _, tc := range cases {
			t.Run(fmt.Sprintf("%s/array=%t", tc.name, array), func(t *testing.T) {
				theirs := pflag.NewFlagSet("theirs", pflag.ContinueOnError)
				ours := pflag.NewFlagSet("ours", pflag.ContinueOnError)
				var tv, ov []string
				if array {
					theirs.StringArrayVar(&tv, "l", nil, "a list")
				} else {
					theirs.StringSliceVar(&tv, "l", nil, "a list")
				}
				listFlag(ours, &ov, "l", "a list", array)
				if got, want := ours.FlagUsages(), theirs.FlagUsages(); got != want {
					t.Errorf("help: %q, pflag's %q", got, want)
				}
				terr, oerr := theirs.Parse(tc.args), ours.Parse(tc.args)
				if (terr == nil) != (oerr == nil) {
					t.Fatalf("parse error %v, pflag's %v", oerr, terr)
				}
				if !slices.Equal(ov, tv) {
					t.Errorf("value %q, pflag's %q", ov, tv)
				}
				tf, of := theirs.Lookup("l"), ours.Lookup("l")
				if of.Value.String() != tf.Value.String() || of.Value.Type() != tf.Value.Type() {
					t.Errorf("String/Type %q %q, pflag's %q %q", of.Value.String(), of.Value.Type(), tf.Value.String(), tf.Value.Type())
				}
				oget, tget := ours.GetStringSlice, theirs.GetStringSlice
				if array {
					oget, tget = ours.GetStringArray, theirs.GetStringArray
				}
				got, oerr := oget("l")
				want, terr := tget("l")
				if (oerr == nil) != (terr == nil) || !slices.Equal(got, want) {
					t.Errorf("read back %q (%v), pflag's %q (%v)", got, oerr, want, terr)
				}
				sv, ok := of.Value.(pflag.SliceValue)
				if !ok {
					t.Fatal("not a pflag.SliceValue")
				}
				if err := sv.Append("z"); err != nil || !slices.Equal(sv.GetSlice(), append(slices.Clone(tv), "z")) {
					t.Errorf("after Append: %q (%v)", sv.GetSlice(), err)
				}
			})
		}
	}
}
