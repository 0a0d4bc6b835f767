package exec

import (
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
