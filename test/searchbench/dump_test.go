package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cobramcp/cobramcp/internal/rank"
)

// TestDump checks what -dump writes, read back from the file: every task of
// tasks.json once, at most dumpTop hits best first, each a command its CLI
// serves; the served paths are the evaluation's; and the dump's first
// hits and top 3 count as many right answers as the evaluation of rank.
func TestDump(t *testing.T) {
	tasks, clis := load(t)
	file := filepath.Join(t.TempDir(), "dump.json")
	if err := writeDump(file, tasks, clis, rank.DefaultWeights()); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var d Dump
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Tasks) != len(tasks) {
		t.Fatalf("%d tasks dumped, want %d", len(d.Tasks), len(tasks))
	}
	for name, cli := range clis {
		var want []string
		for _, c := range cli.Commands {
			want = append(want, c.Path)
		}
		if !slices.Equal(d.Served[name], want) {
			t.Errorf("%s: %d served paths dumped, want the %d evaluated", name, len(d.Served[name]), len(want))
		}
	}
	first, top3 := 0, 0
	for i, dt := range d.Tasks {
		right := -1 // the place of the first right hit
		if dt.ID != tasks[i].ID || dt.Query != tasks[i].Query {
			t.Fatalf("task %d dumped as %s %q, want %s %q", i, dt.ID, dt.Query, tasks[i].ID, tasks[i].Query)
		}
		if len(dt.Hits) > dumpTop {
			t.Errorf("%s: %d hits, want at most %d", dt.ID, len(dt.Hits), dumpTop)
		}
		for j, h := range dt.Hits {
			if !slices.Contains(d.Served[dt.CLI], h.Path) {
				t.Errorf("%s: hit %q is not served by %s", dt.ID, h.Path, dt.CLI)
			}
			if j > 0 && h.Score > dt.Hits[j-1].Score {
				t.Errorf("%s: hit %d scores %v, more than the one before (%v)", dt.ID, j, h.Score, dt.Hits[j-1].Score)
			}
			if right < 0 && slices.Contains(dt.Want, h.Path) {
				right = j
			}
		}
		if right == 0 {
			first++
		}
		if right >= 0 && right < 3 {
			top3++
		}
	}
	s := evaluate(tasks, clis, func(c *CLI) ranker { return rankSearch(rank.New(c.Docs)) })
	if first != s.first || top3 != s.top3 {
		t.Errorf("the dump has %d first and %d in the top 3, the evaluation %d and %d", first, top3, s.first, s.top3)
	}
}
