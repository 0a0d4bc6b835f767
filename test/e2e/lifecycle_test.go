package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/internal/exec"
)

// groupEnd is how long a process group may take to go away after its call
// ended: the kill grace (SIGTERM, then SIGKILL) and some slack.
const groupEnd = exec.DefaultKillGrace + 8*time.Second

// spawnCall starts `sleep --for 60s --spawn [--ignore-term]` with a progress
// token and returns the grandchild's pid (the command's first output line,
// carried by a progress notification), the process group of the call, and
// a channel with the call's outcome.
func spawnCall(t *testing.T, s *server, ctx context.Context, token string, ignoreTerm bool) (grandchild, pgid int, done <-chan error) {
	t.Helper()
	params := &mcp.CallToolParams{
		Name:      "mycli_sleep",
		Arguments: map[string]any{"flags": map[string]any{"for": "60s", "spawn": true, "ignore-term": ignoreTerm}},
	}
	params.SetProgressToken(token)
	ch := make(chan error, 1)
	go func() {
		res, err := s.cs.CallTool(ctx, params)
		if err == nil {
			err = fmt.Errorf("the call returned a result: isError %v, %v", res.IsError, res.StructuredContent)
		}
		ch <- err
	}()
	grandchild = s.pidProgress(t, token)
	p, ok := readProc(grandchild)
	if !ok {
		t.Fatalf("grandchild %d not found", grandchild)
	}
	pgid = p.pgid
	// The group leader is the call's process: a child of the server, in a
	// group of its own (not the server's).
	leader, ok := readProc(pgid)
	if !ok || leader.ppid != s.pid() || leader.pgid != pgid {
		t.Fatalf("group leader %d: %+v (found %v), want a child of the server %d leading its own group", pgid, leader, ok, s.pid())
	}
	if self, _ := readProc(s.pid()); self.pgid == pgid {
		t.Fatalf("the call runs in the server's own process group %d", pgid)
	}
	if members := groupMembers(t, pgid); len(members) != 2 {
		t.Fatalf("process group %d has %d live members, want 2 (sleep and its grandchild): %+v", pgid, len(members), members)
	}
	return grandchild, pgid, ch
}

// TestCancel cancels running calls (the go-sdk client sends
// notifications/cancelled) and checks that the call's whole process group,
// grandchild included, is gone afterwards and the server keeps serving.
func TestCancel(t *testing.T) {
	t.Parallel()
	for _, ignoreTerm := range []bool{false, true} {
		t.Run(fmt.Sprintf("ignore-term=%v", ignoreTerm), func(t *testing.T) {
			t.Parallel()
			s := startServer(t, serverOptions{})
			ctx, cancel := context.WithCancel(context.Background())
			_, pgid, done := spawnCall(t, s, ctx, "cancel-me", ignoreTerm)
			start := time.Now()
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Errorf("canceled call returned %v, want context.Canceled", err)
			}
			waitGroupGone(t, pgid, groupEnd)
			t.Logf("process group gone %s after the cancel", time.Since(start).Round(time.Millisecond))
			if left := children(t, s.pid()); len(left) != 0 {
				t.Errorf("the server still has children: %+v", left)
			}
			out, _ := resultOutput(t, s.call(t, context.Background(), "mycli_version", `{}`))
			if out.Stdout != "mycli version 1.4.2\n" {
				t.Errorf("after the cancel: %q", out.Stdout)
			}
			if code := s.close(); code != 0 {
				t.Errorf("server exit code %d, want 0", code)
			}
		})
	}
}

