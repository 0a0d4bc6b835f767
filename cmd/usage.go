package cmd

import "github.com/spf13/cobra"

// usageOnlyForUsageErrors makes every command under group print an error
// alone when it fails at run time (a file it cannot read, a pattern that
// matches no tool, an export that would lose data), keeping cobra's usage
// text for the errors cobra finds before running the command: unknown
// flags, bad flag values and wrong argument counts.
func usageOnlyForUsageErrors(group *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if run := c.RunE; run != nil {
			c.RunE = func(c *cobra.Command, args []string) error {
				c.SilenceUsage = true
				return run(c, args)
			}
		}
		if run := c.Run; run != nil {
			c.Run = func(c *cobra.Command, args []string) {
				c.SilenceUsage = true
				run(c, args)
			}
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	for _, s := range group.Commands() {
		walk(s)
	}
}
