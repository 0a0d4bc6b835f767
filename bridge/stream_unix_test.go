//go:build unix

package bridge_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/toolset"
)

// TestStreamEndsRunningCalls: when mcp stream stops, a call still running
// is ended (the calls' context is done once the grace period is over),
// and mcp stream returns only after its process is gone: it waits for the
// calls (Toolset.Wait), longer than the HTTP server waits for its
// requests (httpserve.DefaultAbortWait, 5s). The call runs a real process
// in place of the command: a shell that prints its pid and sleeps,
// ignoring SIGTERM, so that only the SIGKILL its kill grace (6s) ends in
// does.
func TestStreamEndsRunningCalls(t *testing.T) {
	started := make(chan string, 1) // the pid, once the call's process runs
	ended := make(chan *toolset.Result, 1)
	sleeper := func(next toolset.RunFunc) toolset.RunFunc {
		return func(ctx context.Context, c *toolset.Call) (*toolset.Result, error) {
			c.Path = "/bin/sh"
			c.Argv = []string{"-c", `trap '' TERM; echo $$; exec sleep 60`}
			c.Options.KillGrace = 6 * time.Second
			// The line is seen from within the run, after the toolset
			// counted the call as running.
			c.Options.OnLine = func(_, line string) {
				select {
				case started <- line:
				default:
				}
			}
			res, err := next(ctx, c)
			select {
			case ended <- res:
			default:
			}
			return res, err
		}
	}
	load := func(*cobra.Command, *slog.Logger) (*cobra.Command, *toolset.Config, error) {
		root := &cobra.Command{Use: "fake"}
		root.AddCommand(&cobra.Command{Use: "nap", Short: "Sleep.", RunE: func(*cobra.Command, []string) error { return nil }})
		return root, &toolset.Config{Middleware: []toolset.Middleware{sleeper}, Timeout: -1}, nil
	}
	const token = "fake-token-0123456789"
	t.Setenv("FAKE_MCP_TOKEN", token)
	s := startStream(t, load, "--shutdown-grace", "100ms")

	clientCtx, endClient := context.WithCancel(context.Background())
	defer endClient()
	hc := &http.Client{Transport: authTransport(token)}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(clientCtx, &mcp.StreamableClientTransport{Endpoint: s.base + "/mcp", HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	go cs.CallTool(clientCtx, &mcp.CallToolParams{Name: "fake_nap"}) //nolint:errcheck // ended by the server's stop

	// The call is running once its process printed its pid.
	var pid int
	select {
	case line := <-started:
		if pid, err = strconv.Atoi(strings.TrimSpace(line)); err != nil {
			t.Fatalf("the call printed %q, want its pid", line)
		}
	case err := <-s.done:
		t.Fatalf("stream ended: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not start within 10s")
	}

	s.stop(t) // as SIGTERM would
	// mcp stream has returned: the call's process must be gone.
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the call's process %d outlived mcp stream (kill -0: %v): the calls were not waited for", pid, err)
		syscall.Kill(pid, syscall.SIGKILL) //nolint:errcheck
	}
	select {
	case res := <-ended:
		if res == nil || !res.Canceled {
			t.Errorf("the call ended with %+v, want it canceled by the server's stop", res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not end")
	}
}
