package bridge_test

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
)

// The one-line adoption: the CLI gains the mcp command group.
func ExampleCommand() {
	root := &cobra.Command{Use: "mycli"}
	root.AddCommand(bridge.Command(nil))
	group, _, err := root.Find([]string{"mcp"})
	if err != nil {
		panic(err)
	}
	for _, c := range group.Commands() {
		if c.Name() == "start" || c.Name() == "tools" || c.Name() == "call" {
			fmt.Println(c.CommandPath(), "-", c.Short)
		}
	}
	// Output:
	// mycli mcp call - Run one tool call without a client and print its result as JSON
	// mycli mcp start - Serve the tools over stdio (what MCP clients launch)
	// mycli mcp tools - Export the tool definitions as JSON, in MCP or another dialect
}
