package toolset_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cobramcp/cobramcp/toolset"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"
)

// TestPinnedFlagGroups: with flags of cobra's flag groups pinned, the
// listed schema (without the pinned flags) accepts exactly the calls the
// server runs: a pinned flag is set on every call, so it satisfies a
// one-required group, excludes the other flags of its mutually exclusive
// group and requires the others of its required-together group.
func TestPinnedFlagGroups(t *testing.T) {
	root := &cobra.Command{Use: "pg"}
	mx := &cobra.Command{Use: "mx", RunE: noop}
	mx.Flags().String("a", "", "a")
	mx.Flags().String("b", "", "b")
	mx.MarkFlagsMutuallyExclusive("a", "b")
	one := &cobra.Command{Use: "one", RunE: noop}
	one.Flags().String("c", "", "c")
	one.Flags().String("d", "", "d")
	one.MarkFlagsOneRequired("c", "d")
	tog := &cobra.Command{Use: "tog", RunE: noop}
	tog.Flags().String("e", "", "e")
	tog.Flags().String("f", "", "f")
	tog.MarkFlagsRequiredTogether("e", "f")
	root.AddCommand(mx, one, tog)
	var argv []string
	ts := mustTools(t, root, captureArgv(&argv))
	v, err := ts.View(toolset.Listing{}, toolset.Policy{Pins: []toolset.Pin{{Flag: "a", Value: "1", From: "--set"}, {Flag: "c", Value: "1", From: "--set"}, {Flag: "e", Value: "1", From: "--set"}}})
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]*jsonschema.Resolved{}
	for _, tl := range v.Tools() {
		r, err := tl.InputSchema.(*jsonschema.Schema).Resolve(nil)
		if err != nil {
			t.Fatalf("%s: %v", tl.Name, err)
		}
		listed[tl.Name] = r
	}
	tests := []struct {
		tool, in string
		runs     bool
	}{
		{"pg_mx", `{}`, true},
		{"pg_mx", `{"flags":{"b":"x"}}`, false},
		{"pg_one", `{}`, true},
		{"pg_one", `{"flags":{}}`, true},
		{"pg_one", `{"flags":{"d":"x"}}`, true},
		{"pg_tog", `{}`, false},
		{"pg_tog", `{"flags":{"f":"x"}}`, true},
	}
	for _, tt := range tests {
		res, err := v.Call(context.Background(), tt.tool, json.RawMessage(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError == tt.runs {
			t.Errorf("%s %s: the server refused: %v, want %v (%s)", tt.tool, tt.in, res.IsError, !tt.runs, resultText(res))
		}
		var in any
		if err := json.Unmarshal([]byte(tt.in), &in); err != nil {
			t.Fatal(err)
		}
		if err := listed[tt.tool].Validate(in); (err == nil) != tt.runs {
			t.Errorf("%s %s: the listed schema says %v, but the server runs it: %v", tt.tool, tt.in, err, tt.runs)
		}
	}
}

// TestPinnedFlagGroupsDescription: the sentences of a tool's description
// that state its flag groups say what a call can still do once flags are
// pinned, and never name a pinned flag as one the model may set.
func TestPinnedFlagGroupsDescription(t *testing.T) {
	root := &cobra.Command{Use: "pg"}
	mx := &cobra.Command{Use: "mx", RunE: noop}
	for _, n := range []string{"a", "b", "z", "x", "y"} {
		mx.Flags().String(n, "", n)
	}
	mx.MarkFlagsMutuallyExclusive("a", "b", "z")
	mx.MarkFlagsMutuallyExclusive("x", "y") // nothing pinned: as it was
	one := &cobra.Command{Use: "one", RunE: noop}
	one.Flags().String("c", "", "c")
	one.Flags().String("d", "", "d")
	one.MarkFlagsOneRequired("c", "d")
	tog := &cobra.Command{Use: "tog", RunE: noop}
	for _, n := range []string{"e", "f", "g"} {
		tog.Flags().String(n, "", n)
	}
	tog.MarkFlagsRequiredTogether("e", "f", "g")
	root.AddCommand(mx, one, tog)
	ts := mustTools(t, root, nil)
	tests := []struct {
		tool        string
		want, never []string
	}{
		{"pg_mx", []string{"Flags --b, --z may not be set (--a is set by the server).", "At most one of --x, --y may be set."},
			[]string{"--a,", "At most one of --a"}},
		{"pg_one", nil, []string{"At least one of", "--c"}},
		{"pg_tog", []string{"Flags --f, --g must be set (required together with --e, which the server sets)."},
			[]string{"--e, --f", "must be set together"}},
	}
	for _, expanded := range []bool{false, true} {
		v, err := ts.View(toolset.Listing{Expanded: expanded}, toolset.Policy{Pins: []toolset.Pin{{Flag: "a", Value: "1", From: "--set"}, {Flag: "c", Value: "1", From: "--set"}, {Flag: "e", Value: "1", From: "--set"}}})
		if err != nil {
			t.Fatal(err)
		}
		desc := map[string]string{}
		for _, tl := range v.Tools() {
			desc[tl.Name] = tl.Description
		}
		for _, tt := range tests {
			for _, w := range tt.want {
				if !strings.Contains(desc[tt.tool], w) {
					t.Errorf("expanded=%v %s: description lacks %q:\n%s", expanded, tt.tool, w, desc[tt.tool])
				}
			}
			for _, n := range tt.never {
				if strings.Contains(desc[tt.tool], n) {
					t.Errorf("expanded=%v %s: description has %q:\n%s", expanded, tt.tool, n, desc[tt.tool])
				}
			}
		}
	}
	// Without pins the sentences are cobra's groups as they are.
	for _, tl := range fullView(ts).Tools() {
		if tl.Name == "pg_mx" && !strings.Contains(tl.Description, "At most one of --a, --b, --z may be set.") {
			t.Errorf("unpinned: %s", tl.Description)
		}
	}
}

// TestPinsInOneExclusiveGroup: pinning two flags of a mutually exclusive
// group would make every call of the tool fail, so the policy is refused
// with an error naming the flags, the tool and the group.
func TestPinsInOneExclusiveGroup(t *testing.T) {
	root := &cobra.Command{Use: "pg"}
	mx := &cobra.Command{Use: "mx", RunE: noop}
	for _, n := range []string{"a", "b", "c"} {
		mx.Flags().String(n, "", n)
	}
	mx.MarkFlagsMutuallyExclusive("a", "b", "c")
	root.AddCommand(mx)
	ts := mustTools(t, root, nil)
	_, err := ts.View(toolset.Listing{}, toolset.Policy{Pins: []toolset.Pin{{Flag: "a", Value: "1", From: "--set"}, {Flag: "c", Value: "1", From: "PG_MCP_SET"}}})
	const want = "flags --a (pinned --set) and --c (pinned PG_MCP_SET) cannot be used together: tool pg_mx takes at most one of --a, --b, --c"
	var pe *toolset.PolicyError
	if !errors.As(err, &pe) || pe.Setting != toolset.SettingPins || pe.Err.Error() != want {
		t.Errorf("View: %v\nwant a PolicyError of the pins: %s", err, want)
	}
	if _, err := ts.View(toolset.Listing{}, toolset.Policy{Pins: []toolset.Pin{{Flag: "a", Value: "1", From: "--set"}}}); err != nil {
		t.Errorf("one pin of the group: %v", err)
	}
}
