package main

import (
	"strings"
	"testing"

	"github.com/cobramcp/cobramcp/internal/rank"
)

func TestLearnedAssociation(t *testing.T) {
	clis := map[string]*CLI{"k": {Name: "k", Docs: []rank.Doc{{Path: []string{"annotate"}, Short: "Update the annotations on a resource"}, {Path: []string{"get"}, Short: "Display resources"}}}}
	tasks := []Task{
		{CLI: "k", Query: "record the ticket on the object", Want: []string{"annotate"}},
		{CLI: "k", Query: "attach a ticket number", Want: []string{"annotate"}},
		{CLI: "k", Query: "show the ticket", Want: []string{"get"}},
	}
	tests := []struct {
		n    int
		p    float64
		want bool // whether "ticket" leads to annotate
	}{
		{2, 0.5, true},  // 2 of the 3 tasks with "ticket"
		{2, 0.7, false}, // 0.67 < 0.7
		{3, 0.1, false}, // only 2 tasks
	}
	for _, tt := range tests {
		a := learn(tasks, clis, tt.n, tt.p)
		if got := a["ticket"]["annotate"] > 0; got != tt.want {
			t.Errorf("learn(n=%d, p=%.1f): ticket → annotate is %v, want %v (%v)", tt.n, tt.p, got, tt.want, a)
		}
	}
	a := learn(tasks, clis, 2, 0.5)
	known := vocabulary(clis["k"])
	if got := a.expand("file a ticket", known); !strings.HasSuffix(got, " annotate") {
		t.Errorf("expand of an unknown word = %q, want annotate appended", got)
	}
	known["ticket"] = true
	if got := a.expand("file a ticket", known); got != "file a ticket" {
		t.Errorf("expand of a word the CLI has = %q, want the query unchanged", got)
	}
}
