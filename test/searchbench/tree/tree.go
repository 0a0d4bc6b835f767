// Package tree is the snapshot of a CLI's command tree that the search
// evaluation reads: each command's path, descriptions, examples, aliases
// and flags, as JSON. It depends on cobra only, so that modules pinning
// CLIs whose dependencies conflict can share it.
package tree

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Tree is the snapshot of one CLI's command tree.
type Tree struct {
	CLI      string    `json:"cli"`
	Module   string    `json:"module"` // module@version
	Commands []Command `json:"commands"`
}

// Command is one command of a tree, with what a search can read of it.
type Command struct {
	Path       string   `json:"path"` // the full command path, the root's name first
	Aliases    []string `json:"aliases,omitempty"`
	Short      string   `json:"short,omitempty"`
	Long       string   `json:"long,omitempty"`
	Example    string   `json:"example,omitempty"`
	Runnable   bool     `json:"runnable,omitempty"`
	Hidden     bool     `json:"hidden,omitempty"`     // hidden itself or under a hidden command
	Deprecated bool     `json:"deprecated,omitempty"` // deprecated itself or under a deprecated command
	Flags      []Flag   `json:"flags,omitempty"`      // its own flags, hidden ones left out
	Inherited  []string `json:"inherited,omitempty"`  // names of the flags it inherits, hidden ones left out
}

// Flag is one flag of a command.
type Flag struct {
	Name      string `json:"name"`
	Shorthand string `json:"shorthand,omitempty"`
	Usage     string `json:"usage,omitempty"`
}

// Snapshot walks root.
func Snapshot(name, module string, root *cobra.Command) Tree {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	t := Tree{CLI: name, Module: module}
	var walk func(c *cobra.Command, hidden, deprecated bool)
	walk = func(c *cobra.Command, hidden, deprecated bool) {
		hidden = hidden || c.Hidden
		deprecated = deprecated || c.Deprecated != ""
		sc := Command{
			Path: c.CommandPath(), Aliases: c.Aliases, Short: c.Short, Long: c.Long, Example: c.Example,
			Runnable: c.Runnable(), Hidden: hidden, Deprecated: deprecated,
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && f.Deprecated == "" {
				sc.Flags = append(sc.Flags, Flag{Name: f.Name, Shorthand: f.Shorthand, Usage: f.Usage})
			}
		})
		c.InheritedFlags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && f.Deprecated == "" {
				sc.Inherited = append(sc.Inherited, f.Name)
			}
		})
		sort.Slice(sc.Flags, func(i, j int) bool { return sc.Flags[i].Name < sc.Flags[j].Name })
		sort.Strings(sc.Inherited)
		t.Commands = append(t.Commands, sc)
		subs := c.Commands()
		sort.Slice(subs, func(i, j int) bool { return subs[i].Name() < subs[j].Name() })
		for _, s := range subs {
			walk(s, hidden, deprecated)
		}
	}
	walk(root, false, false)
	for i := range t.Commands {
		t.Commands[i].Long = strings.TrimSpace(t.Commands[i].Long)
	}
	return t
}

// WriteOrCompare writes t as indented JSON to file when update is set, and
// otherwise reports whether file holds exactly that.
func WriteOrCompare(t Tree, file string, update bool) error {
	got, err := json.MarshalIndent(t, "", " ")
	if err != nil {
		return fmt.Errorf("encoding the tree of %s: %w", t.CLI, err)
	}
	got = append(got, '\n')
	if update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			return fmt.Errorf("writing the tree of %s: %w", t.CLI, err)
		}
		return nil
	}
	want, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("%w (run with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%s differs from the tree built from %s; run with -update to refresh it", file, t.Module)
	}
	return nil
}

// ModuleVersion returns the version at which the go.mod file gomod
// requires module.
func ModuleVersion(gomod, module string) (string, error) {
	b, err := os.ReadFile(gomod)
	if err != nil {
		return "", fmt.Errorf("reading the pinned version of %s: %w", module, err)
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(l), "require "))
		if len(f) >= 2 && f[0] == module {
			return f[1], nil
		}
	}
	return "", fmt.Errorf("%s does not require %s", gomod, module)
}

// Served counts the commands a bridge serves: runnable, not hidden, not
// deprecated.
func (t Tree) Served() int {
	n := 0
	for _, c := range t.Commands {
		if c.Runnable && !c.Hidden && !c.Deprecated {
			n++
		}
	}
	return n
}
