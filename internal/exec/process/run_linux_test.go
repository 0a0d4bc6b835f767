package process

import (
	"os"
	"runtime"
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

// TestChildOutlivesEndedThreads ends many threads (goroutines that return
// locked to theirs) while a child runs: the child must not get the
// parent-death signal, which Linux sends when the thread that forked it
// exits. Every child is forked by the starter, whose thread never ends.
func TestChildOutlivesEndedThreads(t *testing.T) {
	t.Parallel()
	ready := make(chan int, 1)
	opts := helperOpts()
	opts.OnLine = func(_, line string) {
		if f := strings.Fields(line); len(f) == 3 && f[2] == "ready" {
			p, _ := strconv.Atoi(f[1])
			ready <- p
		}
	}
	type outcome struct {
		res *Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := Run(t.Context(), self(t), []string{"waitusr1"}, opts)
		done <- outcome{res, err}
	}()
	pid := <-ready
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() {
			runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		})
	}
	wg.Wait()
	syscall.Kill(pid, syscall.SIGUSR1)
	o := <-done
	if o.err != nil || o.res.ExitCode != 0 || o.res.Signal != "" || !strings.HasSuffix(o.res.Stdout, "done\n") {
		t.Fatalf("Run: %v, %+v; want a normal exit after SIGUSR1", o.err, o.res)
	}
}
