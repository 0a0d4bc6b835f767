package toolset_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/internal/exec"
	"github.com/cobramcp/cobramcp/test/roundtrip"
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

// TestSubCommandArgvFollowsMatching: the args of "show" follow "--"
// exactly when the CLI would read the first of them as a sub-command's
// name, by the matching the tree says it has: cobra's own settings for a
// tree built in-process, exec.AnnotationMatching on the root for a tree
// read from outside (where "unknown", what a CLI that was not asked
// gives, writes "--" before any word). The argv, run by the CLI with that
// matching, runs show with the args, and ArgsLenAtDash is -1 wherever no
// "--" was needed.
func TestSubCommandArgvFollowsMatching(t *testing.T) {
	tests := []struct {
		matching string // "" for cobra's own settings (in-process)
		prefix   bool   // cobra's EnablePrefixMatching in the CLI
		fold     bool   // cobra's EnableCaseInsensitive in the CLI
		args     []string
		dash     bool
	}{
		{"", false, false, []string{"secret-wipe"}, true},
		{"", false, false, []string{"nuke", "x"}, true},
		{"", false, false, []string{"sec"}, false},
		{"", false, false, []string{"SECRET-WIPE"}, false},
		{"", false, false, []string{"other", "secret-wipe"}, false},
		{"", true, false, []string{"sec"}, true},
		{"", true, false, []string{"nu"}, true},
		{"", true, false, []string{"SEC"}, false},
		{"", true, false, []string{"secret-wipes"}, false},
		{"", false, true, []string{"SECRET-WIPE"}, true},
		{"", false, true, []string{"Nuke"}, true},
		{"", false, true, []string{"sec"}, false},
		{"", true, true, []string{"s"}, true},
		{"", true, true, []string{"", "-", "sec"}, true},
		{"", true, true, []string{"other"}, false},
		{exec.MatchExact, true, true, []string{"other"}, false},
		{"prefix,case", true, true, []string{"sec"}, true},
		{"prefix,case", true, true, []string{"NUKE"}, true},
		{"prefix,case", true, true, []string{"other"}, false},
		{exec.MatchPrefix, true, false, []string{"sec"}, true},
		{exec.MatchCase, false, true, []string{"sec"}, false},
		{exec.MatchUnknown, true, true, []string{"other"}, true},
		{exec.MatchUnknown, true, true, []string{"sec"}, true},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%q prefix=%v case=%v %q", tt.matching, tt.prefix, tt.fold, tt.args)
		var argv, ran []string
		func() {
			if tt.matching == "" {
				// In-process: the tree's own settings, the same when the
				// argv is written and when it runs.
				setCobraMatching(t, tt.prefix, tt.fold)
			}
			root := prefixTree(&ran, false)
			if tt.matching != "" {
				root.Annotations = map[string]string{exec.AnnotationMatching: tt.matching}
			}
			ts := fullView(mustTools(t, root, captureArgv(&argv)))
			in, _ := json.Marshal(map[string]any{"args": tt.args})
			res, err := ts.Call(context.Background(), "pc_show", in)
			if err != nil || res.IsError {
				t.Fatalf("%s: %v %s", name, err, resultText(res))
			}
		}()
		if got := slices.Contains(argv, "--"); got != tt.dash {
			t.Errorf("%s: argv %q, want \"--\" %v", name, argv, tt.dash)
		}
		setCobraMatching(t, tt.prefix, tt.fold)
		got, err := roundtrip.Execute(prefixTree(&ran, false), argv)
		if err != nil {
			t.Errorf("%s: argv %q: %v", name, argv, err)
			continue
		}
		wantDash := -1
		if tt.dash {
			wantDash = 0
		}
		if got.Command.CommandPath() != "pc show" || !slices.Equal(got.Args, tt.args) || got.ArgsLenAtDash != wantDash {
			t.Errorf("%s: argv %q ran %q %q with ArgsLenAtDash %d, want pc show %q, %d", name, argv, got.Command.CommandPath(), got.Args, got.ArgsLenAtDash, tt.args, wantDash)
		}
	}
}

// setCobraMatching sets cobra's EnablePrefixMatching and
// EnableCaseInsensitive (package globals: no test of this package runs in
// parallel) for the rest of t.
func setCobraMatching(t *testing.T, prefix, fold bool) {
	p, f := cobra.EnablePrefixMatching, cobra.EnableCaseInsensitive
	cobra.EnablePrefixMatching, cobra.EnableCaseInsensitive = prefix, fold
	t.Cleanup(func() { cobra.EnablePrefixMatching, cobra.EnableCaseInsensitive = p, f })
}
