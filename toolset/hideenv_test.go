package toolset_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/toolset"
)

// TestHideEnv checks that a server's HideEnv removes the named variables
// from the environment of its calls, in full and in search mode, and only
// from that server's calls: the toolset's own Call and a server without
// HideEnv keep Config.Env as it is.
func TestHideEnv(t *testing.T) {
	env := []string{"KEEP=1", "SECRET=s3cret", "OTHER=2"}
	var mu sync.Mutex
	var seen [][]string
	capture := func(toolset.RunFunc) toolset.RunFunc {
		return func(_ context.Context, c *toolset.Call) (*toolset.Result, error) {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, slices.Clone(c.Options.Env))
			return &toolset.Result{}, nil
		}
	}
	last := func(t *testing.T) []string {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		if len(seen) == 0 {
			t.Fatal("no call reached the middleware")
		}
		e := seen[len(seen)-1]
		seen = nil
		return e
	}
	ts := mustTools(t, testTree(), &toolset.Config{Env: env, Middleware: []toolset.Middleware{capture}})
	search, err := ts.View(toolset.Listing{Mode: toolset.ToolModeSearch})
	if err != nil {
		t.Fatal(err)
	}
	version := &mcp.CallToolParams{Name: "tt_version", Arguments: map[string]any{}}
	run := &mcp.CallToolParams{Name: "tt_run_command", Arguments: map[string]any{"command": "tt_version"}}
	hidden := []string{"KEEP=1", "OTHER=2"}
	cases := []struct {
		name string
		ts   *toolset.Served
		hide []string
		call *mcp.CallToolParams
		want []string
	}{
		{"full mode", fullView(ts), []string{"SECRET"}, version, hidden},
		{"search mode run tool", search, []string{"SECRET"}, run, hidden},
		{"full mode, by prefix", fullView(ts), []string{"SEC*"}, version, hidden},
		{"search mode run tool, by prefix", search, []string{"NONE", "SECRET*"}, run, hidden},
		{"full mode, a prefix of none", fullView(ts), []string{"SECRETS*", "ECRET*"}, version, env},
		{"full mode, nothing hidden", fullView(ts), nil, version, env},
		{"search mode, nothing hidden", search, nil, run, env},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			srv := tt.ts.NewServer(toolset.ServerOptions{HideEnv: tt.hide})
			cs := connect(t, srv)
			res, err := cs.CallTool(context.Background(), tt.call)
			if err != nil || res.IsError {
				t.Fatalf("call: %v %q", err, resultText(res))
			}
			if got := last(t); !slices.Equal(got, tt.want) {
				t.Errorf("the call's environment = %q, want %q", got, tt.want)
			}
			// The toolset itself is not changed by a server hiding variables.
			if _, err := tt.ts.Call(context.Background(), tt.call.Name, json.RawMessage(mustJSON(t, tt.call.Arguments))); err != nil {
				t.Fatal(err)
			}
			if got := last(t); !slices.Equal(got, env) {
				t.Errorf("after a server hid %v, Served.Call's environment = %q, want %q", tt.hide, got, env)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
