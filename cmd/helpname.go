package cmd

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The placeholders the help texts of the mcp commands are written with:
// the CLI's name (CLINAME mcp start, CLINAME_get_pods) and its environment
// variable prefix (CLIENV_MCP_TOKEN). Help and usage show the real root's
// name and prefix instead.
const (
	nameHolder = "CLINAME"
	envHolder  = "CLIENV"
)

// nameTheCLI makes the help and usage of every command under group name
// the CLI that group serves (cliName: its root's name, or the CLI served
// from outside), which is known only once the group is added to its root: the texts (short, long, examples, flag usages)
// are rewritten when help or usage is first shown, then printed by the
// help and usage functions the group would otherwise inherit.
func nameTheCLI(group *cobra.Command, cliName func() string) {
	var named string // the root name the texts were rewritten for
	rename := func() {
		name := cliName()
		if name == named {
			return
		}
		from, fromEnv := named, envStem(named)
		if named == "" {
			from, fromEnv = nameHolder, envHolder
		}
		named = name
		r := strings.NewReplacer(from, name, fromEnv, envStem(name))
		renameTexts(group, r)
	}
	group.SetHelpFunc(func(c *cobra.Command, args []string) {
		rename()
		inherited(group).HelpFunc()(c, args)
	})
	group.SetUsageFunc(func(c *cobra.Command) error {
		rename()
		return inherited(group).UsageFunc()(c)
	})
}

// inherited is the command whose help and usage functions group would use
// without its own: its parent, or a bare command (cobra's defaults).
func inherited(group *cobra.Command) *cobra.Command {
	if group.HasParent() {
		return group.Parent()
	}
	return &cobra.Command{}
}

// envStem is the environment variable prefix of the CLI named name:
// "ACME" for "acme".
func envStem(name string) string { return strings.TrimSuffix(TokenEnv(name), "_MCP_TOKEN") }

// renameTexts applies r to the texts of c and of every command under it.
func renameTexts(c *cobra.Command, r *strings.Replacer) {
	c.Short, c.Long, c.Example = r.Replace(c.Short), r.Replace(c.Long), r.Replace(c.Example)
	fix := func(f *pflag.Flag) { f.Usage = r.Replace(f.Usage) }
	c.LocalFlags().VisitAll(fix)
	c.PersistentFlags().VisitAll(fix)
	for _, s := range c.Commands() {
		renameTexts(s, r)
	}
}
