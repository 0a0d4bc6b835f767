package toolset_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// prefixTree is a CLI whose served "show" has a hidden sub-command
// "secret-wipe" (alias "nuke") that must never run through show's args;
// traverse sets the root's TraverseChildren. ran records the command that
// ran and its args.
func prefixTree(ran *[]string, traverse bool) *cobra.Command {
	run := func(c *cobra.Command, args []string) error {
		*ran = append([]string{c.CommandPath()}, args...)
		return nil
	}
	root := &cobra.Command{Use: "pc", TraverseChildren: traverse}
	show := &cobra.Command{Use: "show [NAME...]", Args: cobra.ArbitraryArgs, RunE: run}
	show.AddCommand(&cobra.Command{Use: "secret-wipe", Aliases: []string{"nuke"}, Hidden: true, Args: cobra.ArbitraryArgs, RunE: run})
	one := &cobra.Command{Use: "one NAME", Args: cobra.ExactArgs(1), RunE: run}
	one.AddCommand(&cobra.Command{Use: "secret-wipe", RunE: run, Hidden: true})
	root.AddCommand(show, one)
	return root
}

// withCobraMatching turns on cobra's EnablePrefixMatching and
// EnableCaseInsensitive (package globals: no test of this package runs in
// parallel) for the rest of t.
func withCobraMatching(t *testing.T) {
	prefix, fold := cobra.EnablePrefixMatching, cobra.EnableCaseInsensitive
	cobra.EnablePrefixMatching, cobra.EnableCaseInsensitive = true, true
	t.Cleanup(func() { cobra.EnablePrefixMatching, cobra.EnableCaseInsensitive = prefix, fold })
}

// TestArgsNeverRunASubCommandByPrefixOrCase: on a CLI that matches
// sub-command names by prefix and in any case, show's args, whatever they
// are, run show (or are refused under TraverseChildren); never its
// sub-command. The argv rule does not depend on the matching it can see:
// the same argv is written with cobra's matching off, as from outside.
func TestArgsNeverRunASubCommandByPrefixOrCase(t *testing.T) {
	withCobraMatching(t)
	tests := []struct {
		tool string
		args []string
	}{
		{"pc_show", []string{"sec"}},
		{"pc_show", []string{"SECRET-WIPE"}},
		{"pc_show", []string{"nuke"}},
		{"pc_show", []string{"NUKE", "x"}},
		{"pc_show", []string{"", "s"}},
		{"pc_one", []string{"sec"}},
	}
	for _, traverse := range []bool{false, true} {
		for _, tt := range tests {
			in, _ := json.Marshal(map[string]any{"args": tt.args})
			var argv, ran []string
			ts := fullView(mustTools(t, prefixTree(&ran, traverse), captureArgv(&argv)))
			res, err := ts.Call(context.Background(), tt.tool, in)
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError {
				if !traverse || !strings.Contains(resultText(res), "Nothing was run") {
					t.Errorf("traverse=%v %s %q refused: %s", traverse, tt.tool, tt.args, resultText(res))
				}
				continue
			}
			root := prefixTree(&ran, traverse)
			root.SetArgs(argv)
			root.SetOut(new(strings.Builder))
			root.SetErr(new(strings.Builder))
			if err := root.Execute(); err != nil {
				t.Errorf("traverse=%v argv %q: %v", traverse, argv, err)
			}
			want := append([]string{"pc " + strings.TrimPrefix(tt.tool, "pc_")}, tt.args...)
			if !slices.Equal(ran, want) {
				t.Errorf("traverse=%v %s %q: argv %q ran %q, want %q", traverse, tt.tool, tt.args, argv, ran, want)
			}
		}
	}
}

// TestSubCommandArgvWithoutMatching: with cobra's matching off when the
// argv is written (what a reflection from outside sees), show's args
// still follow "--", so that the CLI, run with prefix and case-insensitive
// matching on, reads none as a sub-command.
func TestSubCommandArgvWithoutMatching(t *testing.T) {
	var argv, ran []string
	ts := fullView(mustTools(t, prefixTree(&ran, false), captureArgv(&argv)))
	for _, args := range [][]string{{"sec"}, {"SECRET-WIPE"}, {"Nuke"}, {"other"}} {
		in, _ := json.Marshal(map[string]any{"args": args})
		res, err := ts.Call(context.Background(), "pc_show", in)
		if err != nil || res.IsError {
			t.Fatalf("%q: %v %s", args, err, resultText(res))
		}
		if want := append([]string{"show", "--"}, args...); !slices.Equal(argv, want) {
			t.Errorf("%q: argv %q, want %q", args, argv, want)
		}
		t.Run("matching on", func(t *testing.T) {
			withCobraMatching(t)
			root := prefixTree(&ran, false)
			root.SetArgs(argv)
			root.SetOut(new(strings.Builder))
			root.SetErr(new(strings.Builder))
			if err := root.Execute(); err != nil {
				t.Fatalf("argv %q: %v", argv, err)
			}
			if want := append([]string{"pc show"}, args...); !slices.Equal(ran, want) {
				t.Errorf("argv %q ran %q, want %q", argv, ran, want)
			}
		})
	}
}
