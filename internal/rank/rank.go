package rank

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Doc is one command as the ranking reads it. Every field is optional but
// Path.
type Doc struct {
	// Path is the command's path below the root, one word per level:
	// {"rollout", "undo"} for "kubectl rollout undo".
	Path []string
	// Aliases are other names of the commands on the path (the command's
	// own and its parents'), such as "rm" for "remove".
	Aliases []string
	// Short, Long and Example are the command's one-line description,
	// its help text and its examples. The comment lines of Example ("#
	// List all pods") and its command lines are fields of their own; with
	// DefaultWeights they add nothing to the score, but a query word
	// found there still counts toward the share of the query a command
	// matches.
	Short, Long, Example string
	// Flags are the command's own flags. Leave out the flags it inherits
	// (a CLI's global flags): they say nothing of what it does, and their
	// words, found in every command, would count for nothing everywhere.
	Flags []Flag
}

// Flag is a flag of a command: its name without dashes and its usage line.
type Flag struct {
	Name, Usage string
}

// Hit is one ranked document: its index in the slice given to New and its
// score (higher is better; scores compare only within one query).
type Hit struct {
	Doc   int
	Score float64
}

// Weights tune the ranking. The zero value is not useful; start from
// DefaultWeights.
type Weights struct {
	// Field weights: how much a query word counts where a document has it.
	Path, Alias, Short, Long, ExampleComment, ExampleCode, FlagName, FlagUsage float64
	// K1 and B are BM25's saturation of repeated words and its
	// normalization of long fields.
	K1, B float64
	// Synonym is the weight of a word found through the thesaurus,
	// Prefix of a word found as a prefix of another ("auth" for
	// "authentication"), both relative to the word itself.
	Synonym, Prefix float64
	// Group scales the score of a command that has subcommands among the
	// documents ("image" beside "image import"): a request usually means
	// the action, not the group.
	Group float64
	// PathCoverage is how much a document's score depends on the share of
	// its path words that the query explains; Coverage how much on the
	// share of the query's words the document matches, each word weighed
	// by its rarity (idf) and the weight of its kind (a participle or a
	// word of a phrase of the thesaurus less).
	PathCoverage, Coverage float64
	// PathWords scales a document's score by 1+PathWords*(n-1) when the
	// query explains n > 1 levels of its path: "remove a plugin" names
	// both words of "plugin uninstall" and only one of "uninstall".
	PathWords float64
	// Participle is the weight of a word ending in -ed or -ing after the
	// query's first word, relative to another word: in "bring my stopped
	// cluster back up" or "remove a published release" it describes the
	// object, not the action asked for. It still counts toward the share
	// of the query a command matches.
	Participle float64
	// Question scales up, by 1+Question, the score of a command that
	// reads (one whose description starts with list, show, print, get...
	// or whose name is list, status, version...) when the query asks a
	// question about state ("is my cluster up", "which organizations do I
	// belong to", "how long until this lease runs out"): a question is
	// answered by reading, not by acting.
	Question float64
	// Examples is a prior for how commonly a command is used, by its
	// examples: a command's score is scaled by 1+Examples*log(1+n)/log(1+m),
	// n its example command lines and m the most any command of the tree
	// has. A CLI documents its everyday commands best ("get", "logs",
	// "pr create").
	Examples float64
	// Imperative scales down, by 1-Imperative, the score of a command
	// that reads when the query opens with a word that is neither a
	// question word, nor a stop word, nor a verb of reading or one of
	// its synonyms: in the main a verb of action ("kill one pod", "add
	// files to an image", "file a bug"), and a request to act is
	// answered by a command that acts.
	Imperative float64
}

// DefaultWeights are the weights measured in test/searchbench: fitted by
// coordinate ascent on the development half of its tasks, but Group and
// Participle, set by hand, and Question, Examples, Imperative and
// PathWords, chosen in the middle of the range of values that scored
// best on all its tasks. Refitting on more tasks did no better under
// cross-validation.
func DefaultWeights() Weights {
	return Weights{
		Path:           3.75,
		Alias:          2.5,
		Short:          2,
		Long:           0.5,
		ExampleComment: 0,
		ExampleCode:    0,
		FlagName:       0.4,
		FlagUsage:      0,
		K1:             1.2,
		B:              0.5,
		Synonym:        0.9,
		Prefix:         0.4,
		Group:          0.7,
		PathCoverage:   0.45,
		Coverage:       0.78,
		PathWords:      0.4,
		Participle:     0.2,
		Question:       1,
		Examples:       0.5,
		Imperative:     0.5,
	}
}

