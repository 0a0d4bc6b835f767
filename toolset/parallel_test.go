package toolset_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/toolset"
)

// TestMaxParallel runs more calls than MaxParallel allows through a real
// process that logs its start and end, and checks that no more than
// MaxParallel ever overlapped.
func TestMaxParallel(t *testing.T) {
	dir := t.TempDir()
	logFile := filepath.Join(dir, "log")
	script := filepath.Join(dir, "cli")
	body := "#!/bin/sh\necho start >> " + logFile + "\nsleep 0.5\necho end >> " + logFile + "\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	const limit, calls = 2, 5
	ts := mustTools(t, testTree(), &toolset.Config{Executable: script, MaxParallel: limit})
	var wg sync.WaitGroup
	for range calls {
		wg.Go(func() {
			res, err := fullView(ts).Call(context.Background(), "tt_version", json.RawMessage(`{}`))
			if err != nil || res.IsError {
				t.Errorf("call: %v %s", err, resultText(res))
			}
		})
	}
	wg.Wait()
	fullView(ts).Wait()
	b, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	running, most := 0, 0
	for _, l := range strings.Fields(string(b)) {
		if l == "start" {
			running++
		} else {
			running--
		}
		most = max(most, running)
	}
	if most != limit || strings.Count(string(b), "end") != calls {
		t.Errorf("at most %d calls overlapped (want %d) in:\n%s", most, limit, b)
	}
}

// TestEnvAndTimeoutAnnotation runs a real process: Config.Env is its whole
// environment, and a command's mcp.timeout annotation overrides
// Config.Timeout.
func TestEnvAndTimeoutAnnotation(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "cli")
	body := "#!/bin/sh\nif [ \"$1\" = version ]; then echo \"FOO=$FOO HOME=$HOME\"; exit 0; fi\nexec sleep 30\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	root := testTree()
	slow, _, _ := root.Find([]string{"echo"})
	slow.Annotations = map[string]string{bridge.AnnotationTimeout: "300ms"}
	ts := mustTools(t, root, &toolset.Config{Executable: script, Env: []string{"FOO=bar", "PATH=/usr/bin:/bin"}, Timeout: time.Hour})

	res, err := fullView(ts).Call(context.Background(), "tt_version", json.RawMessage(`{}`))
	if err != nil || res.IsError || res.StructuredContent.(toolset.Output).Stdout != "FOO=bar HOME=\n" {
		t.Errorf("env: %v %q", err, resultText(res))
	}
	start := time.Now()
	res, err = fullView(ts).Call(context.Background(), "tt_echo", json.RawMessage(`{}`))
	if err != nil || !res.IsError || !strings.Contains(resultText(res), "timed out after 300ms") {
		t.Errorf("timeout: %v %q", err, resultText(res))
	}
	if out := res.StructuredContent.(toolset.Output); out.ExitCode != -1 || !out.TimedOut {
		t.Errorf("structured result %+v, want exit code -1 and timedOut", out)
	}
	// The text's last line says why the call failed: a timeout, not an exit.
	if text := resultText(res); !strings.HasSuffix(text, "\ntimed out after 300ms (exit code -1)") {
		t.Errorf("text %q does not end saying the call timed out", text)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the call took %s despite its 300ms timeout", d)
	}
	// An invalid annotation leaves the command out, with the reason.
	slow.Annotations[bridge.AnnotationTimeout] = "soon"
	ts = mustTools(t, root, nil)
	if _, ok := ts.Lookup("tt_echo"); ok || !strings.Contains(fmt.Sprint(ts.Problems()), `mcp.timeout="soon"`) {
		t.Errorf("bad timeout annotation: problems %v", ts.Problems())
	}
}
