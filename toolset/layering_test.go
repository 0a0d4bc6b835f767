package toolset_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLayering: the import graph runs one way, from the commands down to
// the library. No library package depends, even indirectly, on the
// command group (bridge) or a binary (cmd/).
func TestLayering(t *testing.T) {
	const mod = "github.com/cobramcp/cobramcp/"
	library := []string{"toolset", "serve", "oauth", "access", "audit", "internal/exec", "internal/flagschema", "internal/dialect", "internal/rank", "internal/external"}
	above := []string{mod + "bridge", mod + "cmd/"}
	for _, pkg := range library {
		out, err := exec.Command("go", "list", "-deps", mod+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, a := range above {
				if strings.HasPrefix(dep, a) {
					t.Errorf("%s depends on %s, a package above the library", pkg, dep)
				}
			}
		}
	}
}

// TestToolsetBelowDialect: toolset does not depend on dialect, which
// reads toolset's output; what both need lives in internal/toolmeta.
func TestToolsetBelowDialect(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/cobramcp/cobramcp/toolset").Output()
	if err != nil {
		t.Fatalf("go list -deps toolset: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "github.com/cobramcp/cobramcp/internal/dialect" {
			t.Error("toolset depends on dialect")
		}
	}
}
