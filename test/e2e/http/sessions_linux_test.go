package httpe2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cobramcp/cobramcp/internal/toolmeta"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawSession initializes a stateful session over plain HTTP and returns its
// id.
func rawSession(t *testing.T, s *server) string {
	t.Helper()
	_, _, sid, body := rawPost(t, s.url, "", initialize)
	if sid == "" {
		t.Fatalf("initialize gave no session id: %s", body)
	}
	if code, _, _, _ := rawPost(t, s.url, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); code != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d", code)
	}
	return sid
}

// openCall posts a tools/call of mycli_sleep for 60s (with a grandchild)
// in session sid and returns at once; drop closes the request's connection
// without a word to the server (no notifications/cancelled), and ended is
// closed when the request has ended either way.
func openCall(t *testing.T, s *server, sid string, id int) (drop func(), ended <-chan struct{}) {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"mycli_sleep","arguments":{"flags":{"for":"60s","spawn":true}}}}`, id)
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "POST", s.url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	req.Header.Set("Mcp-Session-Id", sid)
	done := make(chan struct{})
	// A transport of its own: its connection is this request's alone.
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	go func() {
		defer close(done)
		resp, err := hc.Do(req)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	t.Cleanup(cancel)
	return cancel, done
}

// deleteSession sends DELETE for session sid and returns its status.
func deleteSession(t *testing.T, s *server, sid string) int {
	t.Helper()
	req, err := http.NewRequest("DELETE", s.url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	hc := &http.Client{Timeout: 20 * time.Second} // a safety net: the call runs 60s
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatalf("DELETE: %v", err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// waitGone waits until no process is left in groups.
func waitGone(t *testing.T, groups map[int]bool) {
	t.Helper()
	waitFor(t, "the call's process group to end", func() bool { return len(inGroups(groups)) == 0 })
}

// TestCallsEndWithTheirCaller checks that in a stateful session a running
// call, and its process group, is ended when nobody can receive its
// result: its connection dropped, its session deleted or timed out.
func TestCallsEndWithTheirCaller(t *testing.T) {
	t.Run("connection dropped", func(t *testing.T) {
		t.Parallel()
		s := startServer(t, nil)
		sid := rawSession(t, s)
		drop, _ := openCall(t, s, sid, 2)
		groups := waitForChildren(t, s, 1)
		waitFor(t, "the grandchild", func() bool { return len(inGroups(groups)) >= 2 })
		drop()
		waitGone(t, groups)
		// The server logs why before it ends the call, but its stderr
		// reaches s.stderr through a pipe and a goroutine of the test's:
		// the group can be gone first.
		waitFor(t, "the log to say why the call ended", func() bool {
			return strings.Contains(s.stderr.String(), "its client is gone")
		})
		// The session goes on.
		if code, _, _, body := rawPost(t, s.url, sid, `{"jsonrpc":"2.0","id":3,"method":"ping"}`); code != http.StatusOK {
			t.Errorf("ping in the session after the drop: %d %s", code, body)
		}
	})

	t.Run("DELETE", func(t *testing.T) {
		t.Parallel()
		s := startServer(t, nil)
		sid := rawSession(t, s)
		_, ended := openCall(t, s, sid, 2)
		groups := waitForChildren(t, s, 1)
		waitFor(t, "the grandchild", func() bool { return len(inGroups(groups)) >= 2 })
		if code := deleteSession(t, s, sid); code != http.StatusNoContent {
			t.Errorf("DELETE: %d, want 204", code)
		}
		waitGone(t, groups)
		select {
		case <-ended:
		case <-time.After(20 * time.Second):
			t.Error("the call's request did not end after its session was deleted")
		}
		if code, _, _, _ := rawPost(t, s.url, sid, `{"jsonrpc":"2.0","id":3,"method":"ping"}`); code != http.StatusNotFound {
			t.Errorf("the deleted session still answers: %d", code)
		}
	})

	t.Run("session timeout", func(t *testing.T) {
		t.Parallel()
		s := startServer(t, nil, "--session-timeout", "1s", "--mcp-log-level", "debug")
		// A call whose request is open keeps its session alive past the
		// timeout, and finishes.
		cs := mustConnect(t, s, "")
		o := <-callSleep(cs, map[string]any{"for": "3s"})
		if o.err != nil || o.isError || !strings.HasPrefix(o.out.Stdout, "slept 3s") {
			t.Errorf("a 3s call in a session with a 1s idle timeout: %+v", o)
		}
		// A call left behind ends, and the idle session times out.
		sid := rawSession(t, s)
		drop, _ := openCall(t, s, sid, 2)
		groups := waitForChildren(t, s, 1)
		drop()
		waitGone(t, groups)
		// Any request of the session would keep it alive: watch the log.
		waitFor(t, "the session to time out", func() bool {
			return strings.Contains(s.stderr.String(), `msg="session ended" session=`+sid)
		})
		if code, _, _, _ := rawPost(t, s.url, sid, `{"jsonrpc":"2.0","id":3,"method":"ping"}`); code != http.StatusNotFound {
			t.Errorf("the timed-out session still answers: %d", code)
		}
	})

	t.Run("abandoned calls free their slots", func(t *testing.T) {
		t.Parallel()
		// One session may hold every slot (a caller's share is half of
		// them by default).
		s := startServer(t, nil, "--caller-share", strconv.Itoa(toolmeta.DefaultMaxParallel))
		sid := rawSession(t, s)
		n := toolmeta.DefaultMaxParallel // every slot
		var drops []func()
		for i := range n {
			drop, _ := openCall(t, s, sid, 10+i)
			drops = append(drops, drop)
		}
		groups := waitForChildren(t, s, n)
		for _, drop := range drops {
			drop()
		}
		waitGone(t, groups)
		cs := mustConnect(t, s, "")
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // a safety net: the calls run 60s
		defer cancel()
		if out, err := callEcho(ctx, cs, "next"); err != nil || len(out.Args) != 1 {
			t.Errorf("a call after %d abandoned ones: %v %v", n, out, err)
		}
	})
}

// TestSessionCap checks that a stateful server refuses a session over
// --max-sessions with a clear error, and admits one again once a session
// has ended.
func TestSessionCap(t *testing.T) {
	t.Parallel()
	s := startServer(t, nil, "--max-sessions", "2")
	first := mustConnect(t, s, "")
	mustConnect(t, s, "")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := connect(t, ctx, s, "")
	if err == nil || !strings.Contains(err.Error(), "too many sessions") {
		t.Fatalf("a third session with --max-sessions 2: %v; want a refusal saying too many sessions", err)
	}
	// Logged before the answer, but read from the server's stderr by a
	// goroutine of the test's.
	waitFor(t, "the log to mention the refusal", func() bool {
		return strings.Contains(s.stderr.String(), "too many sessions")
	})
	first.Close() // DELETE
	var cs *mcp.ClientSession
	waitFor(t, "a session to be admitted after one ended", func() bool {
		cs, err = connect(t, ctx, s, "")
		return err == nil
	})
	defer cs.Close()
	if _, err := callEcho(ctx, cs, "in"); err != nil {
		t.Errorf("a call in the admitted session: %v", err)
	}
}
