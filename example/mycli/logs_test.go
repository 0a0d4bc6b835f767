package mycli_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/cobramcp/cobramcp/example/mycli"
)

// logLines returns lines first..first+n-1 of pod's log as LogLine renders them.
func logLines(pod string, first, n int64) string {
	var b []byte
	for i := first; i < first+n; i++ {
		b = mycli.LogLine(b, pod, i)
	}
	return string(b)
}

func TestLogs(t *testing.T) {
	const pod = "web-7f9c4d-abc12"
	runCases(t, []cliCase{
		{name: "default is the last 20 lines", args: []string{"logs", pod},
			check: func(t *testing.T, r result, _ string) {
				if want := logLines(pod, 86381, 20); r.stdout != want {
					t.Errorf("got\n%s\nwant\n%s", r.stdout, want)
				}
			}},
		{name: "lines", args: []string{"logs", pod, "--lines", "3"},
			out: []string{"[web-7f9c4d-abc12] line 0000086398 level=info"},
			check: func(t *testing.T, r result, _ string) {
				if want := logLines(pod, 86398, 3); r.stdout != want {
					t.Errorf("got %q, want %q", r.stdout, want)
				}
			}},
		{name: "zero lines", args: []string{"logs", pod, "--lines", "0"},
			check: func(t *testing.T, r result, _ string) {
				if r.stdout != "" {
					t.Errorf("got %q, want nothing", r.stdout)
				}
			}},
		{name: "bytes is exact and starts at line 1", args: []string{"logs", pod, "--bytes", "1000"},
			check: func(t *testing.T, r result, _ string) {
				want := logLines(pod, 1, 20)[:1000]
				if r.stdout != want {
					t.Errorf("got %d bytes %q..., want %d bytes %q...", len(r.stdout), r.stdout[:min(80, len(r.stdout))], len(want), want[:80])
				}
			}},
		{name: "since", args: []string{"logs", pod, "--since", "10s", "--lines", "1"},
			check: func(t *testing.T, r result, _ string) {
				if want := logLines(pod, 86391, 1); r.stdout != want {
					t.Errorf("got %q, want %q", r.stdout, want)
				}
			}},
		{name: "since-time", args: []string{"logs", pod, "--since-time", "2024-01-01T00:00:10Z", "--lines", "1"},
			out: []string{"line 0000000011 "}},
		{name: "since-time bad", args: []string{"logs", pod, "--since-time", "yesterday"}, wantErr: "invalid argument"},
		{name: "since bad", args: []string{"logs", pod, "--since", "-1h"}, wantErr: "invalid --since"},
		{name: "since exclusive", args: []string{"logs", pod, "--since", "1h", "--since-time", "2024-01-01T00:00:10Z"},
			wantErr: "[since since-time] were all set"},
		{name: "timestamps", args: []string{"logs", pod, "--timestamps", "--lines", "1"},
			out: []string{"[web-7f9c4d-abc12] 2024-01-02T00:00:00Z line 0000086400 "}},
		{name: "no prefix", args: []string{"logs", pod, "--prefix=false", "--lines", "1"},
			check: func(t *testing.T, r result, _ string) {
				if !strings.HasPrefix(r.stdout, "line 0000086400 ") {
					t.Errorf("got %q, want no prefix", r.stdout)
				}
			}},
		{name: "previous", args: []string{"logs", pod, "-p", "--lines", "1"}, out: []string{`msg="previous container terminated"`}},
		{name: "follow and previous exclusive", args: []string{"logs", pod, "-f", "-p"}, wantErr: "[follow previous] were all set"},
		{name: "negative bytes", args: []string{"logs", pod, "--bytes", "-1"}, wantErr: "invalid --bytes"},
		{name: "negative lines", args: []string{"logs", pod, "--lines", "-1"}, wantErr: "invalid --lines"},
		{name: "missing pod", args: []string{"logs", "nope"}, wantErr: "not found"},
		{name: "pod in other namespace", args: []string{"logs", "kube-proxy-h2x9z", "-n", "kube-system", "--lines", "1"}, out: []string{"[kube-proxy-h2x9z]"}},
		{name: "no pod", args: []string{"logs"}, wantErr: "accepts 1 arg(s), received 0"},
	})
}

// cancelAfter is a writer that cancels a context once it has seen n lines.
type cancelAfter struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	n      int
	cancel context.CancelFunc
}

func (w *cancelAfter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if bytes.Count(w.buf.Bytes(), []byte("\n")) >= w.n {
		w.cancel()
	}
	return len(p), nil
}

func TestLogsFollowStopsWhenCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	w := &cancelAfter{n: 5, cancel: cancel}
	r := execute(ctx, nil, w, "--state", newState(t), "logs", "db-0", "--lines", "2", "--follow")
	if r.err != nil {
		t.Fatalf("logs --follow: %v", r.err)
	}
	w.mu.Lock()
	got := w.buf.String()
	w.mu.Unlock()
	if want := logLines("db-0", 86399, 5); got != want {
		t.Errorf("got\n%s\nwant the 2 last lines then 3 followed ones:\n%s", got, want)
	}
}

// TestLogs100MB checks that a 100 MB log is exactly what LogLine describes, at every line.
func TestLogs100MB(t *testing.T) {
	t.Parallel()
	const size = 100 << 20
	v := &logVerifier{pod: "db-0", next: 1}
	r := execute(t.Context(), nil, v, "--state", newState(t), "logs", "db-0", "--bytes", fmt.Sprint(size))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if v.err != nil {
		t.Fatal(v.err)
	}
	if v.total != size {
		t.Errorf("wrote %d bytes, want %d", v.total, size)
	}
	if want := string(mycli.LogLine(nil, "db-0", v.next))[:len(v.pending)]; string(v.pending) != want {
		t.Errorf("last, cut line %q, want %q", v.pending, want)
	}
}

// logVerifier checks a stream of log lines against LogLine as it is written.
type logVerifier struct {
	pod     string
	next    int64
	pending []byte
	total   int64
	err     error
}

func (v *logVerifier) Write(p []byte) (int, error) {
	v.total += int64(len(p))
	v.pending = append(v.pending, p...)
	var want []byte
	for v.err == nil {
		i := bytes.IndexByte(v.pending, '\n')
		if i < 0 {
			break
		}
		want = mycli.LogLine(want[:0], v.pod, v.next)
		if !bytes.Equal(v.pending[:i+1], want) {
			v.err = fmt.Errorf("line %d is %q, want %q", v.next, v.pending[:i+1], want)
		}
		v.pending = v.pending[i+1:]
		v.next++
	}
	v.pending = append([]byte(nil), v.pending...)
	return len(p), nil
}

func BenchmarkLogs100MB(b *testing.B) {
	state := b.TempDir() + "/state.json"
	b.SetBytes(100 << 20)
	for b.Loop() {
		r := execute(b.Context(), nil, io.Discard, "--state", state, "logs", "db-0", "--bytes", fmt.Sprint(100<<20))
		if r.err != nil {
			b.Fatal(r.err)
		}
	}
}
