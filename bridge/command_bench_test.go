package bridge_test

import (
	"testing"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
)

// BenchmarkCommand is what adding the mcp group costs an adopting CLI on
// every run, MCP or not.
func BenchmarkCommand(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		root := &cobra.Command{Use: "mycli"}
		root.AddCommand(bridge.Command(nil))
	}
}
