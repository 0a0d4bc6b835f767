package main

import (
	"fmt"
	"reflect"

	"github.com/cobramcp/cobramcp/internal/rank"
)

// fitWeights fits rank's weights on ts by coordinate ascent from
// rank.DefaultWeights: each weight in turn is scaled by a few factors and
// the best value kept, for a few rounds. The objective counts a right
// command first twice, in the top 3 once and in the top 8 half.
func fitWeights(ts []Task, clis map[string]*CLI) rank.Weights {
	w := fit(ts, clis)
	s0 := evaluate(ts, clis, func(c *CLI) ranker { return rankSearch(rank.New(c.Docs)) })
	s1 := evaluate(ts, clis, func(c *CLI) ranker { return rankSearch(rank.NewWeighted(c.Docs, w)) })
	fmt.Printf("with rank.DefaultWeights: %.1f%% %.1f%% %.1f%%; fitted: %.1f%% %.1f%% %.1f%%\n",
		s0.pct(s0.first), s0.pct(s0.top3), s0.pct(s0.top8), s1.pct(s1.first), s1.pct(s1.top3), s1.pct(s1.top8))
	return w
}

// crossValidate fits the weights on one half of ts and measures them on
// the other, both ways round, beside rank.DefaultWeights on the same
// halves: whether fitting on so few tasks generalizes.
func crossValidate(ts []Task, clis map[string]*CLI) {
	var halves [2][]Task
	for i, t := range ts {
		halves[i%2] = append(halves[i%2], t)
	}
	for k := range 2 {
		train, test := halves[k], halves[1-k]
		w := fit(train, clis)
		s0 := evaluate(test, clis, func(c *CLI) ranker { return rankSearch(rank.New(c.Docs)) })
		s1 := evaluate(test, clis, func(c *CLI) ranker { return rankSearch(rank.NewWeighted(c.Docs, w)) })
		fmt.Printf("fold %d (%d tasks): default weights %.1f%% %.1f%% %.1f%%; weights fitted on the other %d: %.1f%% %.1f%% %.1f%%\n",
			k, len(test), s0.pct(s0.first), s0.pct(s0.top3), s0.pct(s0.top8), len(train), s1.pct(s1.first), s1.pct(s1.top3), s1.pct(s1.top8))
	}
}

// fit is the coordinate ascent of fitWeights.
func fit(ts []Task, clis map[string]*CLI) rank.Weights {
	objective := func(w rank.Weights) float64 {
		s := evaluate(ts, clis, func(c *CLI) ranker { return rankSearch(rank.NewWeighted(c.Docs, w)) })
		return 2*float64(s.first) + float64(s.top3) + 0.5*float64(s.top8)
	}
	w := rank.DefaultWeights()
	params := []*float64{&w.Path, &w.Alias, &w.Short, &w.Long, &w.ExampleComment, &w.ExampleCode, &w.FlagName,
		&w.FlagUsage, &w.K1, &w.B, &w.Synonym, &w.Prefix, &w.PathCoverage, &w.PathWords, &w.Coverage, &w.Group, &w.Participle, &w.Question, &w.Examples, &w.Imperative}
	best := objective(w)
	for range 3 {
		improved := false
		for _, p := range params {
			orig := *p
			for _, f := range []float64{0, 0.5, 0.75, 1.25, 1.5, 2} {
				*p = orig * f
				if *p > 1 && (p == &w.B || p == &w.PathCoverage || p == &w.Group || p == &w.Participle || p == &w.Imperative) {
					continue
				}
				if v := objective(w); v > best {
					best, orig, improved = v, *p, true
				}
			}
			*p = orig
		}
		if !improved {
			break
		}
	}
	return w
}

// crossValidateNamed checks that some of rank's weights (mechanisms
// added to the ranking) generalize: on each half of ts, with those
// weights off (zero), then fitted on the other half only (a grid of
// values for each in turn, twice round), then at rank.DefaultWeights.
func crossValidateNamed(ts []Task, clis map[string]*CLI, names []string) error {
	field := func(w *rank.Weights, n string) (*float64, error) {
		f := reflect.ValueOf(w).Elem().FieldByName(n)
		if !f.IsValid() || f.Kind() != reflect.Float64 {
			return nil, fmt.Errorf("%q is no weight of rank.Weights", n)
		}
		return f.Addr().Interface().(*float64), nil
	}
	var halves [2][]Task
	for i, t := range ts {
		halves[i%2] = append(halves[i%2], t)
	}
	ev := func(ts []Task, w rank.Weights) scores {
		return evaluate(ts, clis, func(c *CLI) ranker { return rankSearch(rank.NewWeighted(c.Docs, w)) })
	}
	objective := func(s scores) float64 { return 2*float64(s.first) + float64(s.top3) + 0.5*float64(s.top8) }
	for k := range 2 {
		train, test := halves[k], halves[1-k]
		w := rank.DefaultWeights()
		var ps []*float64
		var grids [][]float64
		for _, n := range names {
			p, err := field(&w, n)
			if err != nil {
				return err
			}
			var g []float64
			for _, f := range []float64{0, 0.25, 0.5, 1, 1.5, 2, 3} {
				g = append(g, *p*f)
			}
			ps, grids = append(ps, p), append(grids, g)
			*p = 0
		}
		off := ev(test, w)
		for range 2 {
			for i, p := range ps {
				best, bv := -1.0, 0.0
				for _, v := range grids[i] {
					*p = v
					if o := objective(ev(train, w)); o > best {
						best, bv = o, v
					}
				}
				*p = bv
			}
		}
		on, d := ev(test, w), ev(test, rank.DefaultWeights())
		fmt.Printf("fold %d (%d tasks): off %.1f%% %.1f%% %.1f%%; fitted on the other %d %.1f%% %.1f%% %.1f%%", k, len(test),
			off.pct(off.first), off.pct(off.top3), off.pct(off.top8), len(train), on.pct(on.first), on.pct(on.top3), on.pct(on.top8))
		for i, n := range names {
			fmt.Printf(" %s=%.3g", n, *ps[i])
		}
		fmt.Printf("; default weights %.1f%% %.1f%% %.1f%%\n", d.pct(d.first), d.pct(d.top3), d.pct(d.top8))
	}
	return nil
}
