// Command shapes is a test fixture: the tree of package shapes; with
// SHAPES_OWN_HELP set, its help command is its own, with sub-commands.
package main

import (
	"os"

	"github.com/cobramcp/cobramcp/external/internal/shapes"
)

func main() {
	if err := shapes.New(os.Getenv("SHAPES_OWN_HELP") != "").Execute(); err != nil {
		os.Exit(1)
	}
}
