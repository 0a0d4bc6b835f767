package toolset

import (
	"fmt"
	"testing"
)

// TestConfirmStatesBounded (issue 34.11): what a confirmer keeps of the
// answers taken is bounded, whatever the number of requests made and
// answered: one bit for each of the last confirmWindow states. An answer
// to a state older than that is refused (the question is asked again), as
// is one taken before; the newest are taken once each.
func TestConfirmStatesBounded(t *testing.T) {
	cf := newConfirmer(Confirm{Destructive: true}, "mycli")
	argv := []string{"delete", "pod", "web-0"}
	first := cf.state("mycli_delete_pod", argv)
	states := []string{first}
	for i := range 3 * confirmWindow {
		s := cf.state("mycli_delete_pod", argv)
		if i%3 == 0 && i < 3*confirmWindow-10 && !cf.take(s, "mycli_delete_pod", argv) {
			t.Fatalf("state %d not taken", i+1)
		}
		if i >= 3*confirmWindow-10 {
			states = append(states, s)
		}
	}
	if n := len(cf.taken) * 64; n > confirmWindow {
		t.Errorf("the confirmer keeps %d bits for %d states, want at most %d", n, 3*confirmWindow+1, confirmWindow)
	}
	if cf.take(first, "mycli_delete_pod", argv) {
		t.Errorf("a state %d states old was taken, want it refused (more than the window, %d, were asked since)", 3*confirmWindow, confirmWindow)
	}
	for i, s := range states[1:] {
		if !cf.take(s, "mycli_delete_pod", argv) {
			t.Errorf("recent state %d not taken", i)
		}
		if cf.take(s, "mycli_delete_pod", argv) {
			t.Errorf("recent state %d taken twice", i)
		}
	}
}

// BenchmarkConfirmTake: taking an answer costs the same with 1,000 or
// 1,000,000 answers taken before (it scanned them all: 54 ms per answer
// with a million kept).
func BenchmarkConfirmTake(b *testing.B) {
	argv := []string{"delete", "pod", "web-0"}
	for _, before := range []int{1_000, 1_000_000} {
		b.Run(fmt.Sprint(before), func(b *testing.B) {
			cf := newConfirmer(Confirm{Destructive: true}, "mycli")
			for range before {
				cf.take(cf.state("mycli_delete_pod", argv), "mycli_delete_pod", argv)
			}
			for b.Loop() {
				if !cf.take(cf.state("mycli_delete_pod", argv), "mycli_delete_pod", argv) {
					b.Fatal("not taken")
				}
			}
		})
	}
}
