package trees

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/cobramcp/cobramcp/test/searchbench/tree"
)

var update = flag.Bool("update", false, "rewrite the snapshots under ../testdata/trees")

// TestSnapshots builds each CLI's tree and compares it with its snapshot
// (-update rewrites the snapshots).
func TestSnapshots(t *testing.T) {
	// Fixed paths that do not exist, not temporary directories: gh's help
	// names its data directory, and the snapshot must not change from
	// run to run; no user's configuration, aliases or extensions enter.
	for k, v := range map[string]string{
		"GH_CONFIG_DIR": "/nonexistent/searchbench/gh", "XDG_CONFIG_HOME": "/nonexistent/searchbench/config",
		"XDG_DATA_HOME": "/nonexistent/searchbench/data", "XDG_CACHE_HOME": "/nonexistent/searchbench/cache",
		"XDG_STATE_HOME": "/nonexistent/searchbench/state", "HOME": "/nonexistent/searchbench/home",
		"KUBECONFIG": "/nonexistent/searchbench/kubeconfig",
	} {
		t.Setenv(k, v)
	}
	for _, cli := range CLIs() {
		root, err := cli.Root()
		if err != nil {
			t.Fatalf("%s: building the root: %v", cli.Name, err)
		}
		version, err := tree.ModuleVersion(filepath.Join("..", "go.mod"), cli.Module)
		if err != nil {
			t.Fatal(err)
		}
		tr := tree.Snapshot(cli.Name, cli.Module+"@"+version, root)
		t.Logf("%s: %d commands, %d served", tr.Module, len(tr.Commands), tr.Served())
		if tr.Served() < 5 {
			t.Errorf("%s: only %d served commands", cli.Name, tr.Served())
		}
		if err := tree.WriteOrCompare(tr, filepath.Join("..", "testdata", "trees", cli.Name+".json"), *update); err != nil {
			t.Error(err)
		}
	}
}
