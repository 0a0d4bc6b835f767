package docker

import (
	"testing"

	"github.com/cobramcp/cobramcp/test/corpustest"
)

// TestAdoptDocker adds the mcp group to docker's real tree (global options
// read by TraverseChildren) and runs mcp --help, mcp tools -o -, mcp start
// --help and mcp claude enable --dry-run on it, in-process.
func TestAdoptDocker(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Chdir(t.TempDir())
	corpustest.Adopt(t, "docker", New, 100, nil)
}
