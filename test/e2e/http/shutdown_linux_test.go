package httpe2e

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// callSleep starts mycli_sleep with flags in the background and returns
// the channel of its outcome.
func callSleep(cs *mcp.ClientSession, flags map[string]any) <-chan sleepOutcome {
	ch := make(chan sleepOutcome, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "mycli_sleep", Arguments: map[string]any{"flags": flags}})
		o := sleepOutcome{err: err}
		if res != nil {
			o.isError = res.IsError
			b, _ := json.Marshal(res.StructuredContent)
			json.Unmarshal(b, &o.out)
			o.text = text(res)
		}
		ch <- o
	}()
	return ch
}

type sleepOutcome struct {
	err     error
	isError bool
	text    string
	out     struct {
		Stdout   string `json:"stdout"`
		ExitCode int    `json:"exitCode"`
	}
}

func TestShutdown(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name+"/in-flight call finishes", func(t *testing.T) {
			t.Parallel()
			s := startServer(t, nil, append([]string{"--shutdown-grace", "30s"}, m.args...)...)
			cs := mustConnect(t, s, "")
			got := callSleep(cs, map[string]any{"for": "2s"})
			waitForChildren(t, s, 1)
			start := time.Now()
			s.cmd.Process.Signal(syscall.SIGTERM)

			// No new connections once shutdown has begun.
			addr := strings.TrimPrefix(s.base, "http://")
			waitFor(t, "the listener to close", func() bool {
				c, err := net.DialTimeout("tcp", addr, time.Second)
				if err == nil {
					c.Close()
				}
				return err != nil
			})
			o := <-got
			if o.err != nil || o.isError || o.out.ExitCode != 0 || !strings.HasPrefix(o.out.Stdout, "slept 2s") {
				t.Errorf("the in-flight call: %+v; want it to finish (slept 2s)", o)
			}
			select {
			case <-s.exited:
			case <-time.After(20 * time.Second):
				t.Fatal("the server did not exit after the call finished")
			}
			if s.err != nil {
				t.Errorf("server exit: %v\n%s", s.err, s.stderr)
			}
			t.Logf("stopped %v after SIGTERM", time.Since(start).Round(time.Millisecond))
		})

		t.Run(m.name+"/grace period over", func(t *testing.T) {
			t.Parallel()
			s := startServer(t, nil, append([]string{"--shutdown-grace", "500ms"}, m.args...)...)
			cs := mustConnect(t, s, "")
			got := callSleep(cs, map[string]any{"for": "60s", "spawn": true, "ignore-term": true})
			groups := waitForChildren(t, s, 1)
			waitFor(t, "the grandchild", func() bool { return len(inGroups(groups)) >= 2 })
			start := time.Now()
			s.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-s.exited:
			case <-time.After(20 * time.Second):
				t.Fatalf("the server did not exit within 20s of SIGTERM with a 500ms grace:\n%s", s.stderr)
			}
			took := time.Since(start)
			if s.err != nil {
				t.Errorf("server exit: %v\n%s", s.err, s.stderr)
			}
			if left := inGroups(groups); len(left) != 0 {
				t.Errorf("processes left in the call's group after the server exited: %+v", left)
			}
			select {
			case o := <-got:
				if o.err == nil && !o.isError && o.out.ExitCode == 0 {
					t.Errorf("the ended call reports success: %+v", o)
				}
			case <-time.After(10 * time.Second):
				t.Error("the client's call did not return after the server exited")
			}
			if !strings.Contains(s.stderr.String(), "grace period over") {
				t.Errorf("the log does not say the grace period ended:\n%s", s.stderr)
			}
			t.Logf("stopped %v after SIGTERM", took.Round(time.Millisecond))
		})

		t.Run(m.name+"/second signal", func(t *testing.T) {
			t.Parallel()
			s := startServer(t, nil, append([]string{"--shutdown-grace", "1h"}, m.args...)...)
			cs := mustConnect(t, s, "")
			callSleep(cs, map[string]any{"for": "60s", "spawn": true})
			groups := waitForChildren(t, s, 1)
			waitFor(t, "the grandchild", func() bool { return len(inGroups(groups)) >= 2 })
			s.cmd.Process.Signal(syscall.SIGTERM)
			waitFor(t, "the shutdown to begin", func() bool { return strings.Contains(s.stderr.String(), "shutting down") })
			s.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-s.exited:
			case <-time.After(20 * time.Second):
				t.Fatalf("the server did not exit within 20s of a second SIGTERM:\n%s", s.stderr)
			}
			if left := inGroups(groups); len(left) != 0 {
				t.Errorf("processes left in the call's group: %+v", left)
			}
			if !strings.Contains(s.stderr.String(), "second signal") {
				t.Errorf("the log does not mention the second signal:\n%s", s.stderr)
			}
		})
	}
}
