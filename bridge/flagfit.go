package bridge

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The flags of the mcp commands live beside the persistent flags of the
// CLI they are added to, which cobra merges into every command below
// them. A long name both define is the mcp command's there (cobra's rule
// for a command's own flag: the CLI's flag of that name is given to the
// calls with --set NAME=VALUE). A shorthand the CLI's persistent flag
// uses under another name would make cobra panic when it merges the two
// ("unable to redefine 'o' shorthand"): the mcp command's flag gives it
// up, and its usage says whose it is. fitter applies that to every flag
// of every mcp command, whoever defined it (the group's own, the
// opt-ins', a later one's), when the tree above is known.
//
// cobra 1.9 reads a command's flags (stripFlags, in Find) before it runs
// anything of the command's, and the group is made before it is added to
// its root: the one call the mcp commands get before cobra merges their
// flags is the normalization function of their flag sets, which cobra
// calls when it looks a name up there. fitter is that function (an
// identity: it changes no name), on the group and every command below it;
// the help functions and the commands' PreRun fit too. A CLI that sets
// its own global normalization function on the whole tree
// (SetGlobalNormalizationFunc, as kubectl's main does) replaces it: there
// the flags are fitted when help is shown or an mcp command runs, and a
// shorthand clash on the command run itself still panics in cobra.

// fitter lays the flags of the mcp commands out against the persistent
// flags of the commands above them.
type fitter struct {
	// top are the commands New made, the group first, wherever New put
	// them; the commands below them are fitted too.
	top []*cobra.Command
	// group is where the sub-commands hang (the group, or
	// Options.Parent): the commands above it, and it when it is Parent,
	// are the CLI's.
	group *cobra.Command
	// ours are the flags New defined on commands that are not the mcp
	// commands' (--mcp-log-level on Options.Parent).
	ours map[*pflag.Flag]bool
	// seen is the tree the flags were last fitted for; busy is set
	// while fitting (the normalization calls fitting makes return at
	// once).
	seen treeState
	busy bool
}

// treeState tells whether the tree above the mcp commands changed: its
// root, and how many persistent flags the commands above them have.
type treeState struct {
	root  *cobra.Command
	flags int
}

// state returns the tree's state now.
func (f *fitter) state() treeState {
	s := treeState{root: f.group.Root()}
	count := func(*pflag.Flag) { s.flags++ }
	for a := f.group; a != nil; a = a.Parent() {
		a.PersistentFlags().VisitAll(count)
	}
	pflag.CommandLine.VisitAll(count)
	return s
}

// install makes f the normalization function of every mcp command's flag
// sets, and of those cobra makes for them, and fits the flags when the
// commands are below the CLI's already (Options.Parent).
func (f *fitter) install() {
	f.busy = true
	n := f.normalize
	for _, c := range f.top {
		c.SetGlobalNormalizationFunc(n) // and the commands below c
	}
	f.busy = false
	f.refit()
}

// refit fits the flags for the tree the commands are in now, if they are
// below the CLI's: the help functions call it before they show anything.
func (f *fitter) refit() {
	if !f.busy && f.hasAbove() {
		f.seen = f.state()
		f.fit()
	}
}

// normalize is the commands' flag sets' normalization function: it fits
// the flags once the commands are in a tree, and again when the tree
// changed (a root, a persistent flag above them), then returns name
// unchanged.
func (f *fitter) normalize(_ *pflag.FlagSet, name string) pflag.NormalizedName {
	if !f.busy && f.hasAbove() {
		if s := f.state(); s != f.seen {
			f.seen = s
			f.fit()
		}
	}
	return pflag.NormalizedName(name)
}

// hasAbove reports whether the mcp commands are below commands of the
// CLI's.
func (f *fitter) hasAbove() bool {
	return f.group != f.top[0] || f.group.HasParent()
}

// commands returns the mcp commands: top and all below them.
func (f *fitter) commands() []*cobra.Command {
	var out []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		out = append(out, c)
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	for _, c := range f.top {
		walk(c)
	}
	return out
}

