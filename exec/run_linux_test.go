package exec

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// TestRunsWaitWithoutThreads runs many commands at once and checks, while
// they all run, that this process has fewer threads than running commands:
// a Run waits for its process's exit in the poller (a pidfd), not in a
// thread blocked in waitid.
func TestRunsWaitWithoutThreads(t *testing.T) {
	// Not parallel: the thread count is the whole process's.
	const n = 48
	ready := make(chan int, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			opts := helperOpts()
			opts.OnLine = func(_, line string) {
				if f := strings.Fields(line); len(f) == 3 && f[2] == "ready" {
					p, _ := strconv.Atoi(f[1])
					ready <- p
				}
			}
			res, err := Run(t.Context(), self(t), []string{"waitusr1"}, opts)
			if err != nil || res.Stdout == "" || !strings.HasSuffix(res.Stdout, "done\n") {
				t.Errorf("Run: %v, %+v", err, res)
			}
		})
	}
	var pids []int
	for range n {
		pids = append(pids, <-ready)
	}
	threads := threadCount(t)
	for _, p := range pids {
		syscall.Kill(p, syscall.SIGUSR1)
	}
	wg.Wait()
	if threads >= n {
		t.Errorf("%d threads while %d commands ran: a thread per waiting Run", threads, n)
	}
}

// threadCount is the number of threads of this process.
func threadCount(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "Threads:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no Threads line in /proc/self/status")
	return 0
}