// The fields of a document.
const (
	fPath = iota
	fAlias
	fShort
	fLong
	fExComment
	fExCode
	fFlagName
	fFlagUsage
	nFields
)

// posting is one document holding a term.
type posting struct {
	doc   int32
	path  uint16  // the path words (by position) that are this term
	score float32 // the term's BM25F weight in the document, before idf
}

// Index ranks a fixed set of documents. It is built once by New and is safe
// for concurrent use.
type Index struct {
	w        Weights
	docs     int
	terms    map[string]int32 // term to its postings
	postings [][]posting
	idf      []float32
	vocab    []string  // sorted terms, for prefix matches
	maxTerm  int       // the length of the longest term
	pathLen  []uint8   // path words of each document
	depth    []uint8   // levels of each document's path
	pathKey  []string  // each document's path words joined by spaces, lower case
	nameKey  []string  // the words of its path, each between spaces ("port forward" for port-forward)
	group    []bool    // whether a document's path is the start of another's
	reads    []bool    // whether a document's command reads rather than acts
	prior    []float32 // each document's prior by its examples, a factor
	scratch  sync.Pool // *scratch
}

// scratch is the per-query working memory of Search.
type scratch struct {
	total   []float64
	concept []float64
	matched []float32 // the weight of the counted concepts each document has
	covered []uint16
	cpath   []uint16 // the path words the current concept explains
	onPath  []uint8  // how many concepts explain some of a document's path words
	mark    []int32  // the last concept that touched each document
	in      []bool   // whether a document is in touched
	touched []int32
	ctouch  []int32
	words   []string
	hits    []Hit
	buf     []byte
	norm    []byte
}

// New indexes docs with DefaultWeights.
func New(docs []Doc) *Index { return NewWeighted(docs, DefaultWeights()) }

