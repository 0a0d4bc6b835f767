package main

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstallDoc runs the install steps of docs/install.md as written, on
// this checkout standing for the clone: a new module that adopts the
// library through `go mod edit -require ... -replace ...` builds (with
// -mod=mod in place of `go mod tidy`, which would fetch the modules of the
// dependencies' tests), and its `mcp call` answers; the binary builds with the doc's
// `go build`. The module proxy is off: nothing is downloaded.
func TestInstallDoc(t *testing.T) {
	doc, err := os.ReadFile("../../docs/install.md")
	if err != nil {
		t.Fatal(err)
	}
	line := func(prefix string) []string {
		for _, l := range strings.Split(string(doc), "\n") {
			if strings.HasPrefix(l, prefix) {
				if i := strings.Index(l, "   #"); i >= 0 {
					l = l[:i]
				}
				return strings.Fields(l)
			}
		}
		t.Fatalf("docs/install.md has no line starting %q", prefix)
		return nil
	}
	edit, tidy, build := line("go mod edit -require="), line("go mod tidy"), line("go build -o cobramcp ./cmd/cobramcp")
	// The documented order: the one line of adoption before the go.mod
	// steps, which tidy would otherwise undo (it keeps only what the code
	// imports).
	adopt, modEdit := strings.Index(string(doc), "root.AddCommand(bridge.Command(nil))"), strings.Index(string(doc), "go mod edit -require=")
	if adopt < 0 || modEdit < 0 || adopt > modEdit {
		t.Errorf("docs/install.md must show the adoption line (at %d) before go mod edit (at %d): go mod tidy before the import drops the requirement", adopt, modEdit)
	}

	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(repo, filepath.Join(dir, "cobramcp")); err != nil { // the clone, beside the module
		t.Fatal(err)
	}
	mod := filepath.Join(dir, "yourcli")
	if err := os.Mkdir(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	// An empty directory made into a Cobra CLI's module, before it adopts
	// cobramcp: its go.mod requires cobra alone.
	files := map[string]string{
		"go.mod": "module example.com/yourcli\n\ngo 1.25.0\n\nrequire github.com/spf13/cobra v1.9.1\n",
		"main.go": `package main

import (
	"fmt"
	"os"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/spf13/cobra"
)

func main() {
	root := &cobra.Command{Use: "yourcli"}
	root.AddCommand(&cobra.Command{Use: "hello", Short: "Say hello", Run: func(*cobra.Command, []string) { fmt.Println("hello") }})
	root.AddCommand(bridge.Command(nil))
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}
`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The module proxy stays reachable, as on a newcomer's machine: go mod
	// tidy reads the modules of the dependencies' tests too.
	env := append(os.Environ(), "GOWORK=off")
	sh := func(dir string, argv ...string) string {
		t.Helper()
		c := osexec.Command(argv[0], argv[1:]...)
		c.Dir, c.Env = dir, env
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("%s (in %s): %v\n%s", strings.Join(argv, " "), dir, err, out)
		}
		return string(out)
	}
	// The clone's own modules, as a newcomer's machine has them after the
	// clone's first build: a fresh module cache lacks the go.mod of modules
	// that only another system builds (cobra's mousetrap, for Windows),
	// which resolving the new module's graph reads.
	dl := osexec.Command("go", "mod", "download")
	dl.Dir = repo
	if out, err := dl.CombinedOutput(); err != nil {
		t.Fatalf("go mod download (in the clone): %v\n%s", err, out)
	}
	sh(mod, edit...)
	sh(mod, tidy...)
	sh(mod, "go", "build", "-o", "yourcli", ".")
	if out := sh(mod, "./yourcli", "mcp", "call", "yourcli_hello"); !strings.Contains(out, `"stdout": "hello\n"`) {
		t.Errorf("yourcli mcp call yourcli_hello:\n%s", out)
	}
	bin := filepath.Join(t.TempDir(), "cobramcp")
	build[3] = bin // the doc writes ./cobramcp into the clone
	sh(repo, build...)
	if out := sh(repo, bin, "list", "--cache-dir", t.TempDir(), "--", filepath.Join(mod, "yourcli")); !strings.Contains(out, "yourcli_hello") {
		t.Errorf("cobramcp list -- yourcli:\n%s", out)
	}
}
