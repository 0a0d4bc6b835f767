// Command searchbench measures how well a search over a CLI's commands
// finds what people mean: for each task of testdata/tasks.json (a request
// worded as people ask, over the real trees snapshotted in testdata/trees)
// it ranks the CLI's served commands and reports how often a right command
// comes first, in the top 3 and in the top 8, for the baseline (the ranking
// of bridge/search.go before package rank), a plain BM25 and package rank.
//
//	go run .                  # the development half
//	go run . -half heldout    # the held-out half: run it once, at the end
//	go run . -half fresh      # the second held-out set (testdata/fresh.json)
//	go run . -half heldout3   # the third held-out set (testdata/heldout3.json)
//	go run . -half heldout4   # the fourth held-out set (testdata/heldout4.json)
//	go run . -half heldout5   # the fifth held-out set (testdata/heldout5.json)
//	go run . -half heldout6   # the sixth held-out set (testdata/heldout6.json)
//	go run . -half seen       # tasks.json and fresh.json: the third round's development data
//	go run . -half known      # all three sets: the fourth round's development data
//	go run . -half past       # all five sets: the sixth round's development data
//	go run . -v               # and list the tasks rank does not answer first
//	go run . -fit             # fit rank's weights on the development half
//	go run . -half known -cvw Question,PathWords  # do these weights generalize?
//	go run . -half heldout4 -dump FILE  # write rank's top 20 for each task as JSON (for encoder/)
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cobramcp/cobramcp/internal/rank"
)

func main() {
	half := flag.String("half", "dev", "the tasks to run: dev, heldout, all (the two halves of tasks.json), fresh (fresh.json, held out in the second round), seen (all of tasks.json and fresh.json, the development data of the third round), heldout3 (heldout3.json, held out in the third), known (all three files, the development data of the fourth), past (all five files, the development data of the sixth), heldout4 (heldout4.json, held out in the fourth), heldout5 (heldout5.json, held out in the fifth) or heldout6 (heldout6.json, held out in the sixth)")
	verbose := flag.Bool("v", false, "list the tasks whose right command rank does not put first")
	fit := flag.Bool("fit", false, "fit rank's weights on the tasks of -half (dev or all) and print them")
	cv := flag.Bool("cv", false, "cross-validate the fitting within the tasks of -half (dev or all)")
	cvw := flag.String("cvw", "", "cross-validate these weights only (comma-separated names of rank.Weights): off, fitted on one half of -half and measured on the other")
	data := flag.String("data", "testdata", "the directory holding tasks.json and trees/")
	query := flag.String("q", "", "rank this query on the tree of -cli and print the top 10, instead of the evaluation")
	cliName := flag.String("cli", "kubectl", "the CLI whose tree -q searches")
	prfFlag := flag.Bool("prf", false, "instead of the evaluation, measure pseudo-relevance feedback on the tasks of -half (an experiment, dropped)")
	learnFlag := flag.Bool("learn", false, "instead of the evaluation, measure a thesaurus learned from the tasks, one task file left out at a time (an experiment, dropped)")
	dump := flag.String("dump", "", "write rank's best 20 commands, with their scores, for each task of -half to this file as JSON, instead of the evaluation")
	flag.Func("set", "run rank with this weight changed from rank.DefaultWeights (name=value, such as Question=0.5; repeatable)", setWeight)
	flag.Parse()
	if *query != "" {
		if err := ask(*data, *cliName, *query); err != nil {
			fmt.Fprintln(os.Stderr, "searchbench:", err)
			os.Exit(1)
		}
		return
	}
	experiment := ""
	switch {
	case *learnFlag:
		experiment = "learn"
	case *prfFlag:
		experiment = "prf"
	}
	if err := run(*data, *half, *verbose, *fit, *cv, *cvw, *dump, experiment); err != nil {
		fmt.Fprintln(os.Stderr, "searchbench:", err)
		os.Exit(1)
	}
}

