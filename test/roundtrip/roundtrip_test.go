package roundtrip

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func newRoot() (root, leaf *cobra.Command) {
	root = &cobra.Command{Use: "app"}
	leaf = &cobra.Command{Use: "run", Args: cobra.ArbitraryArgs, Run: func(*cobra.Command, []string) { panic("the real Run ran") }}
	leaf.PreRun = func(*cobra.Command, []string) { panic("the real PreRun ran") }
	root.AddCommand(leaf)
	fs := leaf.Flags()
	fs.StringSlice("ss", []string{"d"}, "")
	fs.Float64Slice("fs", nil, "")
	fs.StringToInt("si", nil, "")
	fs.Int8("i8", 0, "")
	fs.String("json", "", "")
	_ = fs.SetAnnotation("json", "jsonschema", []string{`{"type":"object"}`})
	return root, leaf
}

// TestDiffCatchesWrongArgv: argvs that a naive builder would produce parse
// to something else, and Diff says so. This is what makes the round-trip
// tests able to fail.
func TestDiffCatchesWrongArgv(t *testing.T) {
	tests := []struct {
		name  string
		flags map[string]any
		argv  []string
		want  string // a part of the diff
	}{
		{"comma inside a stringSlice element", map[string]any{"ss": []any{"a,b"}}, []string{"--ss=a,b"}, "--ss: got"},
		{"a flag not asked for", map[string]any{"ss": []any{"a"}}, []string{"--ss=a", "--i8=1"}, "--i8: set to"},
		{"a flag asked for but missing", map[string]any{"i8": json.Number("1")}, []string{}, "--i8: not set"},
		{"float slice precision", map[string]any{"fs": []any{1e-7}}, []string{"--fs=0"}, "--fs: got"},
		{"JSON text that decodes to another value", map[string]any{"json": map[string]any{"a": json.Number("1")}}, []string{`--json={"a":2}`}, "--json: got"},
		{"key with a bracket read through String", map[string]any{"si": map[string]any{"[k": json.Number("1")}}, []string{"--si=k=1"}, "--si: got"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, leaf := newRoot()
			want, err := Want(leaf.Flags(), tt.flags)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Execute(root, append([]string{"run"}, tt.argv...))
			if err != nil {
				t.Fatal(err)
			}
			d := Diff(want, got.Flags)
			if !strings.Contains(d, tt.want) {
				t.Fatalf("Diff = %q, want it to contain %q", d, tt.want)
			}
		})
	}
}

func TestExecuteRecordsWithoutRunning(t *testing.T) {
	root, leaf := newRoot()
	got, err := Execute(root, []string{"run", "--ss=x,y", "--", "--i8=3"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Command != leaf || len(got.Args) != 1 || got.Args[0] != "--i8=3" || got.ArgsLenAtDash != 0 {
		t.Fatalf("got %+v", got)
	}
	if d := Diff(map[string]any{"ss": []string{"x", "y"}}, got.Flags); d != "" {
		t.Fatal(d)
	}
	// ArgsLenAtDash is where "--" stood: -1 without it.
	for _, tt := range []struct {
		argv []string
		want int
	}{{[]string{"run", "a"}, -1}, {[]string{"run", "a", "--", "b"}, 1}, {[]string{"run", "--", "a"}, 0}} {
		got, err := Execute(newRootOnly(), tt.argv)
		if err != nil || got.ArgsLenAtDash != tt.want {
			t.Fatalf("%q: ArgsLenAtDash %+v %v, want %d", tt.argv, got, err, tt.want)
		}
	}
	if _, err := Execute(newRootOnly(), []string{"run", "--nope=1"}); err == nil {
		t.Fatal("Execute of an unknown flag: no error")
	}
}

func newRootOnly() *cobra.Command { r, _ := newRoot(); return r }

func TestWantRefusesWhatDoesNotFit(t *testing.T) {
	_, leaf := newRoot()
	for _, flags := range []map[string]any{
		{"i8": json.Number("128")},
		{"i8": 1.5},
		{"i8": math.Inf(1)},
		{"ss": "not a list"},
		{"nope": 1},
	} {
		if w, err := Want(leaf.Flags(), flags); err == nil {
			t.Errorf("Want(%v) = %v, want an error", flags, w)
		}
	}
}