// NewWeighted indexes docs with weights w.
func NewWeighted(docs []Doc, w Weights) *Index {
	lx := lex()
	ix := &Index{w: w, docs: len(docs), terms: map[string]int32{}}
	fw := [nFields]float64{w.Path, w.Alias, w.Short, w.Long, w.ExampleComment, w.ExampleCode, w.FlagName, w.FlagUsage}
	all := make([]docTerms, len(docs))
	var avg [nFields]float64
	var buf []byte
	stems := map[string]string{} // a word's stem, "" for a stop word
	for i, d := range docs {
		dt := docTerms{idx: map[string]int32{}, path: map[string]uint16{}}
		addTerm := func(t string, f int) {
			if lx.stop[t] || lx.intent[t] {
				return
			}
			dt.count(stem(t), f, 1)
			dt.flen[f]++
		}
		addText := func(text string, f int) {
			buf = forEachWord(text, buf, func(w []byte) {
				st, ok := stems[string(w)]
				if !ok {
					raw := string(w)
					if !lx.stop[raw] && !lx.intent[raw] {
						st = stem(raw)
					}
					stems[raw] = st
				}
				if st != "" {
					dt.count(st, f, 1)
					dt.flen[f]++
				}
			})
		}
		// A name such as "port-forward" or "use-context" is its words
		// and the words joined ("portforward"), so that "port forward"
		// and "portforward" both find it.
		addName := func(name string, f int, pos int) {
			ws := words(name)
			for _, w := range ws {
				addTerm(w, f)
				if pos >= 0 && pos < 16 {
					dt.path[stem(w)] |= 1 << pos
				}
			}
			if len(ws) > 1 {
				j := strings.Join(ws, "")
				addTerm(j, f)
				if pos >= 0 && pos < 16 {
					dt.path[stem(j)] |= 1 << pos
				}
			}
		}
		pos := 0
		for _, p := range d.Path {
			addName(p, fPath, pos)
			pos++
		}
		ix.pathLen = append(ix.pathLen, uint8(min(pos, 16)))
		ix.depth = append(ix.depth, uint8(min(len(d.Path), 255)))
		ix.pathKey = append(ix.pathKey, strings.ToLower(strings.Join(d.Path, " ")))
		nk := ""
		if ws := words(strings.Join(d.Path, " ")); len(ws) > 0 {
			nk = " " + strings.Join(ws, " ") + " "
		}
		ix.nameKey = append(ix.nameKey, nk)
		ix.reads = append(ix.reads, reads(d))
		for _, a := range d.Aliases {
			addName(a, fAlias, -1)
		}
		addText(d.Short, fShort)
		addText(d.Long, fLong)
		comments, code := splitExample(d.Example)
		n := 0
		for l := range strings.SplitSeq(code, "\n") {
			if strings.TrimSpace(l) != "" {
				n++
			}
		}
		ix.prior = append(ix.prior, float32(math.Log1p(float64(n))))
		addText(comments, fExComment)
		addText(code, fExCode)
		for _, f := range d.Flags {
			addName(f.Name, fFlagName, -1)
			addText(f.Usage, fFlagUsage)
		}
		for f := range nFields {
			avg[f] += dt.flen[f]
		}
		all[i] = dt
	}
	for f := range nFields {
		avg[f] = max(avg[f]/float64(max(len(docs), 1)), 1)
	}
	if m := slices.Max(append(ix.prior, 0)); m > 0 {
		for i := range ix.prior {
			ix.prior[i] = float32(1 + w.Examples*float64(ix.prior[i]/m))
		}
	} else {
		for i := range ix.prior {
			ix.prior[i] = 1
		}
	}
	splitCompounds(all)
	ix.group = make([]bool, len(docs))
	keys := map[string]int{}
	for i, k := range ix.pathKey {
		keys[k] = i
	}
	for _, d := range docs {
		for n := len(d.Path) - 1; n >= 0; n-- {
			if i, ok := keys[strings.ToLower(strings.Join(d.Path[:n], " "))]; ok {
				ix.group[i] = true
			}
		}
	}
	for i, dt := range all {
		for k, t := range dt.term {
			tf := &dt.tf[k]
			wtf := 0.0
			for f := range nFields {
				if tf[f] > 0 {
					wtf += fw[f] * tf[f] / (1 - w.B + w.B*dt.flen[f]/avg[f])
				}
			}
			id, ok := ix.terms[t]
			if !ok {
				id = int32(len(ix.postings))
				ix.terms[t] = id
				ix.postings = append(ix.postings, nil)
			}
			ix.postings[id] = append(ix.postings[id], posting{doc: int32(i), path: dt.path[t], score: float32(wtf / (w.K1 + wtf))})
		}
	}
	n := float64(len(docs))
	ix.idf = make([]float32, len(ix.postings))
	for t, id := range ix.terms {
		df := float64(len(ix.postings[id]))
		ix.idf[id] = float32(math.Log(1 + (n-df+0.5)/(df+0.5)))
		ix.vocab = append(ix.vocab, t)
		ix.maxTerm = max(ix.maxTerm, len(t))
	}
	sort.Strings(ix.vocab)
	return ix
}

// docTerms are the terms of one document being indexed: their counts by
// field, the path words they are and the length of each field.
type docTerms struct {
	idx  map[string]int32 // term to its place in terms and tf
	term []string
	tf   [][nFields]float64
	path map[string]uint16
	flen [nFields]float64
}

// count adds n occurrences of t in field f, unless t has some there
// already and n is a fraction (a compound's part).
func (dt *docTerms) count(t string, f int, n float64) {
	i, ok := dt.idx[t]
	if !ok {
		i = int32(len(dt.term))
		dt.idx[t] = i
		dt.term = append(dt.term, t)
		dt.tf = append(dt.tf, [nFields]float64{})
	}
	if n < 1 && dt.tf[i][f] > 0 {
		return
	}
	dt.tf[i][f] += n
}

// splitCompounds adds the parts of a compound word of a path or an alias
// ("nameprefix", "kubeconfig") as path or alias words when both parts are
// words of the documents, so that "prefix the names" finds nameprefix.
func splitCompounds(all []docTerms) {
	vocab := map[string]bool{}
	for _, dt := range all {
		for _, t := range dt.term {
			vocab[t] = true
		}
	}
	for d := range all {
		dt := &all[d]
		for k, n := 0, len(dt.term); k < n; k++ {
			t, tf := dt.term[k], dt.tf[k]
			if len(t) < 6 || tf[fPath] == 0 && tf[fAlias] == 0 {
				continue
			}
			for i := 3; i <= len(t)-3; i++ {
				l, r := stem(t[:i]), stem(t[i:])
				if vocab[l] && vocab[r] {
					f := fPath
					if tf[fPath] == 0 {
						f = fAlias
					}
					for _, p := range [2]string{l, r} {
						dt.count(p, f, 0.5)
						dt.path[p] |= dt.path[t]
					}
					break
				}
			}
		}
	}
}

