package main

import (
	"strings"
	"testing"

	"github.com/cobramcp/cobramcp/internal/rank"
)

func load(t testing.TB) ([]Task, map[string]*CLI) {
	t.Helper()
	tasks, err := loadTasks("testdata")
	if err != nil {
		t.Fatal(err)
	}
	clis, err := loadCLIs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	return tasks, clis
}

// TestTasks checks the task set: at least 150 tasks over at least 8 CLIs,
// each naming commands its CLI serves, split into two halves of about
// the same size.
func TestTasks(t *testing.T) {
	tasks, clis := load(t)
	if err := checkTasks(tasks, clis); err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	for _, tk := range tasks {
		per[tk.CLI]++
	}
	if len(tasks) < 150 || len(per) < 8 {
		t.Errorf("%d tasks over %d CLIs, want at least 150 over 8", len(tasks), len(per))
	}
	dev, held := len(pick(tasks, "dev")), len(pick(tasks, "heldout"))
	if dev+held != len(tasks) || dev < len(tasks)*2/5 || held < len(tasks)*2/5 {
		t.Errorf("halves of %d and %d tasks out of %d", dev, held, len(tasks))
	}
	t.Logf("%d tasks over %d CLIs (%v): %d dev, %d held out", len(tasks), len(per), per, dev, held)
	all := tasks
	for _, f := range []struct {
		file string
		min  int
	}{{"fresh.json", 70}, {"heldout3.json", 80}, {"heldout4.json", 100}, {"heldout5.json", 100}, {"heldout6.json", 100}} {
		more, err := loadTaskFile("testdata/" + f.file)
		if err != nil {
			t.Fatal(err)
		}
		per := map[string]int{}
		for _, tk := range more {
			per[tk.CLI]++
		}
		if len(more) < f.min || len(per) < 8 {
			t.Errorf("%s: %d tasks over %d CLIs, want at least %d over 8", f.file, len(more), len(per), f.min)
		}
		all = append(all, more...)
	}
	// The ids are unique across the files and every wanted command is
	// served.
	if err := checkTasks(all, clis); err != nil {
		t.Error(err)
	}
	queries := map[string]string{}
	for _, tk := range all {
		key := tk.CLI + " " + strings.ToLower(tk.Query)
		if id, ok := queries[key]; ok {
			t.Errorf("tasks %s and %s ask the same of %s", id, tk.ID, tk.CLI)
		}
		queries[key] = tk.ID
	}
}

// TestServed checks the served commands read from the snapshots: cobra's
// help and completion and hidden commands are not among them (a CLI's own
// completion command is).
func TestServed(t *testing.T) {
	_, clis := load(t)
	for name, cli := range clis {
		if len(cli.Commands) != len(cli.Docs) || len(cli.Commands) < 5 {
			t.Errorf("%s: %d commands, %d docs", name, len(cli.Commands), len(cli.Docs))
		}
		for _, c := range cli.Commands {
			if c.Path == "help" || strings.HasPrefix(c.Short, "Generate the autocompletion script") || c.Hidden || !c.Runnable {
				t.Errorf("%s: %q served", name, c.Path)
			}
		}
	}
}

// TestEvaluate checks the scoring of the evaluation on tasks whose answer
// the ranking must put first: the path the query names.
func TestEvaluate(t *testing.T) {
	_, clis := load(t)
	k := clis["kubectl"]
	if k == nil {
		t.Fatal("no kubectl tree")
	}
	ts := []Task{
		{ID: "a", CLI: "kubectl", Query: "rollout undo", Want: []string{"rollout undo"}},
		{ID: "b", CLI: "kubectl", Query: "rollout undo", Want: []string{"no such command"}},
	}
	s := evaluate(ts, clis, func(c *CLI) ranker { return rankSearch(rank.New(c.Docs)) })
	if s.n != 2 || s.first != 1 || s.top3 != 1 || s.top8 != 1 || len(s.misses) != 1 {
		t.Errorf("scores %+v, want 2 tasks, 1 first, 1 top 3, 1 top 8, 1 miss", s)
	}
}

// benchTrees are the trees benchmarked: kubectl and the largest.
func benchTrees(b *testing.B) []struct {
	cli     *CLI
	queries []string
} {
	tasks, clis := load(b)
	var out []struct {
		cli     *CLI
		queries []string
	}
	for _, c := range []*CLI{clis["kubectl"], largest(clis)} {
		var qs []string
		for _, t := range tasks {
			if t.CLI == c.Name {
				qs = append(qs, t.Query)
			}
		}
		out = append(out, struct {
			cli     *CLI
			queries []string
		}{c, qs})
	}
	return out
}

// BenchmarkRankSearch is one query of rank, the tasks' queries in turn.
func BenchmarkRankSearch(b *testing.B) {
	for _, t := range benchTrees(b) {
		ix := rank.New(t.cli.Docs)
		b.Run(t.cli.Name, func(b *testing.B) {
			b.ReportAllocs()
			b.ReportMetric(float64(len(t.cli.Docs)), "commands")
			i := 0
			for b.Loop() {
				ix.Search(t.queries[i%len(t.queries)], 8)
				i++
			}
		})
	}
}

// BenchmarkRankIndex builds rank's index of a tree.
func BenchmarkRankIndex(b *testing.B) {
	for _, t := range benchTrees(b) {
		b.Run(t.cli.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rank.New(t.cli.Docs)
			}
		})
	}
}

// BenchmarkBaselineSearch is one query of the baseline.
func BenchmarkBaselineSearch(b *testing.B) {
	for _, t := range benchTrees(b) {
		m := newBaseline(t.cli.Commands)
		b.Run(t.cli.Name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				m.Search(t.queries[i%len(t.queries)])
				i++
			}
		})
	}
}
