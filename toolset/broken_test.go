package toolset_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestBrokenCommandIsLeftOut: a command whose flags make cobra panic (a
// shorthand used by a local and an inherited flag) is left out and reported;
// the other commands are still served.
func TestBrokenCommandIsLeftOut(t *testing.T) {
	root := &cobra.Command{Use: "sc"}
	root.PersistentFlags().StringP("namespace", "n", "", "")
	bad := &cobra.Command{Use: "bad", RunE: noop}
	bad.Flags().IntP("number", "n", 0, "")
	good := &cobra.Command{Use: "good", RunE: noop}
	root.AddCommand(bad, good)
	ts := mustTools(t, root, nil)
	if got := names(ts); !slices.Equal(got, []string{"sc_good"}) {
		t.Errorf("tools %q, want [sc_good]", got)
	}
	p := ts.Problems()
	if len(p) != 1 || p[0].Command != "sc bad" || !strings.Contains(p[0].Err.Error(), "panicked") {
		t.Errorf("problems %v, want one for sc bad", p)
	}
}

// TestShadowedCommandIsLeftOut: a command whose name is another command's
// alias (earlier in the list) cannot be reached by its command line; it is
// left out rather than served as a tool that runs the other command.
func TestShadowedCommandIsLeftOut(t *testing.T) {
	root := &cobra.Command{Use: "sh"}
	alpha := &cobra.Command{Use: "alpha", Aliases: []string{"beta"}, RunE: noop}
	beta := &cobra.Command{Use: "beta", RunE: noop}
	root.AddCommand(alpha, beta)
	ts := mustTools(t, root, nil)
	if got := names(ts); !slices.Equal(got, []string{"sh_alpha"}) {
		t.Errorf("tools %q, want [sh_alpha]", got)
	}
	p := ts.Problems()
	if len(p) != 1 || p[0].Command != "sh beta" || !strings.Contains(p[0].Err.Error(), "finds sh alpha") {
		t.Errorf("problems %v, want one for sh beta", p)
	}
}
