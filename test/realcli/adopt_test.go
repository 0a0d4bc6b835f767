package realcli

import (
	"testing"

	"github.com/cobramcp/cobramcp/test/corpustest"
)

// TestAdoptKubectl runs mcp --help, mcp tools -o -, mcp start --help and
// mcp claude enable --dry-run on kubectl's real tree with the mcp group,
// in-process: kubectl installs its own global normalization function, and
// the mcp commands' flags still sit beside its persistent ones.
func TestAdoptKubectl(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Chdir(t.TempDir())
	corpustest.Adopt(t, "kubectl", Kubectl, 100, nil)
}
