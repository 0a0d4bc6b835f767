package repo_test

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// testModules are the directories under test/ that hold a go.mod of
// their own (the real CLIs, the Collector, the identity provider...),
// relative to the repository's root. A go.mod under testdata/ or
// node_modules/ is a fixture, not one of them.
func testModules(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(filepath.Join(root, "test"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "go.mod" {
			rel, err := filepath.Rel(root, filepath.Dir(path))
			if err != nil {
				return err
			}
			dirs = append(dirs, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// TestTestModulesTidy: every module under test/ is tidy. Each replaces
// this module by the repository's root, so the root's requirements feed
// its go.mod and go.sum, which drift whenever the root gains or moves a
// requirement; `go mod tidy -diff` exits non-zero when they do. It asks
// the module proxy only for what the module cache lacks: quick once the
// test modules have been built.
func TestTestModulesTidy(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command: %v", err)
	}
	dirs := testModules(t)
	if len(dirs) == 0 {
		t.Fatal("no go.mod found under test/")
	}
	for _, dir := range dirs {
		t.Run(dir, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(goCmd, "mod", "tidy", "-diff")
			cmd.Dir = filepath.Join(root, filepath.FromSlash(dir))
			cmd.Env = append(os.Environ(), "GOWORK=off")
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			switch {
			case err == nil:
			case stdout.Len() > 0:
				t.Errorf("module %s: go.mod or go.sum is not tidy; fix it with: cd %s && go mod tidy (make tidy does every module)\n%s",
					dir, dir, firstLines(stdout.String(), 40))
			default:
				t.Errorf("module %s: go mod tidy -diff: %v\n%s", dir, err, firstLines(stderr.String(), 20))
			}
		})
	}
}

// firstLines is s cut after n lines, saying how many were left out.
func firstLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[:n], "") + "... (" + strconv.Itoa(len(lines)-n) + " more lines)\n"
}
