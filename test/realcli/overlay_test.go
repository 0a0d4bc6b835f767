package realcli

import (
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/internal/external"
)

// TestBuiltinOverlayMatchesKubectl: every command and flag that the
// overlay cobramcp ships for kubectl names exists in the kubectl this
// module builds, and a default it gives is kubectl's. A built-in overlay
// skips, with a note, what the served version lacks; this keeps the
// shipped one from drifting unnoticed.
func TestBuiltinOverlayMatchesKubectl(t *testing.T) {
	o, err := external.BuiltinOverlay("kubectl")
	if err != nil || o == nil {
		t.Fatalf("built-in overlay for kubectl: %v, %v", o, err)
	}
	root := Kubectl()
	find := func(path string) *cobra.Command {
		c, rest, err := root.Find(strings.Fields(path))
		if err != nil || len(rest) > 0 || c.CommandPath() != "kubectl "+path {
			return nil
		}
		return c
	}
	if len(o.Commands) == 0 || len(o.Exclude) == 0 {
		t.Fatalf("overlay has %d commands, %d exclusions: not kubectl's", len(o.Commands), len(o.Exclude))
	}
	for _, path := range o.Exclude {
		if find(path) == nil {
			t.Errorf("exclude %q: no such kubectl command", path)
		}
	}
	paths := make([]string, 0, len(o.Commands))
	for p := range o.Commands {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, path := range paths {
		c := find(path)
		if c == nil {
			t.Errorf("commands %q: no such kubectl command", path)
			continue
		}
		if !c.Runnable() {
			t.Errorf("commands %q: kubectl's command does not run (a group)", path)
		}
		for name := range o.Commands[path].Flags {
			if c.Flag(name) == nil {
				t.Errorf("commands %q: flag --%s: kubectl's command has no such flag", path, name)
			}
		}
	}
	for name, fo := range o.Flags {
		f := root.Flag(name)
		if f == nil {
			f = root.PersistentFlags().Lookup(name)
		}
		switch {
		case f == nil:
			t.Errorf("flags %q: no such kubectl flag", name)
		case fo.Default != nil && *fo.Default != f.DefValue:
			t.Errorf("flags %q: default %q, kubectl's is %q", name, *fo.Default, f.DefValue)
		}
	}
}
