package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cobramcp/cobramcp/internal/rank"
)

// learnStop are words a learned association never starts from.
var learnStop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the my our your their its it this that these those i we you he she they me us them
		of to in on at by for with from into onto over under about as and or but not no so if then than
		is are was were be been being do does did have has had can could should would will shall may might must
		what which who whom whose when where why how all any each every some more most other such only own same too very
		just also there here up down out off again once all anything everything something nothing get want need let make
		please now new old one two three s t don doesn isn aren won can't i'm it's what's`) {
		m[w] = true
	}
	return m
}()

// qwords are a query's lower-case words, less stop words.
func qwords(q string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '\'')
	}) {
		w = strings.Trim(w, "'")
		if len(w) < 2 || learnStop[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// assoc maps a query word to path words with a strength.
type assoc map[string]map[string]float64

// learn counts, over tasks, which path words of the wanted commands follow
// a query word that the commands' own texts do not have.
func learn(ts []Task, clis map[string]*CLI, minPair int, minP float64) assoc {
	cq := map[string]int{}
	cqp := map[string]map[string]int{}
	for _, t := range ts {
		ws := qwords(t.Query)
		pw := map[string]bool{}
		for _, p := range t.Want[:1] {
			for _, w := range strings.FieldsFunc(p, func(r rune) bool { return r == ' ' || r == '-' }) {
				pw[w] = true
			}
		}
		for _, q := range ws {
			cq[q]++
			for p := range pw {
				if p == q {
					continue
				}
				if cqp[q] == nil {
					cqp[q] = map[string]int{}
				}
				cqp[q][p]++
			}
		}
	}
	out := assoc{}
	for q, m := range cqp {
		for p, n := range m {
			if n >= minPair && float64(n)/float64(cq[q]) >= minP {
				if out[q] == nil {
					out[q] = map[string]float64{}
				}
				out[q][p] = float64(n) / float64(cq[q])
			}
		}
	}
	return out
}

// expand appends to q the path words its words are associated with, for
// the words the CLI's texts do not have (known: the CLI's words).
func (a assoc) expand(q string, known map[string]bool) string {
	var add []string
	for _, w := range qwords(q) {
		if known[w] {
			continue
		}
		for p := range a[w] {
			add = append(add, p)
		}
	}
	sort.Strings(add)
	if len(add) == 0 {
		return q
	}
	return q + " " + strings.Join(add, " ")
}

// learnCV measures a thesaurus learned from tasks rather than written:
// each query word that a CLI's texts lack is expanded with the path words
// of the commands it asked for in other tasks (at least n tasks, in at
// least a share p of the tasks that have the word). It runs leave one task
// file out: the association is learned on four files and measured on the
// fifth, for a few n and p.
func learnCV(data string, clis map[string]*CLI, w rank.Weights) error {
	files := []string{"tasks.json", "fresh.json", "heldout3.json", "heldout4.json", "heldout5.json"}
	sets := make([][]Task, len(files))
	for i, f := range files {
		ts, err := loadTaskFile(filepath.Join(data, f))
		if err != nil {
			return err
		}
		sets[i] = ts
	}
	for _, cfg := range []struct {
		n int
		p float64
	}{{2, 0.3}, {2, 0.5}, {3, 0.3}, {3, 0.5}, {2, 0.2}, {4, 0.4}} {
		var base, exp scores
		for i := range files {
			var train []Task
			for j := range files {
				if j != i {
					train = append(train, sets[j]...)
				}
			}
			a := learn(train, clis, cfg.n, cfg.p)
			b := evaluate(sets[i], clis, func(c *CLI) ranker { return rankSearch(rank.NewWeighted(c.Docs, w)) })
			e := evaluate(sets[i], clis, func(c *CLI) ranker {
				r := rankSearch(rank.NewWeighted(c.Docs, w))
				known := vocabulary(c)
				return func(q string) []int { return r(a.expand(q, known)) }
			})
			fmt.Printf("  n>=%d p>=%.1f %-14s %3d assoc  first %5.1f -> %5.1f  top3 %5.1f -> %5.1f\n", cfg.n, cfg.p, files[i], len(a), b.pct(b.first), e.pct(e.first), b.pct(b.top3), e.pct(e.top3))
			base.n += b.n
			base.first += b.first
			base.top3 += b.top3
			exp.n += e.n
			exp.first += e.first
			exp.top3 += e.top3
		}
		fmt.Printf("n>=%d p>=%.1f all: first %5.1f -> %5.1f  top3 %5.1f -> %5.1f\n", cfg.n, cfg.p, base.pct(base.first), exp.pct(exp.first), base.pct(base.top3), exp.pct(exp.top3))
	}
	return nil
}

// vocabulary is every lower-case word of a CLI's command texts.
func vocabulary(c *CLI) map[string]bool {
	out := map[string]bool{}
	for _, d := range c.Docs {
		var b strings.Builder
		b.WriteString(strings.Join(d.Path, " ") + " " + strings.Join(d.Aliases, " ") + " " + d.Short + " " + d.Long + " " + d.Example)
		for _, f := range d.Flags {
			b.WriteString(" " + f.Name + " " + f.Usage)
		}
		for _, w := range qwords(b.String()) {
			out[w] = true
		}
	}
	return out
}
