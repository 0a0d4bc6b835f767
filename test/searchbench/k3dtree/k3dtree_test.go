// Package k3dtree snapshots k3d's command tree. It is a module of its own
// because k3d pins a docker/cli older than the one crane and gh need.
package k3dtree

import (
	"flag"
	"path/filepath"
	"testing"

	k3d "github.com/k3d-io/k3d/v5/cmd"

	"github.com/cobramcp/cobramcp/test/searchbench/tree"
)

var update = flag.Bool("update", false, "rewrite ../testdata/trees/k3d.json")

// TestSnapshot builds k3d's tree and compares it with its snapshot
// (-update rewrites it).
func TestSnapshot(t *testing.T) {
	const module = "github.com/k3d-io/k3d/v5"
	version, err := tree.ModuleVersion("go.mod", module)
	if err != nil {
		t.Fatal(err)
	}
	tr := tree.Snapshot("k3d", module+"@"+version, k3d.NewCmdK3d())
	t.Logf("%s: %d commands, %d served", tr.Module, len(tr.Commands), tr.Served())
	if tr.Served() < 5 {
		t.Errorf("k3d: only %d served commands", tr.Served())
	}
	if err := tree.WriteOrCompare(tr, filepath.Join("..", "testdata", "trees", "k3d.json"), *update); err != nil {
		t.Error(err)
	}
}
