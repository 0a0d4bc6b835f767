package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestNodeEnginesAdmitTheReadmeNode: every package that `npm ci` installs
// in test/node accepts the Node.js version the README names as the least
// that `make test` needs, so that npm prints no EBADENGINE warning there
// (content-type 3, pulled in by @octokit/request, wants Node 22; the
// package.json overrides it with 2.1.0).
func TestNodeEnginesAdmitTheReadmeNode(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`For .make test. only: Node\.js ([0-9.]+) or\s+later`).FindSubmatch(readme)
	if m == nil {
		t.Fatal("the README names no least Node.js version for make test")
	}
	floor, ok := parseVersion(string(m[1]))
	if !ok {
		t.Fatalf("README: %q is not a version", m[1])
	}
	raw, err := os.ReadFile(filepath.Join("..", "node", "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	var lock struct {
		Packages map[string]struct {
			Version string          `json:"version"`
			Engines json.RawMessage `json:"engines"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(raw, &lock); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for path, p := range lock.Packages {
		var engines struct {
			Node string `json:"node"`
		}
		if len(p.Engines) == 0 || json.Unmarshal(p.Engines, &engines) != nil || engines.Node == "" {
			continue // no engines, or the old array form, which npm ignores
		}
		checked++
		ok, err := satisfies(floor, engines.Node)
		if err != nil {
			t.Errorf("%s@%s: engines.node %q: %v", path, p.Version, engines.Node, err)
		} else if !ok {
			t.Errorf("%s@%s wants Node %s, which excludes Node %s (the README's least version): npm ci prints EBADENGINE", path, p.Version, engines.Node, m[1])
		}
	}
	if checked == 0 {
		t.Fatal("no package declares engines.node: the lock file was not read")
	}
}

// parseVersion reads "20", "20.18" or "20.18.1" (missing parts are 0).
func parseVersion(s string) ([3]int, bool) {
	var v [3]int
	parts := strings.Split(strings.TrimPrefix(s, "v"), ".")
	if len(parts) == 0 || len(parts) > 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return v, false
		}
		v[i] = n
	}
	return v, true
}

func compare(a, b [3]int) int {
	for i := range a {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// satisfies reports whether v is in the npm range r, for the forms the
// lock file holds: comparators (>=, >, <=, <, =, a bare version, ^ on a
// major version) joined by spaces (all must hold) and "||" (one set must).
// Any other form is an error, so that the test never passes unread.
func satisfies(v [3]int, r string) (bool, error) {
	for _, set := range strings.Split(r, "||") {
		fields := strings.Fields(set)
		all := true
		for i := 0; i < len(fields); i++ {
			f := fields[i]
			op := strings.TrimRight(f, "0123456789.xv")
			if op == f { // the operator stands apart: ">= 20"
				if i+1 == len(fields) {
					return false, strconv.ErrSyntax
				}
				i++
				f += fields[i]
			}
			w, ok := parseVersion(strings.TrimPrefix(f, op))
			if !ok {
				return false, strconv.ErrSyntax
			}
			c := compare(v, w)
			var holds bool
			switch op {
			case ">=":
				holds = c >= 0
			case ">":
				holds = c > 0
			case "<=":
				holds = c <= 0
			case "<":
				holds = c < 0
			case "", "=":
				holds = c == 0
			case "^":
				holds = c >= 0 && v[0] == w[0]
			default:
				return false, strconv.ErrSyntax
			}
			all = all && holds
		}
		if all && len(fields) > 0 {
			return true, nil
		}
	}
	return false, nil
}
