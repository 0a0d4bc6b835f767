package httpe2e

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestGoClient(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			s := startServer(t, []string{"MYCLI_MCP_TOKEN=" + testToken}, m.args...)
			cs := mustConnect(t, s, testToken)
			ctx := context.Background()

			t.Run("list", func(t *testing.T) {
				res, err := cs.ListTools(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				got, err := json.Marshal(res.Tools)
				if err != nil {
					t.Fatal(err)
				}
				// The same tools as stdio: what `mcp tools` exports is
				// exactly what tools/list returns.
				want := runMycli(t, "mcp", "tools", "-o", "-")
				if !jsonEqual(t, got, want) {
					t.Errorf("tools/list over HTTP differs from `mycli mcp tools`:\n%s\nwant:\n%s", got, want)
				}
			})

			t.Run("same result as mcp call", func(t *testing.T) {
				args := map[string]any{"args": []any{"x", "--y"}, "flags": map[string]any{"str": "s", "bool-true": false}}
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_echo", Arguments: args})
				if err != nil {
					t.Fatal(err)
				}
				// The result proper; protocol 2026-07-28 adds _meta and
				// resultType around it.
				got, _ := json.Marshal(struct {
					Content           []mcp.Content `json:"content"`
					StructuredContent any           `json:"structuredContent,omitempty"`
					IsError           bool          `json:"isError,omitempty"`
				}{res.Content, res.StructuredContent, res.IsError})
				in, _ := json.Marshal(args)
				want := runMycli(t, "mcp", "call", "mycli_echo", string(in))
				if !jsonEqual(t, got, want) {
					t.Errorf("the call over HTTP differs from `mycli mcp call`:\n%s\nwant:\n%s", got, want)
				}
			})

			t.Run("call", func(t *testing.T) {
				out, err := callEcho(ctx, cs, "a b", "--not-a-flag")
				if err != nil {
					t.Fatal(err)
				}
				if strings.Join(out.Args, "|") != "a b|--not-a-flag" || out.Flags["int"] != float64(7) {
					t.Errorf("echo got args %q flags %v, want [a b --not-a-flag] int=7", out.Args, out.Flags)
				}
			})

			t.Run("bad input", func(t *testing.T) {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_echo", Arguments: map[string]any{"flags": map[string]any{"int": "x"}}})
				if err != nil {
					t.Fatal(err)
				}
				if !res.IsError || !strings.Contains(text(res), "flags.int") {
					t.Errorf("bad input: isError %v, %q; want an error naming flags.int", res.IsError, text(res))
				}
				_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_nope", Arguments: map[string]any{}})
				if err == nil || !strings.Contains(err.Error(), "mycli_nope") {
					t.Errorf("unknown tool: %v, want an error naming it", err)
				}
			})

			t.Run("cancel", func(t *testing.T) {
				testCancel(t, s, cs)
			})
		})
	}
}

// testCancel starts a call that would sleep a minute (with a grandchild
// in its process group), cancels it, and checks that the client returns at
// once and that the process group is gone.
func testCancel(t *testing.T, s *server, cs *mcp.ClientSession) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_sleep", Arguments: map[string]any{
			"flags": map[string]any{"for": "60s", "spawn": true},
		}})
		done <- err
	}()
	groups := waitForChildren(t, s, 1)
	// Let the grandchild start too.
	waitFor(t, "the grandchild", func() bool { return len(inGroups(groups)) >= 2 })
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled call returned %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled call did not return within 10s")
	}
	waitFor(t, "the call's process group to end", func() bool { return len(inGroups(groups)) == 0 })
}

// waitForChildren waits until the server has at least n children that
// lead process groups of their own, as a call's process does, and returns
// those groups.
//
// A child is counted only once it leads its group: between fork and the
// setpgid that exec.Run asks for, a child is still in the server's group,
// which is this test's own, and recording that group would make the test
// wait for its own processes to end.
func waitForChildren(t *testing.T, s *server, n int) map[int]bool {
	t.Helper()
	groups := map[int]bool{}
	waitFor(t, "the call's process", func() bool {
		for _, k := range children(s.cmd.Process.Pid) {
			if k.pgid == k.pid {
				groups[k.pgid] = true
			}
		}
		return len(groups) >= n
	})
	if own := syscall.Getpgrp(); groups[own] {
		t.Fatalf("recorded the test's own process group %d as a call's", own)
	}
	return groups
}

// runMycli runs mycli with args (state in a temporary directory) and
// returns its stdout; it fails the test unless mycli exits 0.
func runMycli(t *testing.T, args ...string) []byte {
	t.Helper()
	c := exec.Command(mycli, args...)
	c.Env = []string{"PATH=" + os.Getenv("PATH"), "MYCLI_STATE=" + filepath.Join(t.TempDir(), "state.json")}
	out, err := c.Output()
	if err != nil {
		t.Fatalf("mycli %q: %v", args, err)
	}
	return out
}

// jsonEqual reports whether a and b hold the same JSON value.
func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return reflect.DeepEqual(x, y)
}
