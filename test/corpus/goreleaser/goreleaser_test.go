package goreleaser

import (
	"os/exec"
	"path/filepath"
	"testing"
	_ "unsafe" // go:linkname, for the root that goreleaser keeps unexported

	goversion "github.com/caarlos0/go-version"
	"github.com/spf13/cobra"

	_ "github.com/goreleaser/goreleaser/v2/cmd"

	"github.com/cobramcp/cobramcp/test/corpustest"
	"github.com/cobramcp/cobramcp/test/toolcompare"
)

// version is goreleaser's version, pinned in go.mod.
const version = "v2.15.1"

// rootCmd has the layout of goreleaser's cmd.rootCmd, which newRootCmd
// returns.
type rootCmd struct {
	cmd     *cobra.Command
	verbose bool
	exit    func(int)
}

//go:linkname newRootCmd github.com/goreleaser/goreleaser/v2/cmd.newRootCmd
func newRootCmd(version goversion.Info, exit func(int)) *rootCmd

// calls are goreleaser's commands that work offline, with no project.
var calls = []corpustest.Call{
	{Tool: "goreleaser_jsonschema", Arguments: `{"flags":{"output":"$DIR/schema.json"}}`, Argv: []string{"jsonschema", "--output=$DIR/schema.json"}},
	{Tool: "goreleaser_check", Arguments: `{"args":["$DIR/none.yaml"]}`, Argv: []string{"check", "$DIR/none.yaml"}},
}

// TestGoreleaser builds goreleaser, reflects the binary from outside
// (cold, then warm from the cache) and compares every tool of the
// expanded listing with the in-process reflection of the tree its main
// builds: a difference of a kind that docs/external.md's known limits do
// not list fails the test. Offline calls through the tools served from
// outside give what the binary gives run directly. The row of
// docs/external.md's corpus table is logged.
func TestGoreleaser(t *testing.T) {
	known, err := toolcompare.KnownLimits("../../../docs/external.md")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "goreleaser")
	if b, err := exec.Command("go", "build", "-o", bin, "github.com/goreleaser/goreleaser/v2").CombinedOutput(); err != nil {
		t.Fatalf("building goreleaser %s: %v\n%s", version, err, b)
	}
	// As goreleaser's main does; the version is the binary's own, which
	// its build info stamps (this test binary's differs).
	root := newRootCmd(goversion.GetVersionInfo(goversion.WithAppDetails("goreleaser", "Release engineering, simplified.", "https://goreleaser.com")), func(int) {}).cmd
	v, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", bin, err)
	}
	root.Version = string(v)
	t.Log(corpustest.Compare(t, known, corpustest.CLI{Name: "goreleaser", Version: version, Bin: bin, Root: root, Calls: calls, MinTools: 6}))
}
