package external_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/internal/external"
	"github.com/cobramcp/cobramcp/test/corpustest"
	"github.com/cobramcp/cobramcp/test/toolcompare"
	"github.com/cobramcp/cobramcp/toolset"
)

// mycliBin returns the built mycli ($MYCLI_BIN, as `make test` sets it),
// building it into a temporary directory when unset.
func mycliBin(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("MYCLI_BIN"); p != "" {
		return p
	}
	return goBuild(t, "../../example", "mycli")
}

// goBuild builds the main package in dir (its own module or this one)
// into a temporary directory.
func goBuild(t *testing.T, dir, name string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), name)
	cmd := exec.Command("go", "build", "-o", out, ".")
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", dir, err, b)
	}
	return out
}

// TestMycliFromOutside reflects the built mycli from outside and compares
// every tool with the in-process reflection of the same tree: each
// difference is reported, and one of a kind that docs/external.md does not
// list as a known limit fails the test.
func TestMycliFromOutside(t *testing.T) {
	bin := mycliBin(t)
	r, err := external.Load(context.Background(), bin, &external.Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	out, err := toolset.New(r.Root, &bridge.Config{Executable: r.Path})
	if err != nil {
		t.Fatal(err)
	}
	root := mycli.New()
	root.AddCommand(bridge.Command(nil))
	in, err := toolset.New(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	known, err := toolcompare.KnownLimits("../../docs/external.md")
	if err != nil {
		t.Fatal(err)
	}
	inV, outV := listed(t, in), listed(t, out)
	corpustest.Differences(t, known, inV, outV)
	for _, n := range r.Notes {
		t.Logf("note: %s", n)
	}
	if len(outV.Tools()) < len(inV.Tools())-2 {
		t.Errorf("outside: %d tools, in-process %d", len(outV.Tools()), len(inV.Tools()))
	}
}

// runBinary runs bin with args and env and returns its output.
func runBinary(bin string, env []string, args ...string) (string, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	b, err := cmd.CombinedOutput()
	return string(b), err
}

// listed is the view of every tool of ts in the default listing.
func listed(t *testing.T, ts *toolset.Toolset) *toolset.Served {
	t.Helper()
	v, err := ts.View(toolset.Listing{})
	if err != nil {
		t.Fatal(err)
	}
	return v
}