// TestTimeout runs a call past the timeout of shortcli (mycli with
// Config.Timeout of 5s): the result says so, keeps the output so far, and
// the process group, grandchild ignoring SIGTERM included, is gone when the
// result arrives.
func TestTimeout(t *testing.T) {
	t.Parallel()
	s := startServer(t, serverOptions{bin: shortcliBin})
	ctx := context.Background()
	start := time.Now()
	res := s.call(t, ctx, "mycli_sleep", `{"flags":{"for":"60s","spawn":true,"ignore-term":true}}`)
	took := time.Since(start)
	out, text := resultOutput(t, res)
	if !res.IsError {
		t.Fatalf("a timed-out call is not an error: %s", text)
	}
	if took < shortTimeout || took > shortTimeout+groupEnd {
		t.Errorf("the call took %s; the timeout is %s", took, shortTimeout)
	}
	if !out.TimedOut || out.ExitCode != -1 {
		t.Errorf("structured result %+v: want timedOut and exit code -1", out)
	}
	if !strings.Contains(out.Stderr, "timed out after "+shortTimeout.String()) {
		t.Errorf("stderr %q does not say the call timed out after %s", out.Stderr, shortTimeout)
	}
	var grandchild int
	if _, err := fmt.Sscanf(out.Stdout, "%d\n", &grandchild); err != nil || grandchild <= 0 {
		t.Fatalf("stdout %q: want the grandchild's pid first", out.Stdout)
	}
	// Run ends the group before it returns: no waiting here.
	if p, ok := readProc(grandchild); ok && p.alive() {
		t.Errorf("grandchild %d survived the timeout: %+v", grandchild, p)
	}
	if left := children(t, s.pid()); len(left) != 0 {
		t.Errorf("the server still has children: %+v", left)
	}

	// A call within the timeout is unaffected.
	out, _ = resultOutput(t, s.call(t, ctx, "mycli_sleep", `{"flags":{"for":"100ms"}}`))
	if out.Stdout != "slept 100ms\n" {
		t.Errorf("short sleep: %q", out.Stdout)
	}
	if code := s.close(); code != 0 {
		t.Errorf("server exit code %d, want 0", code)
	}
}

// TestStdinClosedMidCall closes the server's stdin while a call runs: the
// server ends the call's process group, grandchild ignoring SIGTERM
// included, and exits 0.
func TestStdinClosedMidCall(t *testing.T) {
	t.Parallel()
	s := startServer(t, serverOptions{ownPipes: true})
	grandchild, pgid, done := spawnCall(t, s, context.Background(), "orphan", true)
	start := time.Now()
	if err := s.stdin.Close(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	select {
	case err := <-exited:
		t.Logf("server exited %s after stdin closed", time.Since(start).Round(time.Millisecond))
		if err != nil {
			t.Errorf("server exit after stdin closed mid-call: %v, want exit code 0", err)
		}
	case <-time.After(groupEnd):
		t.Fatalf("server still running %s after stdin closed mid-call", groupEnd)
	}
	if err := <-done; err == nil || strings.Contains(err.Error(), "returned a result") {
		t.Errorf("the interrupted call returned %v, want a closed-connection error", err)
	}
	// The server waits for its calls' groups before it exits.
	if members := groupMembers(t, pgid); len(members) != 0 {
		t.Errorf("process group %d outlived the server: %+v", pgid, members)
	}
	if p, ok := readProc(grandchild); ok && p.alive() {
		t.Errorf("grandchild %d outlived the server", grandchild)
	}
	s.closed = true
	_ = s.cs.Close()
}

// TestShutdownMidCall sends SIGTERM, then SIGINT, to a server with a call
// running: the server ends the call's whole group, then exits 0.
func TestShutdownMidCall(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			shutdownMidCall(t, sig)
		})
	}
}