// fit gives up, on every mcp command, each shorthand that a persistent
// flag of the CLI's, which cobra would merge into that command, uses
// under another name.
func (f *fitter) fit() {
	f.busy = true
	defer func() { f.busy = false }()
	mcp := map[*cobra.Command]bool{}
	for _, c := range f.commands() {
		mcp[c] = true
	}
	for _, c := range f.commands() {
		f.fitCommand(c, mcp)
	}
}

// fitCommand fits c's own flags (see fit).
func (f *fitter) fitCommand(c *cobra.Command, mcp map[*cobra.Command]bool) {
	own, persistent := ownFlags(c)
	names := map[string]bool{}
	for _, fl := range append(own, persistent...) {
		names[fl.Name] = true
	}
	// The shorthands the CLI's flags bring, as cobra merges them: the
	// parents nearest first, each name once, then pflag's global set
	// (added to the root's).
	taken := map[string]*pflag.Flag{}
	add := func(fl *pflag.Flag) {
		if names[fl.Name] || f.ours[fl] {
			return
		}
		names[fl.Name] = true
		if fl.Shorthand != "" && taken[fl.Shorthand] == nil {
			taken[fl.Shorthand] = fl
		}
	}
	for a := c.Parent(); a != nil; a = a.Parent() {
		if !mcp[a] {
			a.PersistentFlags().VisitAll(add)
		}
	}
	pflag.CommandLine.VisitAll(add)
	clash := false
	for _, fl := range append(own, persistent...) {
		clash = clash || fl.Shorthand != "" && taken[fl.Shorthand] != nil
	}
	if !clash {
		return
	}
	norm := c.Flags().GetNormalizeFunc()
	sortOwn, sortPersistent := c.Flags().SortFlags, c.PersistentFlags().SortFlags
	c.ResetFlags()
	c.Flags().SetNormalizeFunc(norm)
	c.PersistentFlags().SetNormalizeFunc(norm)
	c.Flags().SortFlags, c.PersistentFlags().SortFlags = sortOwn, sortPersistent
	cli := c.Root().Name()
	for _, set := range []struct {
		flags []*pflag.Flag
		to    *pflag.FlagSet
	}{{own, c.Flags()}, {persistent, c.PersistentFlags()}} {
		for _, fl := range set.flags {
			if t := taken[fl.Shorthand]; fl.Shorthand != "" && t != nil {
				fl.Usage += fmt.Sprintf(" (-%s is %s's --%s)", fl.Shorthand, cli, t.Name)
				fl.Shorthand = ""
			}
			set.to.AddFlag(fl)
		}
	}
	// cobra may be merging c's flags right now (the hook runs inside
	// that): its flag set of the parents' flags, which ResetFlags drops,
	// is made again.
	c.InheritedFlags()
}

// ownFlags returns the flags c defines itself, in the order it defined
// them: its local flags (those of c.Flags() that are neither its
// persistent flags nor an ancestor's, which cobra may have merged in
// already) and its persistent flags.
func ownFlags(c *cobra.Command) (local, persistent []*pflag.Flag) {
	inherited := map[*pflag.Flag]bool{}
	mark := func(fl *pflag.Flag) { inherited[fl] = true }
	c.PersistentFlags().VisitAll(mark)
	for a := c.Parent(); a != nil; a = a.Parent() {
		a.PersistentFlags().VisitAll(mark)
	}
	pflag.CommandLine.VisitAll(mark)
	visitInOrder(c.Flags(), func(fl *pflag.Flag) {
		if !inherited[fl] {
			local = append(local, fl)
		}
	})
	visitInOrder(c.PersistentFlags(), func(fl *pflag.Flag) { persistent = append(persistent, fl) })
	return local, persistent
}

// visitInOrder visits the flags of fs in the order they were added.
func visitInOrder(fs *pflag.FlagSet, fn func(*pflag.Flag)) {
	sorted := fs.SortFlags
	fs.SortFlags = false
	defer func() { fs.SortFlags = sorted }()
	fs.VisitAll(fn)
}
