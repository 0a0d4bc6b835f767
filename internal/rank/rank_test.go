package rank

import (
	"math"
	"slices"
	"sync"
	"testing"
)

func TestStem(t *testing.T) {
	tests := []struct{ in, want string }{
		{"pods", "pod"},
		{"pod", "pod"},
		{"policies", "policy"},
		{"running", "run"},
		{"stopped", "stop"},
		{"creating", "creat"},
		{"created", "creat"},
		{"create", "creat"},
		{"creation", "creat"},
		{"deployment", "deploy"},
		{"deployments", "deploy"},
		{"configuration", "configur"},
		{"installation", "install"},
		{"installing", "install"},
		{"status", "status"},
		{"ls", "ls"},
		{"use", "use"},
		{"classes", "class"},
		{"images", "imag"},
		{"notified", "notify"},
		{"copied", "copy"},
		{"image", "imag"},
	}
	for _, tt := range tests {
		if got := stem(tt.in); got != tt.want {
			t.Errorf("stem(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Port-Forward to a pod", []string{"port", "forward", "to", "a", "pod"}},
		{"  --output=wide ", []string{"output", "wide"}},
		{"", nil},
		{"k8s v1.30", []string{"k8s", "v1", "30"}},
	}
	for _, tt := range tests {
		if got := words(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("words(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// tree is a small kubectl-like tree for the table tests.
var tree = []Doc{
	{Path: []string{"get"}, Short: "Display one or many resources", Example: "# List all pods\nkubectl get pods"},
	{Path: []string{"delete"}, Short: "Delete resources by file names or by label selector"},
	{Path: []string{"logs"}, Short: "Print the logs for a container in a pod", Flags: []Flag{
		{Name: "follow", Usage: "Specify if the logs should be streamed."},
		{Name: "prefix", Usage: "Prefix each log line with the log source (pod name and container name)"},
	}},
	{Path: []string{"rollout", "undo"}, Short: "Undo a previous rollout"},
	{Path: []string{"rollout", "history"}, Short: "View rollout history"},
	{Path: []string{"port-forward"}, Short: "Forward one or more local ports to a pod"},
	{Path: []string{"config", "use-context"}, Aliases: []string{"use"}, Short: "Set the current-context in a kubeconfig file"},
	{Path: []string{"scale"}, Short: "Set a new size for a deployment, replica set, or replication controller"},
	{Path: []string{"create", "secret", "generic"}, Short: "Create a secret from a local file, directory, or literal value"},
	{Path: []string{"image"}, Short: "Handle container images"},
	{Path: []string{"image", "load"}, Short: "Load images from docker into the cluster"},
	{Path: []string{"edit", "set", "nameprefix"}, Short: "Sets the value of the namePrefix field in the kustomization file"},
	{Path: []string{"auth", "whoami"}, Short: "Check self subject attributes"},
	{Path: []string{"auth", "login"}, Short: "Log in to a server"},
	{Path: []string{"auth", "logout"}, Short: "Log out of a server"},
	{Path: []string{"pr", "merge"}, Short: "Merge a pull request"},
	{Path: []string{"pr", "close"}, Short: "Close a pull request"},
}

func TestSearch(t *testing.T) {
	ix := New(tree)
	tests := []struct {
		query string
		want  string // the first hit's path
	}{
		{"list pods", "get"},
		{"remove a pod", "delete"},
		{"rm the pod", "delete"},
		{"stream the output of a container", "logs"},
		{"roll back a release", "rollout undo"},
		{"rollback", "rollout undo"},
		{"portforward", "port-forward"},
		{"port forward", "port-forward"},
		{"use context", "config use-context"},
		{"run 5 copies of my app", "scale"},
		{"store a password", "create secret generic"},
		{"ROLLOUT HISTORY", "rollout history"},
		{"load an image", "image load"},                    // the subcommand before its group
		{"import images into the cluster", "image load"},   // import and load are one
		{"a prefix for every name", "edit set nameprefix"}, // the compound's parts
		{"list the deleted pods", "get"},                   // a participle describes, the verb asks
		{"show the history of the scaled deployment", "rollout history"},
		{"sign out of the server", "auth logout"}, // the phrase, not "sign" (in)
		{"sign in to the server", "auth login"},
		{"who am I", "auth whoami"},                                  // three words joined
		{"throw away that pod", "delete"},                            // a phrasal verb joined, then the thesaurus
		{"close it instead of merging the pull request", "pr close"}, // what the query rules out
		{"merge the pull request and close it", "pr merge"},
	}
	for _, tt := range tests {
		hits := ix.Search(tt.query, 3)
		if len(hits) == 0 {
			t.Errorf("%q: no hit, want %s", tt.query, tt.want)
			continue
		}
		if got := joinPath(tree[hits[0].Doc].Path); got != tt.want {
			t.Errorf("%q: first %q, want %q (hits %v)", tt.query, got, tt.want, hits)
		}
	}
}

// TestSearchNegation: a word the query rules out ("without merging",
// "instead of merging", "rather than merging") is no evidence for the
// command it names; the rest of the query still counts.
func TestSearchNegation(t *testing.T) {
	ix := New(tree)
	score := func(query, path string) float64 {
		for _, h := range ix.Search(query, 0) {
			if joinPath(tree[h.Doc].Path) == path {
				return h.Score
			}
		}
		return 0
	}
	for _, q := range []string{
		"the pull request, without merging",
		"get rid of the pull request instead of merging it",
		"drop the pull request rather than merging",
		"every pull request except merging ones",
	} {
		if m, c := score(q, "pr merge"), score(q, "pr close"); m > c || c == 0 {
			t.Errorf("%q: pr merge scores %.3f, pr close %.3f; want merge no higher, close found", q, m, c)
		}
	}
	// Only the next content word is ruled out, and an "and" ends it.
	if m, c := score("without waiting, merge the pull request", "pr merge"), score("without waiting, merge the pull request", "pr close"); m <= c {
		t.Errorf("merge named after the ruled-out word: pr merge %.3f, pr close %.3f", m, c)
	}
	if m, c := score("close without waiting and merge it", "pr merge"), score("close without waiting and merge it", "pr close"); m == 0 || c == 0 {
		t.Errorf("after an and: pr merge %.3f, pr close %.3f; want both found", m, c)
	}
}

func joinPath(p []string) string {
	s := ""
	for i, w := range p {
		if i > 0 {
			s += " "
		}
		s += w
	}
	return s
}

func TestSearchLimitsAndOrder(t *testing.T) {
	ix := New(tree)
	tests := []struct {
		query string
		limit int
		max   int // at most this many hits
		none  bool
	}{
		{"", 5, 0, true},
		{"the a of", 5, 0, true},
		{"zzzz qqqq", 5, 0, true},
		{"pod", 2, 2, false},
		{"pod", 0, len(tree), false},
		{"rollout", 1, 1, false},
	}
	for _, tt := range tests {
		hits := ix.Search(tt.query, tt.limit)
		if tt.none != (len(hits) == 0) {
			t.Errorf("%q: %d hits, want none: %v", tt.query, len(hits), tt.none)
		}
		if len(hits) > tt.max {
			t.Errorf("%q limit %d: %d hits, want at most %d", tt.query, tt.limit, len(hits), tt.max)
		}
		for i := 1; i < len(hits); i++ {
			if hits[i].Score > hits[i-1].Score {
				t.Errorf("%q: hit %d scores %v above hit %d's %v", tt.query, i, hits[i].Score, i-1, hits[i-1].Score)
			}
		}
		for _, h := range hits {
			if h.Doc < 0 || h.Doc >= len(tree) || h.Score <= 0 {
				t.Errorf("%q: bad hit %+v", tt.query, h)
			}
		}
	}
}

// TestSearchRepeatable asks the same queries many times, interleaved, so
// that state left in the per-query scratch would show.
func TestSearchRepeatable(t *testing.T) {
	ix := New(tree)
	queries := []string{"list pods", "roll back", "delete pod", "forward a port"}
	first := map[string][]Hit{}
	for _, q := range queries {
		first[q] = ix.Search(q, 0)
	}
	for range 5 {
		for _, q := range queries {
			if got := ix.Search(q, 0); !slices.Equal(got, first[q]) {
				t.Fatalf("%q: %v, first time %v", q, got, first[q])
			}
		}
	}
}

// TestSearchConcurrent asks one index from several goroutines at once: each
// gets the answer it gets alone.
func TestSearchConcurrent(t *testing.T) {
	ix := New(tree)
	queries := []string{"list pods", "roll back", "delete pod", "forward a port", "load an image"}
	want := map[string][]Hit{}
	for _, q := range queries {
		want[q] = ix.Search(q, 0)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8*len(queries))
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				q := queries[(g+i)%len(queries)]
				if got := ix.Search(q, 0); !slices.Equal(got, want[q]) {
					errs <- q
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for q := range errs {
		t.Errorf("%q: a concurrent search differs from the search alone", q)
	}
}

func TestEmptyIndex(t *testing.T) {
	ix := New(nil)
	if ix.Len() != 0 {
		t.Errorf("Len = %d", ix.Len())
	}
	if hits := ix.Search("anything", 3); hits != nil {
		t.Errorf("hits on an empty index: %v", hits)
	}
}

func TestSplitExample(t *testing.T) {
	c, o := splitExample("  # List all pods\n  kubectl get pods\n// Go style\n\n")
	if c != "List all pods\nGo style\n" {
		t.Errorf("comments %q", c)
	}
	if o != "kubectl get pods\n\n\n" {
		t.Errorf("code %q", o)
	}
}

func BenchmarkSearch(b *testing.B) {
	ix := New(tree)
	b.ReportAllocs()
	for b.Loop() {
		ix.Search("which node is my pod running on", 8)
	}
}

func TestAsksState(t *testing.T) {
	tests := []struct {
		query string
		want  bool
	}{
		{"is my cluster up", true},
		{"which organizations do I belong to", true},
		{"what version of the chart is deployed", true},
		{"do all the members hold the same data", true},
		{"how long until this lease runs out", true},
		{"how many replicas are running", true},
		{"how do I delete a pod", false},
		{"delete the pod", false},
		{"show me which node", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := asksState(words(tt.query)); got != tt.want {
			t.Errorf("asksState(%q) = %v, want %v", tt.query, got, tt.want)
		}
	}
}

func TestReads(t *testing.T) {
	tests := []struct {
		doc  Doc
		want bool
	}{
		{Doc{Path: []string{"cluster", "list"}, Short: "Manage clusters"}, true},
		{Doc{Path: []string{"version"}}, true},
		{Doc{Path: []string{"endpoint", "hashkv"}, Short: "Prints the KV history hash for each endpoint"}, true},
		{Doc{Path: []string{"get"}, Short: "Display one or many resources"}, true},
		{Doc{Path: []string{"cluster", "start"}, Short: "Start existing k3d cluster(s)"}, false},
		{Doc{Path: []string{"delete"}, Short: "Delete resources"}, false},
		{Doc{Path: []string{"pr", "checkout"}, Short: "Check out a pull request in git"}, false},
		{Doc{Path: []string{"pr", "checks"}, Short: "Show CI status for a single pull request"}, true},
		{Doc{Path: []string{"x"}}, false},
	}
	for _, tt := range tests {
		if got := reads(tt.doc); got != tt.want {
			t.Errorf("reads(%v %q) = %v, want %v", tt.doc.Path, tt.doc.Short, got, tt.want)
		}
	}
}

// TestSearchQuestion: a question about state favours the command that
// reads over one that acts on the same object; the same words not asked
// as a question do not.
func TestSearchQuestion(t *testing.T) {
	docs := []Doc{
		{Path: []string{"cluster", "up"}, Short: "Start the nodes of a cluster"},
		{Path: []string{"cluster", "list"}, Short: "List clusters"},
	}
	ix := New(docs)
	scores := func(q string) (up, list float64) {
		for _, h := range ix.Search(q, 0) {
			if h.Doc == 0 {
				up = h.Score
			} else {
				list = h.Score
			}
		}
		return up, list
	}
	if up, list := scores("is my cluster there"); list <= up {
		t.Errorf("is my cluster there: cluster list %.3f, cluster up %.3f; want list above", list, up)
	}
	if up, list := scores("my cluster there"); list > up {
		t.Errorf("my cluster there: cluster list %.3f, cluster up %.3f; want list no higher", list, up)
	}
}

// TestSearchExamplesPrior: of two commands the query matches alike, the
// one with more examples (a command in common use) ranks first; with the
// prior off they tie.
func TestSearchExamplesPrior(t *testing.T) {
	docs := []Doc{
		{Path: []string{"pod", "drop"}, Short: "Delete a pod"},
		{Path: []string{"pod", "rm"}, Short: "Delete a pod", Example: "# one\ncli pod rm a\n# two\ncli pod rm a b\ncli pod rm -f a"},
	}
	if hits := New(docs).Search("delete a pod", 0); len(hits) != 2 || hits[0].Doc != 1 || hits[0].Score <= hits[1].Score {
		t.Errorf("hits %v, want pod rm (1) first, above pod drop", hits)
	}
	w := DefaultWeights()
	w.Examples = 0
	if hits := NewWeighted(docs, w).Search("delete a pod", 0); len(hits) != 2 || hits[0].Score != hits[1].Score {
		t.Errorf("without the prior: hits %v, want a tie", hits)
	}
}

// TestSearchImperative: a request that opens with a verb of action
// favours the command that acts over one that reads the same object; a
// verb of reading does not.
func TestSearchImperative(t *testing.T) {
	docs := []Doc{
		{Path: []string{"report", "view"}, Short: "View a report"},
		{Path: []string{"report", "create"}, Short: "Create a report"},
	}
	first := func(w Weights, q string) int { return NewWeighted(docs, w).Search(q, 1)[0].Doc }
	if got := first(DefaultWeights(), "file a report"); got != 1 {
		t.Errorf("file a report: %v first, want report create", docs[got].Path)
	}
	if got := first(DefaultWeights(), "look at a report"); got != 0 {
		t.Errorf("look at a report: %v first, want report view", docs[got].Path)
	}
	w := DefaultWeights()
	w.Imperative = 0
	if got := first(w, "file a report"); got != 0 {
		t.Errorf("without the prior, file a report: %v first, want the tie's first (report view)", docs[got].Path)
	}
}

// TestSearchPathWords: a query that explains two levels of a command's
// path ("plugin uninstall") scales its score by 1+PathWords; a command
// of one level explained is left as it is.
func TestSearchPathWords(t *testing.T) {
	docs := []Doc{
		{Path: []string{"uninstall"}, Short: "Uninstall a release and the hooks of its plugin"},
		{Path: []string{"plugin", "uninstall"}, Short: "Remove one"},
	}
	score := func(pw float64) (top, nested float64) {
		w := DefaultWeights()
		w.PathWords = pw
		for _, h := range NewWeighted(docs, w).Search("uninstall a plugin", 0) {
			if h.Doc == 0 {
				top = h.Score
			} else {
				nested = h.Score
			}
		}
		return top, nested
	}
	top0, nested0 := score(0)
	top, nested := score(0.5)
	if top != top0 || nested0 == 0 || math.Abs(nested/nested0-1.5) > 1e-9 {
		t.Errorf("uninstall %.3f -> %.3f, plugin uninstall %.3f -> %.3f; want the first unchanged, the second 1.5 times", top0, top, nested0, nested)
	}
	// One word explaining two levels ("apply" in "apply set-last-applied")
	// is one level explained.
	docs = []Doc{
		{Path: []string{"apply"}, Short: "Apply a configuration to a resource"},
		{Path: []string{"apply", "set-last-applied"}, Short: "Set the last-applied annotation"},
	}
	if hits := New(docs).Search("apply a manifest", 0); len(hits) == 0 || hits[0].Doc != 0 {
		t.Errorf("apply a manifest: %v, want apply first", hits)
	}
}

// TestSearchNamesCommand: a query naming a command's path ranks it
// higher, but only as whole words: "desktop" does not name top.
func TestSearchNamesCommand(t *testing.T) {
	docs := []Doc{{Path: []string{"top"}, Short: "Display pod usage"}, {Path: []string{"port-forward"}, Short: "Forward ports"}}
	ix := New(docs)
	score := func(q string, doc int) float64 {
		for _, h := range ix.Search(q, 0) {
			if h.Doc == doc {
				return h.Score
			}
		}
		return 0
	}
	if a, b := score("pod usage on my desktop", 0), score("pod usage on my notebook", 0); a != b || a == 0 {
		t.Errorf("top: %.3f for desktop, %.3f for notebook; want the same, not 0", a, b)
	}
	if a, b := score("pod usage, top", 0), score("pod usage", 0); a <= b {
		t.Errorf("top: %.3f named, %.3f not; want named higher", a, b)
	}
	if a, b := score("port forward", 1), score("forward port", 1); a <= b {
		t.Errorf("port-forward: %.3f named, %.3f not; want named higher", a, b)
	}
}
