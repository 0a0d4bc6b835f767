package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cobramcp/cobramcp/internal/rank"
	"github.com/cobramcp/cobramcp/test/searchbench/tree"
)

// Task is one thing a person asks of a CLI, with the commands that do it.
type Task struct {
	ID    string   `json:"id"`
	CLI   string   `json:"cli"`
	Query string   `json:"query"`
	Want  []string `json:"want"` // command paths below the root; any of them is right
}

// Held reports whether the task is in the held-out half: the split is by
// a hash of the task's id, so that it does not depend on the order tasks
// were written in and never changes.
func (t Task) Held() bool {
	h := fnv.New32a()
	h.Write([]byte(t.ID))
	return h.Sum32()%2 == 1
}

// CLI is one CLI's served commands.
type CLI struct {
	Name     string
	Module   string
	Commands []Served
	Docs     []rank.Doc // Docs[i] describes Commands[i]
}

// Served is one command a bridge serves from a tree, with what a search
// reads of it.
type Served struct {
	Path    string // below the root, "" for the root
	Words   []string
	Aliases []string // its own and its parents'
	tree.Command
}

// loadTasks reads testdata/tasks.json.
func loadTasks(dir string) ([]Task, error) { return loadTaskFile(filepath.Join(dir, "tasks.json")) }

// loadTaskFile reads a file of tasks.
func loadTaskFile(file string) ([]Task, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading the tasks: %w", err)
	}
	var ts []Task
	if err := json.Unmarshal(b, &ts); err != nil {
		return nil, fmt.Errorf("decoding the tasks: %w", err)
	}
	return ts, nil
}

// loadCLIs reads the tree snapshots under testdata/trees.
func loadCLIs(dir string) (map[string]*CLI, error) {
	files, err := filepath.Glob(filepath.Join(dir, "trees", "*.json"))
	if err != nil {
		return nil, err
	}
	clis := map[string]*CLI{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("reading a tree: %w", err)
		}
		var t tree.Tree
		if err := json.Unmarshal(b, &t); err != nil {
			return nil, fmt.Errorf("decoding %s: %w", f, err)
		}
		clis[t.CLI] = served(t)
	}
	if len(clis) == 0 {
		return nil, fmt.Errorf("no trees under %s", filepath.Join(dir, "trees"))
	}
	return clis, nil
}

// served picks the commands a bridge serves from t (runnable, not hidden,
// not deprecated, not cobra's own help and completion), as bridge/walk.go
// does.
func served(t tree.Tree) *CLI {
	byPath := map[string]tree.Command{}
	for _, c := range t.Commands {
		byPath[c.Path] = c
	}
	cli := &CLI{Name: t.CLI, Module: t.Module}
	for _, c := range t.Commands {
		words := strings.Fields(c.Path)[1:]
		if !c.Runnable || c.Hidden || c.Deprecated || len(words) > 0 && isCobraDefault(words[0], byPath[t.CLI+" "+words[0]].Short) {
			continue
		}
		s := Served{Path: strings.Join(words, " "), Words: words, Command: c}
		full := strings.Fields(c.Path)
		for i := len(full); i > 1; i-- {
			s.Aliases = append(s.Aliases, byPath[strings.Join(full[:i], " ")].Aliases...)
		}
		cli.Commands = append(cli.Commands, s)
		d := rank.Doc{Path: words, Aliases: s.Aliases, Short: c.Short, Long: c.Long, Example: c.Example}
		for _, f := range c.Flags {
			d.Flags = append(d.Flags, rank.Flag{Name: f.Name, Usage: f.Usage})
		}
		cli.Docs = append(cli.Docs, d)
	}
	return cli
}

// isCobraDefault reports whether a top-level command is cobra's own help
// or completion command, which the bridge does not serve (nor their
// subcommands).
func isCobraDefault(name, short string) bool {
	switch name {
	case "help":
		return short == "Help about any command"
	case "completion":
		return strings.HasPrefix(short, "Generate the autocompletion script")
	case "__complete", "__completeNoDesc":
		return true
	}
	return false
}

// sortedNames are the CLIs' names, sorted.
func sortedNames(clis map[string]*CLI) []string {
	var names []string
	for n := range clis {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
