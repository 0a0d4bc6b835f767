package bridge_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/cmd"
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
	v, err := ts.Restrict(cmd.Policy{Pins: []cmd.Pin{{Flag: "a", Value: "1", From: "--set"}, {Flag: "c", Value: "1", From: "--set"}, {Flag: "e", Value: "1", From: "--set"}}})
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
