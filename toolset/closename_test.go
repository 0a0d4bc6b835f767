package toolset_test

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/cobramcp/cobramcp/toolset"
)

// unknownName calls v with name, which it does not serve, and returns the
// error's text and the bytes the call allocated (the least of three
// calls: the count is the process's, which another goroutine may add to).
func unknownName(t testing.TB, v *toolset.Served, name string) (string, uint64) {
	var msg string
	least := uint64(1 << 63)
	for range 3 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := v.Call(context.Background(), name, nil)
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Fatalf("a call of %.40q… (%d bytes) was not refused", name, len(name))
		}
		msg, least = err.Error(), min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return msg, least
}

// TestUnknownNameBound (issue 34.9): "did you mean" compares only a name
// within the longest tool name plus the edits allowed, so a name of 4 MB
// costs what a short one does; its message quotes at most 128 bytes of it.
// Allocation, not time, is what the test measures: without the bound, each
// tool's comparison copies the whole name (hundreds of megabytes).
func TestUnknownNameBound(t *testing.T) {
	v, err := myTree().View(toolset.Listing{})
	if err != nil {
		t.Fatal(err)
	}
	longest := ""
	for _, tool := range v.Tools() {
		if len(tool.Name) > len(longest) {
			longest = tool.Name
		}
	}
	// At the bound, a typo is still named: the longest name with k bytes
	// more is k edits away, allowed while k <= (len+k)/4.
	k := len(longest) / 3
	if msg, _ := unknownName(t, v, longest+strings.Repeat("z", k)); !strings.Contains(msg, "did you mean \""+longest+"\"") {
		t.Errorf("a name %d bytes longer than %s: %s; want it named", k, longest, msg)
	}
	if msg, _ := unknownName(t, v, longest+strings.Repeat("z", k+1)); strings.Contains(msg, "did you mean") {
		t.Errorf("a name %d bytes longer than %s: %s; want no suggestion", k+1, longest, msg)
	}
	for _, n := range []int{1 << 20, 4 << 20} {
		name := "mycli_get_pods" + strings.Repeat("s", n)
		msg, alloc := unknownName(t, v, name)
		if alloc > 64<<10 {
			t.Errorf("a name of %d bytes allocated %d bytes; want a short name's cost (under 64 KiB)", len(name), alloc)
		}
		if len(msg) > 200 || !strings.Contains(msg, `unknown tool "mycli_get_podssss`) || !strings.HasSuffix(msg, "(4194318 bytes)") && n == 4<<20 {
			t.Errorf("a name of %d bytes: %.300q", len(name), msg)
		}
	}
}

// BenchmarkUnknownName: the cost of refusing an unknown tool name, short
// (a typo, named) and of 4 MB (a hostile one: refused without comparing).
func BenchmarkUnknownName(b *testing.B) {
	v, err := myTree().View(toolset.Listing{})
	if err != nil {
		b.Fatal(err)
	}
	for _, bb := range []struct{ name, tool string }{
		{"typo", "mycli_get_pdos"},
		{"4MB", "mycli_get_pods" + strings.Repeat("s", 4<<20)},
	} {
		b.Run(bb.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := v.Call(context.Background(), bb.tool, nil); err == nil {
					b.Fatal("not refused")
				}
			}
		})
	}
}
