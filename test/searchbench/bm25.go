package main

import (
	"math"
	"sort"
)

// bm25 is a plain BM25 over each command's path, short and long
// description, one bag of words per command, with the baseline's stemmer
// and stop words: the second baseline.
type bm25 struct {
	tf  []map[string]float64
	len []float64
	df  map[string]float64
	avg float64
}

func newBM25(cmds []Served) *bm25 {
	b := &bm25{df: map[string]float64{}}
	for _, c := range cmds {
		tf := map[string]float64{}
		n := 0.0
		for _, t := range bTerms(c.Path + " " + c.Short + " " + c.Long) {
			tf[t]++
			n++
		}
		for t := range tf {
			b.df[t]++
		}
		b.tf = append(b.tf, tf)
		b.len = append(b.len, n)
		b.avg += n
	}
	b.avg /= math.Max(float64(len(cmds)), 1)
	return b
}

// Search returns the indexes of the matching commands, best first.
func (b *bm25) Search(query string) []int {
	const k1, bb = 1.2, 0.75
	n := float64(len(b.tf))
	type hit struct {
		i int
		s float64
	}
	var hits []hit
	q := bTerms(query)
	for i, tf := range b.tf {
		s := 0.0
		for _, t := range q {
			f := tf[t]
			if f == 0 {
				continue
			}
			idf := math.Log(1 + (n-b.df[t]+0.5)/(b.df[t]+0.5))
			s += idf * f * (k1 + 1) / (f + k1*(1-bb+bb*b.len[i]/b.avg))
		}
		if s > 0 {
			hits = append(hits, hit{i, s})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].s > hits[j].s })
	out := make([]int, len(hits))
	for i, h := range hits {
		out[i] = h.i
	}
	return out
}
