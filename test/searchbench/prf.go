package main

import (
	"fmt"
	"math"
	"sort"

	"github.com/cobramcp/cobramcp/internal/rank"
)

// prfCV measures pseudo-relevance feedback on the tasks ts: the words that the k best
// commands of a query share, rarest first, searched on their own, their
// scores added to the query's own at weight lambda (each search's scores
// divided by its best).
func prfCV(ts []Task, clis map[string]*CLI, w rank.Weights) {
	for _, k := range []int{2, 3, 5} {
		for _, nterms := range []int{3, 6, 10} {
			for _, lambda := range []float64{0.1, 0.2, 0.4} {
				s := evaluate(ts, clis, func(c *CLI) ranker {
					ix := rank.NewWeighted(c.Docs, w)
					df := map[string]int{}
					dw := make([]map[string]bool, len(c.Docs))
					for i, d := range c.Docs {
						dw[i] = map[string]bool{}
						for _, x := range qwords(d.Short + " " + d.Long) {
							dw[i][x] = true
						}
						for x := range dw[i] {
							df[x]++
						}
					}
					n := float64(len(c.Docs))
					return func(q string) []int {
						first := ix.Search(q, 0)
						if len(first) == 0 {
							return nil
						}
						tw := map[string]float64{}
						inq := map[string]bool{}
						for _, x := range qwords(q) {
							inq[x] = true
						}
						for i := 0; i < k && i < len(first); i++ {
							for x := range dw[first[i].Doc] {
								if !inq[x] {
									tw[x] += first[i].Score / first[0].Score * math.Log(n/float64(df[x]))
								}
							}
						}
						terms := make([]string, 0, len(tw))
						for x := range tw {
							terms = append(terms, x)
						}
						sort.Slice(terms, func(a, b int) bool {
							return tw[terms[a]] > tw[terms[b]] || tw[terms[a]] == tw[terms[b]] && terms[a] < terms[b]
						})
						if len(terms) > nterms {
							terms = terms[:nterms]
						}
						eq := ""
						for _, x := range terms {
							eq += x + " "
						}
						score := map[int]float64{}
						for _, h := range first {
							score[h.Doc] = h.Score / first[0].Score
						}
						if second := ix.Search(eq, 0); len(second) > 0 {
							for _, h := range second {
								score[h.Doc] += lambda * h.Score / second[0].Score
							}
						}
						docs := make([]int, 0, len(score))
						for d := range score {
							docs = append(docs, d)
						}
						sort.Slice(docs, func(a, b int) bool {
							return score[docs[a]] > score[docs[b]] || score[docs[a]] == score[docs[b]] && docs[a] < docs[b]
						})
						if len(docs) > 8 {
							docs = docs[:8]
						}
						return docs
					}
				})
				fmt.Printf("k=%d terms=%2d lambda=%.1f  first %5.1f  top3 %5.1f  top8 %5.1f\n", k, nterms, lambda, s.pct(s.first), s.pct(s.top3), s.pct(s.top8))
			}
		}
	}
}