// splitExample returns the comment lines of an example (without their
// "#" or "//") and its other lines.
func splitExample(ex string) (comments, code string) {
	var c, o strings.Builder
	for l := range strings.SplitSeq(ex, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "#"):
			c.WriteString(strings.TrimLeft(l, "# "))
			c.WriteByte('\n')
		case strings.HasPrefix(l, "//"):
			c.WriteString(strings.TrimLeft(l, "/ "))
			c.WriteByte('\n')
		default:
			o.WriteString(l)
			o.WriteByte('\n')
		}
	}
	return c.String(), o.String()
}

// Len is the number of documents indexed.
func (ix *Index) Len() int { return ix.docs }

// concept is one word of a query: the terms that stand for it with their
// weights.
type concept struct {
	terms  [24]alt
	n      int
	counts bool    // counts toward the share of the query matched
	weight float64 // how much: its idf, less for a participle or a phrase's word
}

// Search returns at most limit documents matching query, best first (all
// of them when limit <= 0); ties go to the shorter path, then to the
// earlier document. Each query word counts by the fields a document has
// it in (weighed by [Weights]), by how rare it is among the documents, and
// through its stem, the thesaurus of CLI vocabulary and the indexed words
// it begins or that begin it; two adjacent words also count joined ("roll
// back" finds rollback). A document whose path the query explains and that
// matches more of the query's words ranks higher; a group command lower
// than one of its subcommands would. The result is the caller's; an empty
// or stop-word-only query finds nothing.
//
// Search is SearchContext without cancellation; a query over the bounds
// finds nothing (SearchContext says why).
func (ix *Index) Search(query string, limit int) []Hit {
	hits, _ := ix.SearchContext(context.Background(), query, limit)
	return hits
}

// The bounds of a query: a request in words is a sentence, not a
// document. Within them a query costs time linear in its length.
const (
	MaxQueryBytes = 1024
	MaxQueryWords = 64
)

// QueryError is the error of a query over one of the bounds.
type QueryError struct {
	Limit string // "bytes" or "words"
	Max   int    // the bound: MaxQueryBytes or MaxQueryWords
	Got   int    // the query's size; for words, at least Max+1
}

func (e *QueryError) Error() string {
	if e.Limit == "words" {
		return fmt.Sprintf("the query has more than %d words, the most a query may have: ask in a few words", e.Max)
	}
	return fmt.Sprintf("the query is %d bytes, over the %d a query may have: ask in a few words", e.Got, e.Max)
}

// checkQuery returns a *QueryError when query is over the bounds.
func checkQuery(query string) error {
	if len(query) > MaxQueryBytes {
		return &QueryError{Limit: "bytes", Max: MaxQueryBytes, Got: len(query)}
	}
	n := 0
	forEachWord(query, nil, func([]byte) { n++ })
	if n > MaxQueryWords {
		return &QueryError{Limit: "words", Max: MaxQueryWords, Got: n}
	}
	return nil
}

// cancelEvery is how many documents or query words ranking handles
// between two looks at its context.
const cancelEvery = 256

// SearchContext is Search, bounded and cancellable: a query of more than
// MaxQueryBytes bytes or MaxQueryWords words is refused with a
// *QueryError, and ranking stops with ctx's error once ctx is done.
func (ix *Index) SearchContext(ctx context.Context, query string, limit int) ([]Hit, error) {
	if err := checkQuery(query); err != nil {
		return nil, err
	}
	return ix.search(ctx, query, limit)
}

