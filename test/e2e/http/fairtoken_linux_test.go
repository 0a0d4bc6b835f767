package httpe2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestStaticTokenShares (issue 34.10): with a static token each session is
// a caller, and while one holder's two sessions flood the server with long
// calls (their shares and more), a third session's call finds a free slot
// at once: the last free slot is kept for a caller that holds none. The
// issue's scenario, through `mycli mcp stream --token-file`: the third
// session's call waited 21 s.
func TestStaticTokenShares(t *testing.T) {
	t.Parallel()
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte(testToken), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startServer(t, nil, "--token-file", tokenFile, "--max-parallel", "4", "--shutdown-grace", "1s", "--mcp-log-level", "debug")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logged := func(what string) int { return strings.Count(s.stderr.String(), what) }
	first, second := mustConnect(t, s, testToken), mustConnect(t, s, testToken)
	for range 6 {
		go first.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_sleep", Arguments: map[string]any{"flags": map[string]any{"for": "30s"}}})
	}
	waitFor(t, "the first session's share running (2 of 4 slots), 4 calls waiting", func() bool {
		return logged("msg=running") == 2 && logged("waiting for a free call slot") == 4
	})
	for range 6 {
		go second.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_sleep", Arguments: map[string]any{"flags": map[string]any{"for": "30s"}}})
	}
	waitFor(t, "the second session's 6 calls running or waiting", func() bool {
		return logged("msg=running")+logged("waiting for a free call slot") == 12
	})
	// The second session takes one slot, not its share of two: the last
	// free slot is kept for a caller that holds none.
	if n := logged("msg=running"); n != 3 {
		t.Fatalf("%d calls running, want 3 (the first session's 2, the second's 1)", n)
	}
	third := mustConnect(t, s, testToken)
	res, err := third.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_version", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("the third session's call: %v %v", err, res)
	}
	if strings.Contains(text(res), "waited") || strings.Contains(s.stderr.String(), "caller=session:"+third.ID()) {
		t.Errorf("the third session's call waited for a slot: %s\n%s", text(res), s.stderr)
	}
	if n := logged("msg=running"); n != 4 {
		t.Errorf("%d calls ran, want 4 (the sessions' 2 and 1, the third's 1)", n)
	}
	if !strings.Contains(s.stderr.String(), "caller=session:"+first.ID()) || !strings.Contains(s.stderr.String(), "caller=session:"+second.ID()) {
		t.Errorf("the waits are not the two sessions' own (each session a caller):\n%s", s.stderr)
	}
}
