package process

import (
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCollectBothWays runs the same calls with the two ways of collecting
// a child (collect, one goroutine on an epoll instance of the call's own;
// collectWithGoroutines, the way without a pidfd and on other systems):
// each must keep every guarantee of Run.
func TestCollectBothWays(t *testing.T) {
	t.Parallel()
	ways := []struct {
		name    string
		collect collectFunc
	}{
		{"epoll", collect},
		{"goroutines", collectWithGoroutines},
	}
	tests := []struct {
		name  string
		argv  []string
		opts  func(*Options)
		check func(t *testing.T, res *Result)
	}{
		{"output and exit code", []string{"print", "5000"}, nil, func(t *testing.T, res *Result) {
			if res.Stdout != string(pattern(5000)) || res.Stderr != "" || res.ExitCode != 0 || res.StdoutUnread {
				t.Errorf("result = %.80q, %.80q, %d; want 5000 bytes of pattern and exit 0", res.Stdout, res.Stderr, res.ExitCode)
			}
		}},
		{"exit code", []string{"exit", "7"}, nil, func(t *testing.T, res *Result) {
			if res.ExitCode != 7 || res.Signal != "" {
				t.Errorf("result = %+v; want exit 7", res)
			}
		}},
		{"stdin is empty", []string{"stdin"}, nil, func(t *testing.T, res *Result) {
			if res.Stdout != "0 <nil>" {
				t.Errorf("stdout %q; want 0 bytes read", res.Stdout)
			}
		}},
		{"capped", []string{"print", "300000", "stderr"}, func(o *Options) { o.MaxOutput = 1000 }, func(t *testing.T, res *Result) {
			if res.StderrOmitted != 299000 || !strings.Contains(res.Stderr, "[... cobramcp: 299000 bytes of stderr left out ...]") {
				t.Errorf("stderr %q, omitted %d; want 299000 left out", res.Stderr, res.StderrOmitted)
			}
		}},
		{"timeout ends the group", []string{"grandchild"}, func(o *Options) { o.Timeout = 5 * time.Second }, func(t *testing.T, res *Result) {
			if !res.TimedOut || res.Signal != "terminated" {
				t.Errorf("result = %+v; want TimedOut by SIGTERM", res)
			}
			ps := pids(t, res.Stdout)
			if len(ps) != 2 {
				t.Fatalf("stdout %q: want two pids", res.Stdout)
			}
			assertGone(t, ps...)
		}},
		{"kill after the grace", []string{"ignoreterm"}, func(o *Options) {
			o.Timeout = 2 * time.Second
			o.KillGrace = 200 * time.Millisecond
		}, func(t *testing.T, res *Result) {
			if !res.TimedOut || res.Signal != "killed" || res.Duration < 2*time.Second+200*time.Millisecond {
				t.Errorf("result = %+v; want TimedOut, killed after the grace", res)
			}
		}},
		{"leftover ended", []string{"holdout", "ignoreterm"}, func(o *Options) { o.KillGrace = 200 * time.Millisecond }, func(t *testing.T, res *Result) {
			ps := pids(t, res.Stdout)
			if res.ExitCode != 0 || len(ps) != 1 || res.Duration < 200*time.Millisecond {
				t.Fatalf("result = %+v; want exit 0, the grandchild's pid, the grace waited", res)
			}
			assertGone(t, ps...)
		}},
		{"escaped grandchild does not hold", []string{"escape"}, nil, func(t *testing.T, res *Result) {
			ps := pids(t, res.Stdout)
			if len(ps) != 1 {
				t.Fatalf("stdout %q: want the grandchild's pid", res.Stdout)
			}
			defer syscall.Kill(ps[0], syscall.SIGKILL)
			if !res.StdoutUnread || !res.StderrUnread || dead(ps[0]) {
				t.Errorf("result = %+v; want both streams unread, the grandchild alive", res)
			}
		}},
	}
	for _, w := range ways {
		for _, tt := range tests {
			t.Run(w.name+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				opts := helperOpts()
				if tt.opts != nil {
					tt.opts(&opts)
				}
				res, err := run(t.Context(), self(t), tt.argv, opts, w.collect)
				if err != nil {
					t.Fatal(err)
				}
				tt.check(t, res)
			})
		}
	}
}

// TestCallPollReused checks that a call's epoll instance is kept for the
// next call once empty, and that a wake meant for the call before (a ctx
// canceled as that call ended) does not end or mark the next one.
func TestCallPollReused(t *testing.T) {
	// Not parallel: the instances are the process's.
	if _, err := Run(t.Context(), self(t), []string{"exit", "0"}, helperOpts()); err != nil {
		t.Fatal(err)
	}
	polls := &theStarter().polls
	polls.mu.Lock()
	if len(polls.free) == 0 {
		polls.mu.Unlock()
		t.Fatal("no epoll instance kept after a call")
	}
	last := polls.free[len(polls.free)-1]
	polls.mu.Unlock()

	opts := helperOpts()
	woken := false
	opts.OnLine = func(_, line string) {
		if f := strings.Fields(line); len(f) == 3 && f[2] == "ready" {
			last.wake() // as a late AfterFunc of the call before would
			woken = true
			p, _ := strconv.Atoi(f[1])
			syscall.Kill(p, syscall.SIGUSR1)
		}
	}
	res, err := Run(t.Context(), self(t), []string{"waitusr1"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !woken || res.Canceled || res.TimedOut || res.ExitCode != 0 || !strings.HasSuffix(res.Stdout, "done\n") {
		t.Fatalf("result = %+v (woken %v); want a normal exit after the stray wake", res, woken)
	}
	polls.mu.Lock()
	defer polls.mu.Unlock()
	if len(polls.free) == 0 || polls.free[len(polls.free)-1] != last {
		t.Errorf("the instance was not reused and kept again")
	}
}

// TestRunOnLinePanicEndsTheCall panics in OnLine while the call's process
// and its child run: the panic reaches Run's caller, and the call's group
// is ended on its way.
func TestRunOnLinePanicEndsTheCall(t *testing.T) {
	t.Parallel()
	var seen []int
	opts := helperOpts()
	opts.OnLine = func(_, line string) {
		if p, ok := strings.CutPrefix(line, "pid "); ok {
			n, _ := strconv.Atoi(p)
			if seen = append(seen, n); len(seen) == 2 {
				panic("OnLine gives up")
			}
		}
	}
	func() {
		defer func() {
			if v := recover(); v != "OnLine gives up" {
				t.Errorf("recovered %v; want OnLine's panic", v)
			}
		}()
		res, err := Run(t.Context(), self(t), []string{"grandchild"}, opts)
		t.Errorf("Run returned %+v, %v; want OnLine's panic", res, err)
	}()
	if len(seen) != 2 {
		t.Fatalf("pids seen %v; want the child's and the grandchild's", seen)
	}
	assertGone(t, seen...)
}
