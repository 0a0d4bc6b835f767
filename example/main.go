// Command mycli is the cobramcp demo: a small kubectl-like CLI (package
// github.com/cobramcp/cobramcp/example/mycli) that becomes an MCP server by adding one command:
//
//	root.AddCommand(bridge.Command(nil))
//
// Run `mycli mcp --help` to see what that adds.
package main

import (
	"os"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/example/mycli"
)

func main() {
	root := mycli.New()
	root.AddCommand(bridge.Command(nil)) // the one-line adoption
	os.Exit(mycli.ExitCode(root.Execute()))
}
