package api_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// budget is the most exported names the public packages may have in all:
// types, functions, constants, variables and methods (a struct's fields
// are not counted). Every exported name is a promise to adopters; a new
// one has to be worth keeping another out (issue 35).
const budget = 150

// names returns the exported names of the public packages, as test/api
// lists them, without fields and embeddings.
func names(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, pkg := range packages {
		if _, err := os.Stat(filepath.Join(root, pkg)); err != nil {
			continue
		}
		lines, err := apiOf(filepath.Join(root, pkg), pkg)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			f := strings.Fields(l)
			if len(f) > 1 && (f[1] == "field" || f[1] == "embedded") {
				continue
			}
			out = append(out, f[0])
		}
	}
	return out
}

func TestAPIBudget(t *testing.T) {
	all := names(t)
	if len(all) > budget {
		t.Errorf("the public packages export %d names (fields not counted), over the budget of %d: unexport or remove one for each one added (see CHANGELOG.md and test/api/testdata)", len(all), budget)
	}
	t.Logf("%d exported names, budget %d", len(all), budget)
}

// Every exported name is used where an adopter or an embedder would see
// it: by an Example or a test outside its package (a package_test file, or
// another package's test), or named on a doc page (README.md, docs/, a
// package doc). A name that nothing shows is one nobody needs.
func TestAPIUsed(t *testing.T) {
	var corpus strings.Builder
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "node_modules" || n == ".git" || n == "testdata" && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		switch {
		case strings.HasSuffix(rel, ".md"), strings.HasSuffix(rel, "/doc.go"):
		case strings.HasSuffix(rel, "_test.go"):
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			// A test of the package itself (package X, not X_test) sees
			// its unexported names too: it shows nothing to an adopter.
			if regexp.MustCompile(`(?m)^package \w+_test$`).Match(b) || !publicDir(rel) {
				corpus.Write(b)
				corpus.WriteByte('\n')
			}
			return nil
		default:
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		corpus.Write(b)
		corpus.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	text := corpus.String()
	for _, n := range names(t) {
		parts := strings.Split(n, ".")
		var re string
		if len(parts) == 2 { // pkg.Name, or Name after a dot-less mention in docs
			re = `(^|[^\w.])(` + parts[0] + `\.)?` + parts[1] + `\b`
		} else { // pkg.Type.Method: .Method, as a call or a doc's Type.Method
			re = `\.` + parts[2] + `\b`
		}
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("%s: no Example, test outside its package or doc page uses it", n)
		}
	}
}

// publicDir reports whether rel (a file's path from the repository's
// root) is in one of the public packages' directories.
func publicDir(rel string) bool {
	for _, p := range packages {
		if filepath.Dir(rel) == p {
			return true
		}
	}
	return false
}