// search ranks the documents for query, unbounded: its cost is linear in
// the query's length (a word's prefixes are looked up only as long as the
// longest indexed term) and it stops once ctx is done.
func (ix *Index) search(ctx context.Context, query string, limit int) ([]Hit, error) {
	if ix.docs == 0 {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := ix.getScratch()
	// A search stopped half way leaves its scratch dirty: it is dropped.
	stopped := false
	defer func() {
		if !stopped {
			ix.scratch.Put(s)
		}
	}()
	work := 0 // documents and words handled, for the looks at ctx
	cancelled := func() bool {
		if work++; work%cancelEvery != 0 {
			return false
		}
		stopped = ctx.Err() != nil
		return stopped
	}
	lx := lex()
	s.words = s.words[:0]
	s.buf = forEachWord(query, s.buf, func(w []byte) { s.words = append(s.words, string(w)) })

	var concepts [32]concept
	nc, counted := 0, 0.0
	addConcept := func(c concept) {
		if nc < len(concepts) && c.n > 0 {
			concepts[nc] = c
			nc++
			if c.counts {
				counted += c.weight
			}
		}
	}
	seenContent := false
	consumed := 0 // the words before this one are part of a phrase found joined
	negated := 0  // content words left that the query rules out ("without merging")
	for i, w := range s.words {
		if cancelled() {
			return nil, ctx.Err()
		}
		switch {
		case lx.negation[w]:
			negated = negationScope
			continue
		case negated > 0 && (w == "and" || w == "but"):
			negated = 0
		case negated > 0 && !lx.stop[w]:
			negated--
			continue
		}
		// Two or three adjacent words joined may be one ("roll back",
		// "who am i").
		for n := 2; n <= 3 && i+n <= len(s.words); n++ {
			j := stem(strings.Join(s.words[i:i+n], ""))
			if _, ok := ix.terms[j]; ok || len(lx.expand[j]) > 0 {
				addConcept(ix.concept(j, false, false))
				if len(lx.expand[j]) > 0 {
					// A phrase of the thesaurus ("sign out", "get
					// rid", "set up") means what its words alone
					// do not: they weigh less.
					consumed = max(consumed, i+n)
				}
			}
		}
		switch {
		case lx.intent[w]:
			addConcept(ix.concept(stem(w), true, false))
		case lx.stop[w]:
		default:
			c := ix.concept(stem(w), false, true)
			if i < consumed {
				c.scale(phraseWordWeight)
			}
			if seenContent && participle(w) {
				c.scale(ix.w.Participle)
			}
			seenContent = true
			addConcept(c)
		}
	}
	if nc == 0 {
		return nil, nil
	}
	// A concept counts toward a document's share of the query matched
	// wherever the document has it, even in a field that weighs nothing
	// (the examples, by default): that it mentions the word is evidence;
	// the score counts the fields' weights.
	for ci, c := range concepts[:nc] {
		mark := int32(ci + 1)
		s.ctouch = s.ctouch[:0]
		for _, a := range c.terms[:c.n] {
			id := ix.terms[a.term]
			idf := float64(ix.idf[id]) * a.w
			for _, p := range ix.postings[id] {
				if cancelled() {
					return nil, ctx.Err()
				}
				if s.mark[p.doc] != mark {
					s.mark[p.doc] = mark
					s.ctouch = append(s.ctouch, p.doc)
				}
				if v := idf * float64(p.score); v > s.concept[p.doc] {
					s.concept[p.doc] = v
				}
				s.cpath[p.doc] |= p.path
			}
		}
		for _, d := range s.ctouch {
			if !s.in[d] {
				s.in[d] = true
				s.touched = append(s.touched, d)
			}
			s.total[d] += s.concept[d]
			if c.counts {
				s.matched[d] += float32(c.weight)
			}
			if s.cpath[d] != 0 {
				s.covered[d] |= s.cpath[d]
				s.onPath[d] = min(s.onPath[d]+1, 255)
			}
			s.concept[d], s.cpath[d] = 0, 0
		}
	}
	s.norm = append(s.norm[:0], ' ')
	for _, w := range s.words {
		s.norm = append(append(s.norm, w...), ' ')
	}
	norm := string(s.norm) // the query's words, each between spaces
	hits := s.hits[:0]
	w := ix.w
	asks := asksState(s.words)
	acts := !asks && len(s.words) > 0 && !lx.stop[s.words[0]] && !lx.intent[s.words[0]] && !lx.negation[s.words[0]] && !readWord(stem(s.words[0]))
	for _, d := range s.touched {
		if cancelled() {
			return nil, ctx.Err()
		}
		score := s.total[d]
		if pl := ix.pathLen[d]; pl > 0 {
			n := bits.OnesCount16(s.covered[d])
			score *= 1 - w.PathCoverage + w.PathCoverage*float64(n)/float64(pl)
			// Levels explained by as many different words: "apply"
			// alone explains both levels of "apply set-last-applied".
			if n = min(n, int(s.onPath[d])); n > 1 {
				score *= 1 + w.PathWords*float64(n-1)
			}
		}
		if counted > 0 {
			score *= 1 + w.Coverage*float64(s.matched[d])/counted
		}
		if ix.group[d] {
			score *= w.Group
		}
		score *= float64(ix.prior[d])
		if acts && ix.reads[d] {
			score *= 1 - w.Imperative
		}
		if asks && ix.reads[d] {
			score *= 1 + w.Question
		}
		if k := ix.nameKey[d]; k != "" && strings.Contains(norm, k) {
			score *= 1.5 // the query names the command
		}
		if score > 0 {
			hits = append(hits, Hit{Doc: int(d), Score: score})
		}
		s.total[d], s.matched[d], s.covered[d], s.onPath[d], s.mark[d], s.in[d] = 0, 0, 0, 0, 0, false
	}
	s.touched = s.touched[:0]
	slices.SortFunc(hits, func(a, b Hit) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		case ix.depth[a.Doc] != ix.depth[b.Doc]:
			return int(ix.depth[a.Doc]) - int(ix.depth[b.Doc])
		}
		return a.Doc - b.Doc
	})
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	out := slices.Clone(hits)
	s.hits = hits[:0]
	return out, nil
}

