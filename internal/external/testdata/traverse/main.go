// Command traverse is a test fixture: a root whose local flags (docker's
// global options) are read before the sub-command's name, as cobra's
// TraverseChildren reads them, and whose sub-command reuses a root
// shorthand. With TRAVERSE_OFF set it is the same tree without
// TraverseChildren.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

func main() {
	root := &cobra.Command{Use: "traverse", Short: "A CLI with global options", TraverseChildren: os.Getenv("TRAVERSE_OFF") == ""}
	ctx := root.Flags().StringP("context", "c", "default", "the context to use")
	debug := root.Flags().BoolP("debug", "D", false, "debug output")
	run := &cobra.Command{
		Use:   "run IMAGE",
		Short: "Run an image",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			shares, _ := c.Flags().GetInt("cpu-shares")
			fmt.Printf("context=%s debug=%v cpu-shares=%d image=%s\n", *ctx, *debug, shares, args[0])
			return nil
		},
	}
	run.Flags().IntP("cpu-shares", "c", 0, "CPU shares")
	root.AddCommand(run)
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}
