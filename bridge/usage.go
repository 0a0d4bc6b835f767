package bridge

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// subcommandArgs is the Args of a command that only groups others (mcp,
// mcp CLIENT): a word that is none of them is an unknown command, with
// the suggestions cobra gives only at the root ("strat": did you mean
// start?).
func subcommandArgs(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
	if c.SuggestionsMinimumDistance <= 0 {
		c.SuggestionsMinimumDistance = 2 // cobra's default, set as cobra sets it
	}
	if s := c.SuggestionsFor(args[0]); len(s) > 0 && !c.Root().DisableSuggestions {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return errors.New(msg)
}

// flagsOnly is the Args of mcp start, stream and tools, which take flags
// only: a word left over is most often the second value of a list flag
// written with a space (--tools a b), which the message says how to write.
func flagsOnly(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return fmt.Errorf("unexpected argument %q: %s takes flags only (a list flag takes its values separated by commas: --tools 'a*,b*')", args[0], c.CommandPath())
}

// usageOnlyForUsageErrors makes every command of cmds, and under them, print an error
// alone when it fails at run time (a file it cannot read, a pattern that
// matches no tool, an export that would lose data), keeping cobra's usage
// text for the errors cobra finds before running the command: unknown
// flags, bad flag values and wrong argument counts. cobra runs PreRun after
// those checks and before RunE; one function for every command, so that
// building the group allocates nothing for it.
func usageOnlyForUsageErrors(cmds []*cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.PreRun == nil && c.PreRunE == nil {
			c.PreRun = silenceUsage
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	for _, s := range cmds {
		walk(s)
	}
}

// silenceUsage is the PreRun of the mcp commands (usageOnlyForUsageErrors).
func silenceUsage(c *cobra.Command, _ []string) { c.SilenceUsage = true }
