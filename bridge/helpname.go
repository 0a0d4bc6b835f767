package bridge

import (
	"path/filepath"
	"slices"
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

// unnamedCLI names, in help texts, a CLI served from outside before it is
// named (Outside.Name returns ""), as the usage lines do.
const unnamedCLI = "BINARY"

// helpName is the name the help texts give the served CLI: its root's
// name, the one Outside.Name gives, or unnamedCLI while that is "".
func helpName(o *Options, c *cobra.Command) string {
	if o.Outside != nil && outsideName(o) == "" {
		return unnamedCLI
	}
	return serverName(o, c)
}

// nameTheCLI makes the help and usage of every command of group name the
// CLI that group serves (cliName), which is known only once the group is
// added to its root or, from outside, once the binary is named: the texts
// (short, long, examples, flag usages) are rewritten when help or usage is
// first shown, then printed by the help and usage functions the commands
// would otherwise inherit. Commands a program moves out of the group after
// New (cobramcp serves them at its top) keep this.
//
// A shell completion request (completing, the name the program was called
// by) shows the flags' usages and the commands' short texts without help
// or usage being asked, and before the group knows its root: they are
// rewritten at once, with that name. prepare runs first, each time (the
// flags are fitted to the tree, see fitter).
func nameTheCLI(top []*cobra.Command, cliName func() string, completing string, prepare func()) {
	// The commands and all below them, wherever New put them.
	var cmds []*cobra.Command
	var collect func(*cobra.Command)
	collect = func(c *cobra.Command) {
		cmds = append(cmds, c)
		for _, s := range c.Commands() {
			if !slices.Contains(top, s) {
				collect(s)
			}
		}
	}
	for _, c := range top {
		collect(c)
	}
	var named string // the root name the texts were rewritten for
	rename := func() {
		prepare()
		name := cliName()
		if completing != "" {
			name = completing
		}
		if name == named {
			return
		}
		from, fromEnv := named, envStem(named)
		if named == "" {
			from, fromEnv = nameHolder, envHolder
		}
		named = name
		r := strings.NewReplacer(from, name, fromEnv, envStem(name))
		for _, c := range cmds {
			renameTexts(c, r)
		}
	}
	if completing != "" {
		rename()
	}
	for _, c := range top {
		c.SetHelpFunc(func(h *cobra.Command, args []string) {
			rename()
			inherited(c).HelpFunc()(h, args)
		})
		c.SetUsageFunc(func(u *cobra.Command) error {
			rename()
			return inherited(c).UsageFunc()(u)
		})
	}
}

// completingAs returns the name the mcp texts give the CLI when this
// process answers a shell completion request (args are the program's
// arguments, cobra's __complete or __completeNoDesc first): the program's
// name, or unnamedCLI for a CLI served from outside (named only by the
// words after --); "" when it answers none.
func completingAs(o *Options, args []string) string {
	if len(args) < 2 || args[1] != cobra.ShellCompRequestCmd && args[1] != cobra.ShellCompNoDescRequestCmd {
		return ""
	}
	if o.Outside != nil {
		return unnamedCLI
	}
	return strings.TrimSuffix(filepath.Base(args[0]), ".exe")
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
func envStem(name string) string { return envPrefix(name) }

// renameTexts applies r to the texts of c: short, long, examples and the
// usages of the flags it defines.
func renameTexts(c *cobra.Command, r *strings.Replacer) {
	c.Short, c.Long, c.Example = r.Replace(c.Short), r.Replace(c.Long), r.Replace(c.Example)
	fix := func(f *pflag.Flag) { f.Usage = r.Replace(f.Usage) }
	c.LocalNonPersistentFlags().VisitAll(fix)
	c.PersistentFlags().VisitAll(fix)
}