// run evaluates the tasks of half, or fits, cross-validates, dumps or runs
// an experiment (learn, prf) on them.
func run(data, half string, verbose, fit, cv bool, cvw, dump, experiment string) error {
	tasks, err := loadTasks(data)
	if err != nil {
		return err
	}
	clis, err := loadCLIs(data)
	if err != nil {
		return err
	}
	if err := checkTasks(tasks, clis); err != nil {
		return err
	}
	if experiment == "learn" {
		return learnCV(data, clis, weights)
	}
	if fit || cv || cvw != "" {
		// The held-out tasks are never fitted on: tasks.json's held-out
		// half, fresh.json and heldout3-5.json only once run, as the
		// development data of a later round (-half all, seen, known,
		// past); heldout6.json, not yet run, never.
		if half != "dev" && half != "all" && half != "seen" && half != "known" && half != "past" {
			return fmt.Errorf("-fit and -cv run on -half dev, all, seen, known or past only")
		}
		if half == "seen" || half == "known" || half == "past" {
			if tasks, err = seen(data, tasks, half); err != nil {
				return err
			}
			half = "all"
		}
		if cvw != "" {
			return crossValidateNamed(pick(tasks, half), clis, strings.Split(cvw, ","))
		}
		if cv {
			crossValidate(pick(tasks, half), clis)
			return nil
		}
		w := fitWeights(pick(tasks, half), clis)
		fmt.Printf("fitted weights: %+v\n", w)
		return nil
	}
	ts := pick(tasks, half)
	if half == "fresh" || half == "heldout3" || half == "heldout4" || half == "heldout5" || half == "heldout6" {
		if ts, err = loadTaskFile(filepath.Join(data, half+".json")); err != nil {
			return err
		}
		if err := checkTasks(ts, clis); err != nil {
			return err
		}
	}
	if half == "seen" || half == "known" || half == "past" {
		if ts, err = seen(data, tasks, half); err != nil {
			return err
		}
	}
	if ts == nil {
		return fmt.Errorf("-half %q: want dev, heldout, all, fresh, seen, heldout3, known, past, heldout4, heldout5 or heldout6", half)
	}
	if dump != "" {
		return writeDump(dump, ts, clis, weights)
	}
	if experiment == "prf" {
		prfCV(ts, clis, weights)
		return nil
	}
	fmt.Printf("%d tasks (%s half) over %d CLIs\n\n", len(ts), half, len(clis))
	fmt.Printf("%-30s %7s %7s %7s\n", "ranking", "first", "top 3", "top 8")
	rankers := []struct {
		name string
		new  func(*CLI) ranker
	}{
		{"baseline (bridge/search.go)", func(c *CLI) ranker { return newBaseline(c.Commands).Search }},
		{"BM25 (path, short, long)", func(c *CLI) ranker { return newBM25(c.Commands).Search }},
		{"rank", func(c *CLI) ranker { return rankSearch(rank.NewWeighted(c.Docs, weights)) }},
	}
	for _, r := range rankers {
		s := evaluate(ts, clis, r.new)
		fmt.Printf("%-30s %6.1f%% %6.1f%% %6.1f%%\n", r.name, s.pct(s.first), s.pct(s.top3), s.pct(s.top8))
		if verbose && r.name == "rank" {
			fmt.Println()
			for _, m := range s.misses {
				fmt.Println(m)
			}
		}
	}
	big := largest(clis)
	ix := rank.New(big.Docs)
	var queries []string
	for _, t := range tasks {
		if t.CLI == big.Name {
			queries = append(queries, t.Query)
		}
	}
	const rounds = 200
	start := time.Now()
	for range rounds {
		for _, q := range queries {
			ix.Search(q, 8)
		}
	}
	per := time.Since(start) / time.Duration(rounds*len(queries))
	start = time.Now()
	rank.New(big.Docs)
	fmt.Printf("\nrank on %s (%d commands): %v per query, index built in %v\n", big.Name, len(big.Docs), per, time.Since(start).Round(time.Microsecond))
	return nil
}

