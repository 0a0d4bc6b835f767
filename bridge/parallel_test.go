package bridge_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cobramcp/cobramcp/bridge"
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
	ts := mustTools(t, testTree(), &bridge.Config{Executable: script, MaxParallel: limit})
	var wg sync.WaitGroup
	for range calls {
		wg.Go(func() {
			res, err := ts.Call(context.Background(), "tt_version", json.RawMessage(`{}`))
			if err != nil || res.IsError {
				t.Errorf("call: %v %s", err, resultText(res))
			}
		})
	}
	wg.Wait()
	ts.Wait()
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
