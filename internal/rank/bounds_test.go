package rank

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

func TestSearchContextBounds(t *testing.T) {
	ix := New(tree)
	tests := []struct {
		name  string
		query string
		limit string // "" when the query is within the bounds
	}{
		{"a sentence", "roll back my app", ""},
		{"bytes at the bound", strings.Repeat("x", MaxQueryBytes), ""},
		{"one byte over", strings.Repeat("x", MaxQueryBytes+1), "bytes"},
		{"a 5 MB word", strings.Repeat("a", 5<<20), "bytes"},
		{"words at the bound", strings.Repeat("pod ", MaxQueryWords), ""},
		{"one word over", strings.Repeat("pod ", MaxQueryWords+1), "words"},
		{"short words over", strings.Repeat("a,", MaxQueryBytes/2), "words"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits, err := ix.SearchContext(context.Background(), tt.query, 3)
			if tt.limit == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if want := ix.Search(tt.query, 3); !slices.Equal(hits, want) {
					t.Errorf("SearchContext %v, Search %v", hits, want)
				}
				return
			}
			var qe *QueryError
			if !errors.As(err, &qe) || qe.Limit != tt.limit {
				t.Fatalf("err = %v, want a *QueryError on %s", err, tt.limit)
			}
			if hits != nil {
				t.Errorf("hits with the refusal: %v", hits)
			}
			if !strings.Contains(err.Error(), fmt.Sprint(qe.Max)) {
				t.Errorf("the refusal %q does not name the bound %d", err, qe.Max)
			}
			if got := ix.Search(tt.query, 3); got != nil {
				t.Errorf("Search of a query over the bounds: %v", got)
			}
		})
	}
}

// countdown is a context that is done after its Err has been asked n
// times: it shows where ranking looks at its context.
type countdown struct {
	context.Context
	n atomic.Int64
}

func (c *countdown) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// bigTree is n documents sharing the word "pod", so that one query
// touches them all.
func bigTree(n int) []Doc {
	docs := make([]Doc, n)
	for i := range docs {
		docs[i] = Doc{Path: []string{fmt.Sprintf("cmd%d", i)}, Short: "Print the pod's logs"}
	}
	return docs
}

func TestSearchContextCancelled(t *testing.T) {
	ix := New(bigTree(4 * cancelEvery))
	want := ix.Search("pod logs", 0)
	if len(want) != 4*cancelEvery {
		t.Fatalf("%d hits, want every document", len(want))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ix.SearchContext(ctx, "pod logs", 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before: err = %v", err)
	}
	// Done half way through the documents, at each of the looks: the
	// search stops, and the searches after it are not disturbed.
	for n := int64(1); n < 12; n++ {
		c := &countdown{Context: context.Background()}
		c.n.Store(n)
		hits, err := ix.SearchContext(c, "pod logs", 0)
		if !errors.Is(err, context.Canceled) || hits != nil {
			t.Fatalf("done after %d looks: %d hits, err = %v", n, len(hits), err)
		}
		if got := ix.Search("pod logs", 0); !slices.Equal(got, want) {
			t.Fatalf("after a search stopped at look %d the ranking differs", n)
		}
	}
}

// TestSearchLongWord: a word longer than any indexed term ranks as it did
// (its prefixes up to the longest term are still looked up).
func TestSearchLongWord(t *testing.T) {
	ix := New(tree)
	for _, q := range []string{"kubeconfig", "deployments", "rollbackx", "nameprefixes"} {
		want := ix.Search(q, 0)
		got, err := ix.search(context.Background(), q, 0)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%q: %v %v, want %v", q, got, err, want)
		}
	}
	long := "kube" + strings.Repeat("x", 1<<16)
	if _, err := ix.search(context.Background(), long, 0); err != nil {
		t.Errorf("a %d-byte word: %v", len(long), err)
	}
}

// BenchmarkSearchLongWord ranks one word of 4 KB to 5 MB, past the
// bounds: the time grows linearly with the word.
func BenchmarkSearchLongWord(b *testing.B) {
	ix := New(tree)
	for _, n := range []int{4 << 10, 64 << 10, 512 << 10, 5 << 20} {
		q := strings.Repeat("a", n)
		b.Run(fmt.Sprintf("%dKB", n>>10), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				if _, err := ix.search(context.Background(), q, 8); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSearchContextRefused is the cost of refusing a 5 MB query.
func BenchmarkSearchContextRefused(b *testing.B) {
	ix := New(tree)
	q := strings.Repeat("a", 5<<20)
	for b.Loop() {
		if _, err := ix.SearchContext(context.Background(), q, 8); err == nil {
			b.Fatal("not refused")
		}
	}
}
