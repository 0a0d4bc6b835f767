package hugo

import (
	"os/exec"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/bep/simplecobra"

	_ "github.com/gohugoio/hugo/commands"

	"github.com/cobramcp/cobramcp/test/corpustest"
	"github.com/cobramcp/cobramcp/test/toolcompare"
)

// version is hugo's version, pinned in go.mod.
const version = "v0.165.0"

// execLayout has the layout of simplecobra.Exec, whose command tree is
// unexported.
type execLayout struct{ c *simplecobra.Commandeer }

//go:linkname newExec github.com/gohugoio/hugo/commands.newExec
func newExec() (*simplecobra.Exec, error)

// calls are hugo's commands that work offline, with no project.
var calls = []corpustest.Call{
	{Tool: "hugo_version", Arguments: `{}`, Argv: []string{"version"}},
	{Tool: "hugo_new_project", Arguments: `{"args":["$DIR/site"]}`, Argv: []string{"new", "project", "$DIR/site"}},
	{Tool: "hugo_gen_chromastyles", Arguments: `{"flags":{"style":"monokai"}}`, Argv: []string{"gen", "chromastyles", "--style=monokai"}},
}

// TestHugo builds hugo, reflects the binary from outside (cold, then warm
// from the cache) and compares every tool of the expanded listing with the
// in-process reflection of the tree its main builds: a difference of a
// kind that docs/external.md's known limits do not list fails the test.
// Offline calls through the tools served from outside give what the
// binary gives run directly. The row of docs/external.md's corpus table
// is logged.
func TestHugo(t *testing.T) {
	known, err := toolcompare.KnownLimits("../../../docs/external.md")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "hugo")
	if b, err := exec.Command("go", "build", "-o", bin, "github.com/gohugoio/hugo").CombinedOutput(); err != nil {
		t.Fatalf("building hugo %s: %v\n%s", version, err, b)
	}
	// As hugo's main (commands.Execute) builds it.
	x, err := newExec()
	if err != nil {
		t.Fatal(err)
	}
	root := (*execLayout)(unsafe.Pointer(x)).c.CobraCommand
	t.Log(corpustest.Compare(t, known, corpustest.CLI{Name: "hugo", Version: version, Bin: bin, Root: root, Calls: calls, MinTools: 30}))
}
