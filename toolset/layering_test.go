package toolset_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLayering: the import graph runs one way, from the commands down to
// the library. No library package depends, even indirectly, on the
// command group (mcpcmd), the adoption face (bridge) or a binary (cmd/).
func TestLayering(t *testing.T) {
	const mod = "github.com/cobramcp/cobramcp/"
	library := []string{"toolset", "serve", "exec", "flagschema", "dialect", "rank", "external"}
	above := []string{mod + "mcpcmd", mod + "bridge", mod + "cmd/"}
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
