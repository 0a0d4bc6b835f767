// Command shapes is a test fixture: the tree of package shapes; with
// SHAPES_OWN_HELP set, its help command is its own, with sub-commands;
// with SHAPES_OWN_HELP_FLAG set, its --help flag is its own; with
// SHAPES_NO_GLOBALS set, its root has no flag that others inherit
// (shapes.Options); SHAPES names more of them (shapes.OptionsFromEnv).
// With SHAPES_ARGV_LOG set, it appends its args, one
// line a process, to that file.
package main

import (
	"os"
	"strings"

	"github.com/cobramcp/cobramcp/internal/external/internal/shapes"
)

func main() {
	if name := os.Getenv("SHAPES_ARGV_LOG"); name != "" {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			os.Exit(3)
		}
		f.WriteString(strings.Join(os.Args[1:], " ") + "\n")
		f.Close()
	}
	o, err := shapes.OptionsFromEnv(os.Getenv)
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(2)
	}
	o.OwnHelp = o.OwnHelp || os.Getenv("SHAPES_OWN_HELP") != ""
	o.OwnHelpFlag = o.OwnHelpFlag || os.Getenv("SHAPES_OWN_HELP_FLAG") != ""
	o.NoGlobals = o.NoGlobals || os.Getenv("SHAPES_NO_GLOBALS") != ""
	root := shapes.NewWith(o)
	if o.DefaultCommand {
		root.SetArgs(shapes.DefaultArgs(root, os.Args[1:]))
	}
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}
