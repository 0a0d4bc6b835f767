package httpe2e

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The load test: loadCalls calls of mycli_echo, loadConcurrency at once,
// over loadSessions client sessions, against each mode on loopback. Every
// call must succeed with its own arguments echoed back, and no child
// process may be left.
const (
	loadCalls       = 2000
	loadConcurrency = 32
	loadSessions    = 4
)

func TestLoad(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			s := startServer(t, []string{"MYCLI_MCP_TOKEN=" + testToken}, m.args...)
			sessions := make([]*mcp.ClientSession, loadSessions)
			for i := range sessions {
				sessions[i] = mustConnect(t, s, testToken)
			}
			elapsed, failures := runLoad(t, sessions, loadCalls, loadConcurrency)
			for _, f := range failures {
				t.Error(f)
			}
			if len(failures) == 0 {
				t.Logf("%s: %d calls, %d at once, in %v: %.0f calls/s", m.name, loadCalls, loadConcurrency,
					elapsed.Round(time.Millisecond), float64(loadCalls)/elapsed.Seconds())
			}
			if kids := children(s.cmd.Process.Pid); len(kids) != 0 {
				t.Errorf("%d child processes left after the load: %+v", len(kids), kids)
			}
		})
	}
}

// runLoad makes n calls of mycli_echo, each with arguments of its own,
// with c workers spread over sessions, and returns the time taken and a
// description of each call that failed or got another call's result (at
// most 20).
func runLoad(t testing.TB, sessions []*mcp.ClientSession, n, c int) (time.Duration, []string) {
	var (
		next     atomic.Int64
		mu       sync.Mutex
		failures []string
		failed   int
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		failed++
		if len(failures) < 20 {
			failures = append(failures, fmt.Sprintf(format, args...))
		}
	}
	start := time.Now()
	var wg sync.WaitGroup
	for w := range c {
		cs := sessions[w%len(sessions)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				want := []string{fmt.Sprintf("call-%d", i), fmt.Sprintf("worker-%d", w)}
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				out, err := callEcho(ctx, cs, want...)
				cancel()
				switch {
				case err != nil:
					fail("call %d: %v", i, err)
				case strings.Join(out.Args, " ") != strings.Join(want, " "):
					fail("call %d got the result %q, want %q", i, out.Args, want)
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if failed > 0 {
		failures = append(failures, fmt.Sprintf("%d of %d calls failed", failed, n))
	}
	return elapsed, failures
}

// BenchmarkCall measures calls of mycli_echo per second through `mcp
// stream`, 32 at once, in each mode.
func BenchmarkCall(b *testing.B) {
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			s := startServer(b, []string{"MYCLI_MCP_TOKEN=" + testToken}, m.args...)
			sessions := make([]*mcp.ClientSession, loadSessions)
			for i := range sessions {
				sessions[i] = mustConnect(b, s, testToken)
			}
			b.ResetTimer()
			elapsed, failures := runLoad(b, sessions, b.N, loadConcurrency)
			b.StopTimer()
			if len(failures) > 0 {
				b.Fatal(strings.Join(failures, "\n"))
			}
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "calls/s")
		})
	}
}
