package k3d

import (
	"os/exec"
	"path/filepath"
	"testing"

	k3d "github.com/k3d-io/k3d/v5/cmd"

	"github.com/cobramcp/cobramcp/test/corpustest"
	"github.com/cobramcp/cobramcp/test/toolcompare"
)

// version is k3d's version, pinned in go.mod.
const version = "v5.9.0"

// calls are k3d's commands that work with no docker daemon.
var calls = []corpustest.Call{
	{Tool: "k3d_version", Arguments: `{}`, Argv: []string{"version"}},
	{Tool: "k3d_config_init", Arguments: `{"flags":{"output":"$DIR/k3d.yaml"}}`, Argv: []string{"config", "init", "--output=$DIR/k3d.yaml"}},
}

// TestK3d builds k3d, reflects the binary from outside (cold, then warm
// from the cache) and compares every tool of the expanded listing with the
// in-process reflection of the tree k3d's main builds: a difference of a
// kind that docs/external.md's known limits do not list fails the test.
// Offline calls through the tools served from outside give what the
// binary gives run directly. The row of docs/external.md's corpus table
// is logged.
func TestK3d(t *testing.T) {
	known, err := toolcompare.KnownLimits("../../../docs/external.md")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "k3d")
	if b, err := exec.Command("go", "build", "-o", bin, "github.com/k3d-io/k3d/v5").CombinedOutput(); err != nil {
		t.Fatalf("building k3d %s: %v\n%s", version, err, b)
	}
	t.Log(corpustest.Compare(t, known, corpustest.CLI{Name: "k3d", Version: version, Bin: bin, Root: k3d.NewCmdK3d(), Calls: calls, MinTools: 20}))
}