// seen returns the tasks seen before the third round, all of tasks.json
// and fresh.json, and with heldout3.json those seen before the fourth.
func seen(data string, tasks []Task, half string) ([]Task, error) {
	files := []string{"fresh.json"}
	switch half {
	case "known":
		files = append(files, "heldout3.json")
	case "past":
		files = append(files, "heldout3.json", "heldout4.json", "heldout5.json")
	}
	out := slices.Clone(tasks)
	for _, f := range files {
		more, err := loadTaskFile(filepath.Join(data, f))
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	return out, nil
}

// ask prints rank's top 10 for one query.
func ask(data, cliName, query string) error {
	clis, err := loadCLIs(data)
	if err != nil {
		return err
	}
	cli := clis[cliName]
	if cli == nil {
		return fmt.Errorf("no tree of %s", cliName)
	}
	for _, h := range rank.NewWeighted(cli.Docs, weights).Search(query, 10) {
		fmt.Printf("%8.3f  %s\n", h.Score, cli.Commands[h.Doc].Path)
	}
	return nil
}

// ranker returns the indexes of a CLI's commands matching a query, best
// first.
type ranker func(query string) []int

func rankSearch(ix *rank.Index) ranker {
	return func(q string) []int {
		var out []int
		for _, h := range ix.Search(q, 8) {
			out = append(out, h.Doc)
		}
		return out
	}
}

// scores counts the tasks whose right command a ranking puts first, in the
// top 3 and in the top 8.
type scores struct {
	n, first, top3, top8 int
	misses               []string
}

func (s scores) pct(k int) float64 { return 100 * float64(k) / float64(max(s.n, 1)) }

func evaluate(ts []Task, clis map[string]*CLI, newRanker func(*CLI) ranker) scores {
	rankers := map[string]ranker{}
	var s scores
	for _, t := range ts {
		cli := clis[t.CLI]
		r := rankers[t.CLI]
		if r == nil {
			r = newRanker(cli)
			rankers[t.CLI] = r
		}
		got := r(t.Query)
		pos := -1
		for i, d := range got {
			if i == 8 {
				break
			}
			for _, w := range t.Want {
				if cli.Commands[d].Path == w && pos < 0 {
					pos = i
				}
			}
		}
		s.n++
		if pos == 0 {
			s.first++
		}
		if pos >= 0 && pos < 3 {
			s.top3++
		}
		if pos >= 0 {
			s.top8++
		}
		if pos != 0 {
			var top []string
			for i, d := range got {
				if i == 3 {
					break
				}
				top = append(top, cli.Commands[d].Path)
			}
			s.misses = append(s.misses, fmt.Sprintf("%-10s %-70q want %v at %d, got %s", t.CLI, t.Query, t.Want, pos+1, strings.Join(top, " | ")))
		}
	}
	return s
}

// pick returns the tasks of one half ("dev", "heldout") or all of them.
func pick(tasks []Task, half string) []Task {
	var out []Task
	for _, t := range tasks {
		switch {
		case half == "all", half == "dev" && !t.Held(), half == "heldout" && t.Held():
			out = append(out, t)
		case half != "dev" && half != "heldout":
			return nil
		}
	}
	return out
}

// checkTasks refuses a task naming a CLI without a tree or a command its
// tree does not serve.
func checkTasks(tasks []Task, clis map[string]*CLI) error {
	seen := map[string]bool{}
	for _, t := range tasks {
		if seen[t.ID] {
			return fmt.Errorf("task %s: the id is used twice", t.ID)
		}
		seen[t.ID] = true
		cli := clis[t.CLI]
		if cli == nil {
			return fmt.Errorf("task %s: no tree of %s", t.ID, t.CLI)
		}
		if len(t.Want) == 0 {
			return fmt.Errorf("task %s: no command wanted", t.ID)
		}
		for _, w := range t.Want {
			found := false
			for _, c := range cli.Commands {
				found = found || c.Path == w
			}
			if !found {
				return fmt.Errorf("task %s: %s serves no command %q", t.ID, t.CLI, w)
			}
		}
	}
	return nil
}

// largest is the CLI with the most served commands.
func largest(clis map[string]*CLI) *CLI {
	var big *CLI
	for _, n := range sortedNames(clis) {
		if c := clis[n]; big == nil || len(c.Commands) > len(big.Commands) {
			big = c
		}
	}
	return big
}

// weights are rank's weights in the evaluation: rank.DefaultWeights but
// for the changes of -set.
var weights = rank.DefaultWeights()

// setWeight sets one of weights from "Name=value".
func setWeight(s string) error {
	name, val, ok := strings.Cut(s, "=")
	f := reflect.ValueOf(&weights).Elem().FieldByName(name)
	if !ok || !f.IsValid() || f.Kind() != reflect.Float64 {
		return fmt.Errorf("%q: want a field of rank.Weights, = and a number", s)
	}
	v, err := strconv.ParseFloat(val, 64)
	if err != nil {
		return fmt.Errorf("%q: %w", s, err)
	}
	f.SetFloat(v)
	return nil
}