// concept returns the terms standing for the query stem t: t itself
// (unless it only carries intent), its thesaurus entries and the indexed
// words it begins or that begin it.
func (ix *Index) concept(t string, intentOnly, counts bool) concept {
	c := concept{counts: counts, weight: 1}
	add := func(term string, w float64) {
		if _, ok := ix.terms[term]; !ok || c.n == len(c.terms) {
			return
		}
		for i := range c.terms[:c.n] {
			if c.terms[i].term == term {
				c.terms[i].w = max(c.terms[i].w, w)
				return
			}
		}
		c.terms[c.n] = alt{term, w}
		c.n++
	}
	if !intentOnly {
		add(t, 1)
	}

	for _, a := range lex().expand[t] {
		add(a.term, a.w*ix.w.Synonym)
	}
	if len(t) >= 4 && !intentOnly {
		i := sort.SearchStrings(ix.vocab, t)
		for k := 0; k < 4 && i < len(ix.vocab) && strings.HasPrefix(ix.vocab[i], t); i++ {
			if ix.vocab[i] != t {
				add(ix.vocab[i], ix.w.Prefix)
				k++
			}
		}
		// No term is longer than maxTerm: longer prefixes are not
		// looked up, so that a long word costs time linear in its length.
		for l := max(4, (len(t)+1)/2); l < min(len(t), ix.maxTerm+1); l++ {
			add(t[:l], ix.w.Prefix)
		}
	}
	idf := float32(0)
	for _, a := range c.terms[:c.n] {
		idf = max(idf, ix.idf[ix.terms[a.term]])
	}
	c.weight = float64(idf)
	return c
}

// scale weighs the concept's terms, and how much it counts toward the
// share of the query matched, by f.
func (c *concept) scale(f float64) {
	for k := range c.terms[:c.n] {
		c.terms[k].w *= f
	}
	c.weight *= f
}

func (ix *Index) getScratch() *scratch {
	if s, ok := ix.scratch.Get().(*scratch); ok {
		return s
	}
	return &scratch{
		total:   make([]float64, ix.docs),
		concept: make([]float64, ix.docs),
		matched: make([]float32, ix.docs),
		covered: make([]uint16, ix.docs),
		cpath:   make([]uint16, ix.docs),
		onPath:  make([]uint8, ix.docs),
		mark:    make([]int32, ix.docs),
		in:      make([]bool, ix.docs),
	}
}

// participle reports whether w (lower case) looks like a past or present
// participle: "stopped", "published", "running".
func participle(w string) bool {
	return len(w) > 4 && (strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") || strings.HasSuffix(w, "ing") && len(w) > 5)
}

// phraseWordWeight is the weight of a query word that is part of a phrase
// of the thesaurus found joined, relative to another word.
const phraseWordWeight = 0.3

// readWord reports whether the stem t is a verb of reading or a synonym
// of one ("see", "look", "check").
func readWord(t string) bool {
	lx := lex()
	if lx.readVerb[t] || lx.readName[t] {
		return true
	}
	for _, a := range lx.expand[t] {
		if a.w == 1 && (lx.readVerb[a.term] || lx.readName[a.term]) {
			return true
		}
	}
	return false
}
