package corpus

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/test/corpustest"
)

// adoptions are what a CLI's own adoption would do to the group: gh checks
// authentication before every command not annotated to skip it.
var adoptions = map[string]func(group *cobra.Command){
	"gh": func(g *cobra.Command) { g.Annotations["skipAuthCheck"] = "true" },
}

// TestAdoptInProcess adds the mcp group to each CLI's own tree, as the
// one-line adoption does, and runs mcp --help, mcp tools -o -, mcp start
// --help and mcp claude enable --dry-run on it: nothing panics, whatever
// persistent flags the CLI's root has, and the help names the CLI.
func TestAdoptInProcess(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Chdir(t.TempDir())
	for _, c := range CLIs() {
		if *only != "" && !slices.Contains(strings.Split(*only, ","), c.Name) {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			for _, e := range c.Env {
				t.Setenv(e, t.TempDir())
			}
			corpustest.Adopt(t, c.Name, c.Root, 2, adoptions[c.Name])
		})
	}
}
