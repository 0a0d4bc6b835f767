// Command endless is a test fixture: a CLI whose tree has no end. Every
// command has six sub-commands, made up on demand for the path named on
// the command line, so asking for any of them shows six more. Reflection
// must stop by itself, at its limits.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

// fanOut is how many sub-commands every command has.
const fanOut = 6

func main() {
	root := &cobra.Command{Use: "endless", Short: "A tree with no end"}
	expand(root)
	cur := root
	for _, a := range os.Args[1:] {
		for _, s := range cur.Commands() {
			if s.Name() == a {
				cur = s
				expand(cur)
				break
			}
		}
	}
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}

// expand gives c its sub-commands, once.
func expand(c *cobra.Command) {
	if len(c.Commands()) > 0 {
		return
	}
	for i := range fanOut {
		sub := &cobra.Command{
			Use:   fmt.Sprintf("s%d", i),
			Short: fmt.Sprintf("Sub-command %d", i),
			Run:   func(*cobra.Command, []string) {},
		}
		sub.Flags().String("name", "", "a name")
		c.AddCommand(sub)
	}
}
