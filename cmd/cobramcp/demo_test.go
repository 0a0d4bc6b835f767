package main

import (
	"strings"
	"testing"
)

// TestSummary checks the one line list and demo print for a tool: the
// description's first paragraph on one line, and "…" wherever text was
// left out.
func TestSummary(t *testing.T) {
	long := strings.Repeat("word ", 40) // 200 bytes
	tests := []struct{ name, in, want string }{
		{"one line", "List services", "List services"},
		{"empty", "", ""},
		{"wrapped paragraph", "Create or update the objects of a manifest: one object,\nor an array of objects.",
			"Create or update the objects of a manifest: one object, or an array of objects."},
		{"second paragraph", "Show details of one pod.\n\nThe pod must exist.", "Show details of one pod. …"},
		{"trailing blank lines", "Show details of one pod.\n\n\n", "Show details of one pod."},
		{"already marked", "Sleep for --for. …", "Sleep for --for. …"},
		{"already marked, more after", "Sleep for --for. …\n\nMore.", "Sleep for --for. …"},
		{"long", long, strings.TrimSpace(long[:summaryWidth-1]) + " …"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := summary(tt.in); got != tt.want {
				t.Errorf("summary(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestShortenMarks checks that a long call result keeps a mark for what it
// leaves out, wherever the server's own marker is.
func TestShortenMarks(t *testing.T) {
	marker := "[... cobramcp: 100 bytes not shown ...]\n"
	body := strings.Repeat("x", 1000)
	tests := []struct {
		name, in string
		want     []string // in order
	}{
		{"short", "hello", []string{"hello"}},
		{"long", body, []string{"[demo: 520 bytes not shown]"}},
		{"marker in the middle", body + marker + body, []string{"[demo: 760 bytes not shown]", marker, "[demo: 760 bytes not shown]"}},
		{"marker at the start", marker + body, []string{marker, "[demo: 760 bytes not shown]"}},
		{"marker at the end", body + marker, []string{"[demo: 760 bytes not shown]", marker}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := shorten(tt.in)
			rest := got
			for _, w := range tt.want {
				i := strings.Index(rest, strings.TrimSuffix(w, "\n"))
				if i < 0 {
					t.Fatalf("shorten: %q lacks %q (in order)", got, w)
				}
				rest = rest[i+len(strings.TrimSuffix(w, "\n")):]
			}
		})
	}
}
