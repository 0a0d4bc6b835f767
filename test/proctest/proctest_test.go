package proctest_test

import (
	"fmt"
	"io"
	"net"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cobramcp/cobramcp/test/proctest"
)

func TestServedURLs(t *testing.T) {
	const (
		mcpLine     = `time=... level=INFO msg="serving MCP over streamable HTTP" url=http://127.0.0.1:41234/mcp stateless=false`
		metricsLine = `time=... level=INFO msg="serving Prometheus metrics" url=http://127.0.0.1:41235/metrics`
	)
	for _, tt := range []struct {
		name    string
		log     string
		n       int
		want    []string
		wantErr string
	}{
		{"one", "starting\n" + mcpLine + "\n", 1, []string{"http://127.0.0.1:41234/mcp"}, ""},
		{"two in the order logged", metricsLine + "\nnoise\n" + mcpLine + "\n", 2, []string{"http://127.0.0.1:41235/metrics", "http://127.0.0.1:41234/mcp"}, ""},
		{"the first n", mcpLine + "\n" + metricsLine + "\n", 1, []string{"http://127.0.0.1:41234/mcp"}, ""},
		{"a library server's line", "url=https://127.0.0.1:9/mcp\n", 1, []string{"https://127.0.0.1:9/mcp"}, ""},
		{"ended before", "Error: refusing to serve\n", 1, nil, "the log ended with 0 of the 1 URLs"},
		{"ended after one of two", mcpLine + "\n", 2, []string{"http://127.0.0.1:41234/mcp"}, "the log ended with 1 of the 2 URLs"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := proctest.ServedURLs(strings.NewReader(tt.log), tt.n, 10*time.Second)
			if !slices.Equal(got, tt.want) {
				t.Errorf("URLs %q, want %q", got, tt.want)
			}
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("error %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// TestServedURLsKeepsReading: a log that goes on after the URLs is read
// to its end, so that the server never blocks writing it; a log that
// stays open without a URL is given up on.
func TestServedURLsKeepsReading(t *testing.T) {
	r, w := io.Pipe() // a write waits for its read
	defer r.Close()
	written := make(chan struct{})
	go func() {
		defer close(written)
		fmt.Fprintln(w, "url=http://127.0.0.1:1/mcp")
		for range 1000 {
			fmt.Fprintln(w, strings.Repeat("x", 1000))
		}
		fmt.Fprintln(w, strings.Repeat("y", 100_000)) // past the scanner's longest line
		fmt.Fprintln(w, "the end")
		w.Close()
	}()
	if _, err := proctest.ServedURLs(r, 1, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	select {
	case <-written:
	case <-time.After(10 * time.Second):
		t.Fatal("the log was not read to its end: its writer is blocked")
	}

	open, _ := io.Pipe()
	start := time.Now()
	if _, err := proctest.ServedURLs(open, 1, 100*time.Millisecond); err == nil || !strings.Contains(err.Error(), "0 of the 1 URLs logged within 100ms") {
		t.Errorf("a log without a URL: %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("gave up after %s, want about 100ms", time.Since(start))
	}
}

func TestBuffer(t *testing.T) {
	var b proctest.Buffer
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 100 {
			fmt.Fprintf(&b, "%d\n", i)
		}
	})
	for range 100 {
		_ = b.String() // read while written: -race checks it
	}
	wg.Wait()
	if n := strings.Count(b.String(), "\n"); n != 100 {
		t.Errorf("%d lines, want 100", n)
	}
}

func TestFreeAddr(t *testing.T) {
	addr := proctest.FreeAddr(t)
	if !strings.HasPrefix(addr, "127.0.0.1:") {
		t.Fatalf("FreeAddr = %q, want a loopback address", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listening on %s: %v", addr, err)
	}
	ln.Close()
}

// TestServe starts a program that logs its URL on stderr and keeps
// running, as a server does.
func TestServe(t *testing.T) {
	cmd := exec.Command("/bin/sh", "-c", `echo "starting" >&2; echo "msg=serving url=http://127.0.0.1:1/mcp" >&2; exec sleep 60`)
	urls := proctest.Serve(t, cmd, 1)
	if !slices.Equal(urls, []string{"http://127.0.0.1:1/mcp"}) {
		t.Errorf("Serve = %q", urls)
	}
	if cmd.ProcessState != nil {
		t.Errorf("the server has exited: %v", cmd.ProcessState)
	}
}
