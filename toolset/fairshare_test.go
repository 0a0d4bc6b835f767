package toolset_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/audit"
	"github.com/cobramcp/cobramcp/toolset"
)

// countLog counts log messages.
type countLog struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *countLog) Enabled(context.Context, slog.Level) bool { return true }
func (c *countLog) Handle(_ context.Context, r slog.Record) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[r.Message]++
	return nil
}
func (c *countLog) WithAttrs([]slog.Attr) slog.Handler { return c }
func (c *countLog) WithGroup(string) slog.Handler      { return c }
func (c *countLog) count(msg string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[msg]
}

func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never reached: %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// holdingCLI writes a CLI script for testTree whose echo touches
// dir/started and holds its call slot until the file dir/go exists; every
// command prints ok.
func holdingCLI(t *testing.T) (script, dir string) {
	t.Helper()
	dir = t.TempDir()
	script = filepath.Join(dir, "cli")
	body := "#!/bin/sh\nif [ \"$1\" = echo ]; then touch " + dir + "/started; while [ ! -e " + dir + "/go ]; do sleep 0.01; done; fi\necho ok\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, dir
}

// callNoArgs calls the tool name with no arguments, reporting a protocol
// error on t (from any goroutine) and returning the result.
func callNoArgs(t *testing.T, cs *mcp.ClientSession, name string) *mcp.CallToolResult {
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
	if err != nil {
		t.Error(err)
	}
	return res
}

// fillSlotAndQueue, on a server of holdingCLI's script whose calls run
// one at a time, calls tt_echo, which holds the slot until the file dir/go
// exists, then, once it runs, tt_version, which waits for the slot.
// It returns their results to come once queued says the second waits.
func fillSlotAndQueue(t *testing.T, cs *mcp.ClientSession, dir string, queued func() bool) (first, second <-chan *mcp.CallToolResult) {
	t.Helper()
	running, waiting := make(chan *mcp.CallToolResult, 1), make(chan *mcp.CallToolResult, 1)
	go func() { running <- callNoArgs(t, cs, "tt_echo") }()
	until(t, "the first call running", func() bool { _, err := os.Stat(filepath.Join(dir, "started")); return err == nil })
	go func() { waiting <- callNoArgs(t, cs, "tt_version") }()
	until(t, "the second call queued", queued)
	return running, waiting
}

// A server's queue cap refuses at once; a call that waited says how long;
// the audit log has a line per call with the pinned value hidden.
func TestServerQueueCapWaitAndAudit(t *testing.T) {
	script, dir := holdingCLI(t)
	logs := &countLog{}
	ts := mustTools(t, testTree(), &toolset.Config{Executable: script, MaxParallel: 1, Logger: slog.New(logs)})
	v, err := ts.View(toolset.Listing{}, toolset.Policy{Pins: []toolset.Pin{{Flag: "debug", Value: "true", From: "--set"}}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	alog := audit.New(&buf, nil)
	cs := connect(t, v.NewServer(toolset.ServerOptions{Limits: toolset.Limits{MaxQueue: 1}, Audit: alog}))
	first, second := fillSlotAndQueue(t, cs, dir, func() bool { return logs.count("waiting for a free call slot") == 1 })

	third := callNoArgs(t, cs, "tt_version")
	if !third.IsError || !strings.Contains(resultText(third), "tt_version: too many calls waiting: 1 calls are already queued for a free slot (the cap; 1 calls run at once). Nothing was run") {
		t.Fatalf("over the cap: %s", resultText(third))
	}
	// Hold the slot past toolset.WaitNoted, so that the second call's
	// result mentions its wait.
	time.Sleep(toolset.WaitNoted + 100*time.Millisecond)
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := <-first; r.IsError || strings.Contains(resultText(r), "waited") {
		t.Fatalf("first: %s", resultText(r))
	}
	r := <-second
	if r.IsError || !strings.Contains(resultText(r), "cobramcp: the call waited ") || !strings.Contains(resultText(r), " for a free call slot (1 calls run at once)") {
		t.Fatalf("second: %s", resultText(r))
	}
	v.Wait()
	cs.Close()
	alog.Close()

	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		lines = append(lines, m)
	}
	if len(lines) != 3 {
		t.Fatalf("%d audit lines:\n%s", len(lines), buf.String())
	}
	by := map[string][]map[string]any{}
	for _, l := range lines {
		by[l["tool"].(string)] = append(by[l["tool"].(string)], l)
		if a, _ := json.Marshal(l["argv"]); !strings.Contains(string(a), "--debug=***") {
			t.Errorf("argv %s, want the pin hidden", a)
		}
	}
	if e := by["tt_echo"]; len(e) != 1 || e[0]["exitCode"] != 0.0 || e[0]["client"] != "t" || e[0]["waitedMs"] != nil {
		t.Errorf("first: %v", e)
	}
	var waited, refused int
	for _, l := range by["tt_version"] {
		if l["refused"] != nil {
			refused++
			if !strings.Contains(l["refused"].(string), "too many calls waiting") || l["exitCode"] != nil {
				t.Errorf("refusal: %v", l)
			}
		} else if l["waitedMs"].(float64) > 0 && l["exitCode"] == 0.0 {
			waited++
		}
	}
	if waited != 1 || refused != 1 {
		t.Errorf("tt_version lines %v", by["tt_version"])
	}
}

// Call (no server) and every server of one Limits share one scheduler's
// slots: with one slot, a server's call waits while Call runs.
func TestCallWithoutServerUsesTheSlots(t *testing.T) {
	script, dir := holdingCLI(t)
	logs := &countLog{}
	ts := mustTools(t, testTree(), &toolset.Config{Executable: script, MaxParallel: 1, Logger: slog.New(logs)})
	v := fullView(ts)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if res, err := v.Call(context.Background(), "tt_echo", json.RawMessage(`{}`)); err != nil || res.IsError {
			t.Errorf("%v %s", err, resultText(res))
		}
	}()
	until(t, "Call running", func() bool { _, err := os.Stat(filepath.Join(dir, "started")); return err == nil })
	cs := connect(t, v.NewServer(toolset.ServerOptions{}))
	res := make(chan *mcp.CallToolResult, 1)
	go func() {
		r, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "tt_version", Arguments: map[string]any{}})
		res <- r
	}()
	until(t, "the server's call waiting", func() bool { return logs.count("waiting for a free call slot") == 1 })
	time.Sleep(toolset.WaitNoted + 100*time.Millisecond) // a wait long enough to be mentioned
	os.WriteFile(filepath.Join(dir, "go"), nil, 0o600)
	<-done
	if r := <-res; r == nil || r.IsError || !strings.Contains(resultText(r), "waited") {
		t.Fatalf("%v", r)
	}
}
