package main

// The baseline is the ranking of bridge/search.go at the commit the task
// set was written against (fa2c715), ported here as it is so that the
// "before" figure is that of the code search mode runs: the same fields and
// weights, stemmer, synonyms, stop words and scoring. Only the types
// differ: it reads a Served command instead of a *Tool.

import (
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
)

// baseDoc is one command as the baseline sees it.
type baseDoc struct {
	i     int
	terms map[string]float64
	path  string
	words []string
}

// baseline is the index of bridge/search.go's searchMode.
type baseline struct {
	docs []baseDoc
	df   map[string]int
}

const (
	bWeightPath    = 3.0
	bWeightShort   = 2.0
	bWeightFlag    = 1.0
	bWeightLong    = 0.5
	bWeightExample = 1.0
	bPathCoverage  = 0.65
)

func newBaseline(cmds []Served) *baseline {
	m := &baseline{df: map[string]int{}}
	for i, c := range cmds {
		d := baseDoc{i: i, terms: map[string]float64{}, path: c.Path}
		d.words = bTerms(d.path)
		add := func(text string, w float64) {
			for _, term := range bTerms(text) {
				if d.terms[term] < w {
					d.terms[term] = w
				}
			}
		}
		for _, w := range c.Words {
			add(w, bWeightPath)
		}
		for _, a := range c.Aliases {
			add(a, bWeightPath)
		}
		add(c.Short, bWeightShort)
		for _, f := range c.Flags {
			add(f.Name, bWeightFlag)
			add(f.Usage, bWeightLong) // a local flag's usage
		}
		for _, f := range c.Inherited {
			add(f, bWeightFlag)
		}
		add(bFirstParagraph(c.Long), bWeightLong)
		add(bExampleComments(c.Example), bWeightExample)
		for term := range d.terms {
			m.df[term]++
		}
		m.docs = append(m.docs, d)
	}
	return m
}

// Search returns the indexes of the matching commands, best first.
func (m *baseline) Search(query string) []int {
	q := bTerms(query)
	if len(q) == 0 {
		return nil
	}
	raw := bWords(query)
	for i := 0; i+1 < len(raw); i++ {
		q = append(q, bStem(raw[i]+raw[i+1]))
	}
	syn := bSynonyms()
	n := float64(len(m.docs))
	type scored struct {
		d     *baseDoc
		score float64
	}
	var hits []scored
	norm := strings.Join(raw, " ")
	for i := range m.docs {
		d := &m.docs[i]
		score, matched := 0.0, 0
		for _, term := range q {
			w, df := d.match(term, m.df, syn)
			if w == 0 {
				continue
			}
			matched++
			score += w * math.Log(1+n/float64(df))
		}
		if score == 0 {
			continue
		}
		if strings.Contains(norm, d.path) {
			score *= 1.5
		}
		if len(d.words) > 0 {
			covered := 0
			for _, w := range d.words {
				for _, term := range q {
					if term == w || slices.Contains(syn[term], w) {
						covered++
						break
					}
				}
			}
			score *= 1 - bPathCoverage + bPathCoverage*float64(covered)/float64(len(d.words))
		}
		score *= 1 + float64(matched)/float64(len(q))
		hits = append(hits, scored{d, score})
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		li, lj := strings.Count(hits[i].d.path, " "), strings.Count(hits[j].d.path, " ")
		if li != lj {
			return li < lj
		}
		return strings.ReplaceAll(hits[i].d.path, " ", "_") < strings.ReplaceAll(hits[j].d.path, " ", "_") // the tool names
	})
	out := make([]int, len(hits))
	for i, h := range hits {
		out[i] = h.d.i
	}
	return out
}

func (d *baseDoc) match(term string, df map[string]int, syn map[string][]string) (float64, int) {
	best, bdf := d.terms[term], df[term]
	for _, s := range syn[term] {
		if w := d.terms[s] * 0.7; w > best {
			best, bdf = w, df[s]
		}
	}
	if best > 0 {
		return best, bdf
	}
	if len(term) >= 4 {
		for t, w := range d.terms {
			if len(t) >= 4 && (strings.HasPrefix(t, term) || strings.HasPrefix(term, t)) && w*0.5 > best {
				best, bdf = w*0.5, df[t]
			}
		}
	}
	return best, bdf
}

var bSynonyms = sync.OnceValue(func() map[string][]string {
	groups := [][]string{
		{"list", "get", "ls", "show", "display", "view", "print"},
		{"delete", "remove", "rm", "destroy", "erase", "uninstall", "del"},
		{"create", "add", "new", "make", "install"},
		{"rollback", "undo", "revert"},
		{"update", "edit", "modify", "change", "patch", "upgrade"},
		{"run", "exec", "execute"},
		{"stop", "kill", "halt", "terminate"},
		{"describe", "inspect", "detail", "info"},
		{"scale", "resize", "replica"},
		{"copy", "cp"},
		{"move", "mv", "rename"},
		{"namespace", "ns"},
		{"restart", "reboot"},
		{"search", "find", "lookup"},
		{"config", "configuration", "setting"},
		{"secret", "credential", "password"},
		{"log", "output"},
		{"label", "tag"},
		{"use", "switch", "select"},
	}
	m := map[string][]string{}
	for _, g := range groups {
		for _, w := range g {
			w = bStem(w)
			for _, o := range g {
				if o = bStem(o); o != w {
					m[w] = append(m[w], o)
				}
			}
		}
	}
	return m
})

var bStopWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the in on of for to from with by and or all my me i is are be it its this
that what how do does can please some any each every into via using at want need one or-more many given which`) {
		m[w] = true
	}
	return m
})

func bWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func bTerms(text string) []string {
	var out []string
	stop := bStopWords()
	for _, w := range bWords(text) {
		if stop[w] {
			continue
		}
		out = append(out, bStem(w))
	}
	return out
}

func bStem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:len(w)-1]
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		w = w[:len(w)-3]
		if n := len(w); n > 2 && w[n-1] == w[n-2] {
			w = w[:n-1]
		}
		return w
	}
	return w
}

func bExampleComments(ex string) string {
	var b strings.Builder
	for _, l := range strings.Split(ex, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "#") {
			b.WriteString(strings.TrimLeft(l, "# "))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func bFirstParagraph(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "\n\n"); i >= 0 {
		return s[:i]
	}
	return s
}
