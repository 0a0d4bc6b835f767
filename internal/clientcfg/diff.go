package clientcfg

import (
	"bytes"
	"fmt"
	"strings"
)

// Diff returns a unified diff of before and after, labelled with path,
// with one hunk around the lines that changed (three lines of context):
// "(new)" labels the file when there was none before (before is empty),
// "(updated)" the file changed. It is empty when they are equal.
func Diff(path string, before, after []byte) string {
	if bytes.Equal(before, after) {
		return ""
	}
	a, b := splitLines(before), splitLines(after)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	const ctx = 3
	from := max(pre-ctx, 0)
	aEnd, bEnd := min(len(a)-suf+ctx, len(a)), min(len(b)-suf+ctx, len(b))
	var w strings.Builder
	label := "updated"
	if len(before) == 0 {
		label = "new"
	}
	fmt.Fprintf(&w, "--- %s\n+++ %s (%s)\n", path, path, label)
	fmt.Fprintf(&w, "@@ -%s +%s @@\n", span(from, aEnd), span(from, bEnd))
	for _, l := range a[from:pre] {
		w.WriteString(" " + l)
	}
	for _, l := range a[pre : len(a)-suf] {
		w.WriteString("-" + l)
	}
	for _, l := range b[pre : len(b)-suf] {
		w.WriteString("+" + l)
	}
	for _, l := range a[len(a)-suf : aEnd] {
		w.WriteString(" " + l)
	}
	return w.String()
}

func span(from, to int) string {
	if to-from == 0 {
		return fmt.Sprintf("%d,0", from)
	}
	return fmt.Sprintf("%d,%d", from+1, to-from)
}

// splitLines splits b into lines that each end with "\n" (one is added to
// a last line without it, marked as in diff(1)).
func splitLines(b []byte) []string {
	var lines []string
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			lines = append(lines, string(b)+"\n\\ No newline at end of file\n")
			break
		}
		lines = append(lines, string(b[:i+1]))
		b = b[i+1:]
	}
	return lines
}