func shutdownMidCall(t *testing.T, sig syscall.Signal) {
	t.Parallel()
	s := startServer(t, serverOptions{ownPipes: true})
	grandchild, pgid, done := spawnCall(t, s, context.Background(), "orphan", true)
	start := time.Now()
	if err := s.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	select {
	case err := <-exited:
		t.Logf("server exited %s after the signal", time.Since(start).Round(time.Millisecond))
		if err != nil {
			t.Errorf("server exit after %v mid-call: %v, want exit code 0", sig, err)
		}
	case <-time.After(groupEnd):
		t.Fatalf("server still running %s after %v mid-call", groupEnd, sig)
	}
	if err := <-done; err == nil || strings.Contains(err.Error(), "returned a result") {
		t.Errorf("the interrupted call returned %v, want a closed-connection error", err)
	}
	// The server waits for its calls' groups before it exits.
	if members := groupMembers(t, pgid); len(members) != 0 {
		t.Errorf("process group %d outlived the server: %+v", pgid, members)
	}
	if p, ok := readProc(grandchild); ok && p.alive() {
		t.Errorf("grandchild %d outlived the server", grandchild)
	}
	s.closed = true
	_ = s.cs.Close()
}

// TestHugeOutput calls `flood --bytes 100000000`: the result keeps the
// first and last half of exec.DefaultMaxOutput around a marker with the
// exact count left out, and the server's peak memory stays small.
func TestHugeOutput(t *testing.T) {
	t.Parallel()
	const total = 100_000_000
	s := startServer(t, serverOptions{})
	res := s.call(t, context.Background(), "mycli_flood", fmt.Sprintf(`{"flags":{"bytes":%d}}`, total))
	hwm := vmHWM(t, s.pid()) // before the server exits
	t.Logf("server VmHWM after %d bytes of output: %.1f MiB", total, float64(hwm)/(1<<20))
	out, text := resultOutput(t, res)
	if res.IsError || out.ExitCode != 0 {
		t.Fatalf("flood failed: %.500s", text)
	}
	checkCapped(t, out.Stdout, "stdout", total, exec.DefaultMaxOutput)
	if hwm >= 100<<20 {
		t.Errorf("server peak memory %d bytes for %d bytes of output, want < 100 MiB", hwm, total)
	}

	// The same on stderr, and with a small Config.MaxOutput (shortcli).
	short := startServer(t, serverOptions{bin: shortcliBin})
	for _, stream := range []string{"stdout", "stderr"} {
		res := short.call(t, context.Background(), "mycli_flood", fmt.Sprintf(`{"flags":{"bytes":1000000,"stderr":%v}}`, stream == "stderr"))
		out, _ := resultOutput(t, res)
		got := out.Stdout
		if stream == "stderr" {
			got = out.Stderr
		}
		checkCapped(t, got, stream, 1000000, shortMaxOutput)
	}
}

// checkCapped checks that got is the flood output of total bytes capped at
// limit: head, marker with the exact count, tail.
func checkCapped(t *testing.T, got, stream string, total, limit int) {
	t.Helper()
	flood := func(from, n int) string { // bytes [from, from+n) of the flood output
		var b strings.Builder
		for i := from; i < from+n; i++ {
			b.WriteByte(mycli.FloodLine[i%len(mycli.FloodLine)])
		}
		return b.String()
	}
	head, tail := limit/2, limit-limit/2
	omitted := total - limit
	marker := fmt.Sprintf("\n[... cobramcp: %d bytes of %s left out ...]\n", omitted, stream)
	want := flood(0, head) + marker + flood(total-tail, tail)
	if got != want {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Errorf("%s: %d bytes, want %d (head %d + marker %q + tail %d); first difference at byte %d: %.80q",
			stream, len(got), len(want), head, marker, tail, i, got[min(i, len(got)):])
	}
}

// TestStdinClosedExitsZero checks the plain shutdown: with no call
// running, closing stdin makes the server exit 0 promptly.
func TestStdinClosedExitsZero(t *testing.T) {
	t.Parallel()
	s := startServer(t, serverOptions{})
	start := time.Now()
	if code := s.close(); code != 0 {
		t.Errorf("server exit code %d, want 0", code)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the server took %s to exit after stdin closed", took)
	}
	if !strings.Contains(s.stderr.String(), "MCP server stopped") {
		t.Errorf("no shutdown log on stderr:\n%s", s.stderr)
	}
}

// jsonRPC is any JSON-RPC 2.0 message.
type jsonRPC struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}
