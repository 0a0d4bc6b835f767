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

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/test/mcptest"
	"github.com/cobramcp/cobramcp/toolset"
)

// TestProgressEndsBeforeResult runs calls with progress tokens at once,
// some canceled, and checks that no progress notification for a call
// arrives after its result (run it with -race).
func TestProgressEndsBeforeResult(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "cli")
	body := "#!/bin/sh\ni=0\nwhile [ $i -lt 40 ]; do echo line $i; i=$((i+1)); sleep 0.01; done\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	ts := mustTools(t, testTree(), &toolset.Config{Executable: script, MaxParallel: 4})
	srv := fullView(ts).NewServer(toolset.ServerOptions{})
	var mu sync.Mutex
	done := map[any]bool{}
	late, got := 0, 0
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			got++
			if done[r.Params.ProgressToken] {
				late++
			}
		},
	})
	cs := mcptest.ConnectClient(t, srv, client, nil)
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			cctx := ctx
			if i%3 == 0 {
				var cancel context.CancelFunc
				cctx, cancel = context.WithTimeout(ctx, 100*time.Millisecond)
				defer cancel()
			}
			p := &mcp.CallToolParams{Name: "tt_version", Arguments: map[string]any{}}
			token := fmt.Sprintf("tok%d", i)
			p.SetProgressToken(token)
			_, _ = cs.CallTool(cctx, p)
			if i%3 != 0 { // a canceled call's client returns before the server knows
				mu.Lock()
				done[token] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	fullView(ts).Wait()
	time.Sleep(300 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if late > 0 {
		t.Errorf("%d progress notifications arrived after their call's result", late)
	}
	if got == 0 {
		t.Error("no progress notification arrived")
	}
	if len(done) != 8 {
		t.Errorf("%d calls completed, want 8", len(done))
	}
}

// TestPanicIsAnErrorResult: a panic in a call (here a middleware's) is the
// call's error result; the server keeps serving.
func TestPanicIsAnErrorResult(t *testing.T) {
	cfg := &toolset.Config{Middleware: []toolset.Middleware{func(next toolset.RunFunc) toolset.RunFunc {
		return func(ctx context.Context, c *toolset.Call) (*execResult, error) {
			if len(c.Args) > 0 {
				panic("boom")
			}
			return &execResult{Stdout: "fine"}, nil
		}
	}}}
	ts := mustTools(t, testTree(), cfg)
	// Served.Call (mcp call, mcp tool) recovers too.
	if res, err := fullView(ts).Call(context.Background(), "tt_echo", json.RawMessage(`{"args":["x"]}`)); err != nil || !res.IsError || !strings.Contains(resultText(res), "panicked: boom") {
		t.Fatalf("Served.Call of a panicking call: %v %+v", err, res)
	}
	srv := fullView(ts).NewServer(toolset.ServerOptions{})
	ctx := context.Background()
	cs := connect(t, srv)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "tt_echo", Arguments: map[string]any{"args": []string{"x"}}})
	if err != nil || !res.IsError || !strings.Contains(resultText(res), "panicked: boom") {
		t.Fatalf("panicking call: %v %+v", err, res)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "tt_echo", Arguments: map[string]any{}})
	if err != nil || res.IsError || resultText(res) != "fine" {
		t.Fatalf("next call: %v %+v", err, res)
	}
}
