package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func readLines(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

func TestLineFields(t *testing.T) {
	var buf bytes.Buffer
	l := New(&buf, nil)
	at := time.Date(2026, 11, 28, 13, 0, 0, 0, time.FixedZone("x", 3600))
	exit := 3
	l.Record(Record{Time: at, Subject: "alice", Client: "claude-code", Session: "S1", Tool: "mycli_echo",
		Argv: []string{"echo", "--kubeconfig=***", "hi"}, ExitCode: &exit, Duration: 1500 * time.Microsecond,
		Waited: 250 * time.Microsecond, OutputBytes: 42})
	l.Record(Record{Time: at, Subject: "dave", Tool: "mycli_delete_pod", Refused: "not in this caller's view"})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	lines := readLines(t, buf.Bytes())
	if len(lines) != 2 {
		t.Fatalf("%d lines: %s", len(lines), buf.String())
	}
	want := []map[string]any{
		{"time": "2026-11-28T12:00:00Z", "subject": "alice", "client": "claude-code", "session": "S1", "tool": "mycli_echo",
			"argv": []any{"echo", "--kubeconfig=***", "hi"}, "exitCode": 3.0, "durationMs": 1.5, "waitedMs": 0.25, "outputBytes": 42.0},
		{"time": "2026-11-28T12:00:00Z", "subject": "dave", "client": "", "session": "", "tool": "mycli_delete_pod",
			"argv": nil, "refused": "not in this caller's view", "durationMs": 0.0, "outputBytes": 0.0},
	}
	for i := range want {
		g, _ := json.Marshal(lines[i])
		w, _ := json.Marshal(want[i])
		if string(g) != string(w) {
			t.Errorf("line %d:\n got %s\nwant %s", i, g, w)
		}
	}
}

func TestOpenMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "audit.log")
	l, err := Open(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	l.Record(Record{Tool: "a"})
	l.Close()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", fi.Mode().Perm())
	}
	// Appends, and tightens a file others may read.
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	l, err = Open(p, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	l.Record(Record{Tool: "b"})
	l.Close()
	b, _ := os.ReadFile(p)
	lines := readLines(t, b)
	if len(lines) != 2 || lines[0]["tool"] != "a" || lines[1]["tool"] != "b" {
		t.Fatalf("file %s", b)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v after reopening, want 0600", fi.Mode().Perm())
	}
	if !strings.Contains(logs.String(), "now 0600") {
		t.Fatalf("the tightening was not logged: %s", logs.String())
	}
}

func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"", dir, filepath.Join(dir, "missing", "audit.log")} {
		if l, err := Open(p, nil); err == nil {
			l.Close()
			t.Errorf("Open(%q) succeeded", p)
		}
	}
}

// gate is a writer whose writes wait for a release, or fail while failing
// is set.
type gate struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	entered chan struct{}
	release chan struct{}
	fail    int // writes left to fail
}

func (g *gate) Write(p []byte) (int, error) {
	if g.entered != nil {
		g.entered <- struct{}{}
		<-g.release
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fail > 0 {
		g.fail--
		return 0, errors.New("disk full")
	}
	return g.buf.Write(p)
}

func TestFullBufferIsMarked(t *testing.T) {
	g := &gate{entered: make(chan struct{}), release: make(chan struct{})}
	l := New(g, nil)
	l.Record(Record{Tool: "first"})
	<-g.entered // the writer holds "first" and waits
	for range bufferSize {
		l.Record(Record{Tool: "queued"})
	}
	done := make(chan struct{})
	go func() { // Record must not block even now
		l.Record(Record{Tool: "lost"})
		l.Record(Record{Tool: "lost"})
		close(done)
	}()
	<-done
	go func() {
		for range g.entered {
			g.release <- struct{}{}
		}
	}()
	g.release <- struct{}{}
	l.Close()
	close(g.entered)
	lines := readLines(t, g.buf.Bytes())
	if len(lines) != 1+bufferSize+1 {
		t.Fatalf("%d lines, want %d", len(lines), bufferSize+2)
	}
	var marks []map[string]any
	for _, m := range lines {
		if m["tool"] == "lost" {
			t.Fatal("a dropped record was written")
		}
		if _, ok := m["dropped"]; ok {
			marks = append(marks, m)
		}
	}
	if len(marks) != 1 || marks[0]["dropped"] != 2.0 {
		t.Fatalf("marks %v, want one saying 2", marks)
	}
}

func TestWriteFailureIsLoggedAndMarked(t *testing.T) {
	g := &gate{fail: 2}
	var logs bytes.Buffer
	var mu sync.Mutex
	l := New(g, slog.New(slog.NewTextHandler(&lockedWriter{w: &logs, mu: &mu}, nil)))
	for _, tool := range []string{"a", "b", "c"} {
		l.Record(Record{Tool: tool})
	}
	l.Close()
	lines := readLines(t, g.buf.Bytes())
	if len(lines) != 2 || lines[0]["dropped"] != 2.0 || lines[1]["tool"] != "c" {
		t.Fatalf("lines %v, want a mark of 2 then c", lines)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logs.String(), "disk full") || strings.Count(logs.String(), "cannot write the audit log") != 1 {
		t.Fatalf("logs: %s", logs.String())
	}
}

func TestMarkAtClose(t *testing.T) {
	g := &gate{fail: 1}
	l := New(g, nil)
	l.Record(Record{Tool: "a"})
	l.Close()
	lines := readLines(t, g.buf.Bytes())
	if len(lines) != 1 || lines[0]["dropped"] != 1.0 {
		t.Fatalf("lines %v, want the closing mark", lines)
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func TestNilAndClosed(t *testing.T) {
	var l *Log
	l.Record(Record{Tool: "x"})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	l = New(&buf, nil)
	l.Close()
	l.Record(Record{Tool: "after"}) // no panic
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestConcurrentRecords(t *testing.T) {
	var buf bytes.Buffer
	l := New(&buf, nil)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				l.Record(Record{Tool: "t"})
			}
		}()
	}
	wg.Wait()
	l.Close()
	n := 0
	for _, m := range readLines(t, buf.Bytes()) {
		if d, ok := m["dropped"]; ok {
			n += int(d.(float64))
		} else {
			n++
		}
	}
	if n != 800 {
		t.Fatalf("%d records accounted for, want 800", n)
	}
}
