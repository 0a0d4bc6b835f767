// Command shapes is a test fixture: the tree of package shapes; with
// SHAPES_OWN_HELP set, its help command is its own, with sub-commands;
// with SHAPES_OWN_HELP_FLAG set, its --help flag is its own (shapes.Options).
package main

import (
	"os"

	"github.com/cobramcp/cobramcp/external/internal/shapes"
)

func main() {
	if err := shapes.NewWith(shapes.Options{OwnHelp: os.Getenv("SHAPES_OWN_HELP") != "", OwnHelpFlag: os.Getenv("SHAPES_OWN_HELP_FLAG") != ""}).Execute(); err != nil {
		os.Exit(1)
	}
}
