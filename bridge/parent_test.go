package bridge_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
)

// TestParentPlacesTheCommands: with Options.Parent, New puts each
// sub-command at the parent, except those whose name the parent already
// has a command of, which stay in the group New returns; the commands at
// the parent run, with --mcp-log-level as the parent's persistent flag,
// and a persistent flag of the parent is not taken for a pin.
func TestParentPlacesTheCommands(t *testing.T) {
	root := &cobra.Command{Use: "server", SilenceUsage: true, SilenceErrors: true}
	root.PersistentFlags().String("cache-dir", "", "the program's own option")
	root.AddCommand(&cobra.Command{Use: "call", Short: "the program's own call", RunE: func(*cobra.Command, []string) error { return nil }})
	group := bridge.New(bridge.Options{Parent: root, Tree: newFake().source})
	root.AddCommand(group)

	for _, name := range []string{"start", "stream", "tools", "tool", "claude"} {
		if c, _, err := root.Find([]string{name}); err != nil || c.Name() != name || c.Parent() != root {
			t.Errorf("%s is not at the parent: %v", name, err)
		}
	}
	if c, _, err := root.Find([]string{"call"}); err != nil || c.Short != "the program's own call" {
		t.Errorf("the parent's own call was replaced: %v", err)
	}
	if c, _, err := root.Find([]string{"mcp", "call"}); err != nil || c.Parent() != group {
		t.Errorf("the group's call is not in the group: %v", err)
	}
	if len(group.Commands()) != 1 {
		t.Errorf("the group holds %d commands, want only call", len(group.Commands()))
	}
	if root.PersistentFlags().Lookup("mcp-log-level") == nil {
		t.Error("--mcp-log-level is not the parent's")
	}
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs([]string{"tools", "-o", "-", "--cache-dir", "/tmp/x", "--mcp-log-level", "error"})
	if err := root.Execute(); err != nil || !strings.Contains(out.String(), `"fake_get"`) {
		t.Errorf("tools at the parent: %v\n%s", err, out.String())
	}
}
