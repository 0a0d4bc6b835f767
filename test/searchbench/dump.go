package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/cobramcp/cobramcp/internal/rank"
)

// dumpTop is how many of rank's best commands -dump writes for each task.
const dumpTop = 20

// Dump is what -dump writes: rank's best commands for each task and, for
// each CLI, the paths of the commands it serves (so that a program reading
// the dump can check that it serves the same ones).
type Dump struct {
	Weights rank.Weights        `json:"weights"`
	Served  map[string][]string `json:"served"` // CLI name → served paths, in tree order
	Tasks   []DumpTask          `json:"tasks"`
}

// DumpTask is one task with rank's best commands for its query.
type DumpTask struct {
	Task
	Hits []DumpHit `json:"hits"` // at most dumpTop, best first
}

// DumpHit is one of rank's hits.
type DumpHit struct {
	Path  string  `json:"path"`
	Score float64 `json:"score"`
}

// buildDump ranks each task's query with rank (with weights) on its CLI's
// tree and keeps the best dumpTop commands.
func buildDump(ts []Task, clis map[string]*CLI, w rank.Weights) Dump {
	d := Dump{Weights: w, Served: map[string][]string{}}
	ixs := map[string]*rank.Index{}
	for _, n := range sortedNames(clis) {
		for _, c := range clis[n].Commands {
			d.Served[n] = append(d.Served[n], c.Path)
		}
	}
	for _, t := range ts {
		cli := clis[t.CLI]
		ix := ixs[t.CLI]
		if ix == nil {
			ix = rank.NewWeighted(cli.Docs, w)
			ixs[t.CLI] = ix
		}
		dt := DumpTask{Task: t, Hits: []DumpHit{}}
		for _, h := range ix.Search(t.Query, dumpTop) {
			dt.Hits = append(dt.Hits, DumpHit{Path: cli.Commands[h.Doc].Path, Score: h.Score})
		}
		d.Tasks = append(d.Tasks, dt)
	}
	return d
}

// writeDump writes buildDump's result to file as JSON.
func writeDump(file string, ts []Task, clis map[string]*CLI, w rank.Weights) error {
	b, err := json.MarshalIndent(buildDump(ts, clis, w), "", " ")
	if err != nil {
		return fmt.Errorf("encoding the dump: %w", err)
	}
	if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing the dump: %w", err)
	}
	return nil
}
