package proctest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os/exec"
	"regexp"
	"sync"
	"testing"
	"time"
)

// Buffer is a bytes.Buffer safe for one writer and many readers: a
// program's stderr (exec.Cmd.Stderr) or a logger's output, read by the
// test while it is written.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p to the buffer.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String returns what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// FreeAddr returns a loopback address (host:port) whose port was free a
// moment ago, for a server that must be told its address before it
// starts, or for an address where nothing listens.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// urlRE finds the URL a server logs once it serves ("serving MCP over
// streamable HTTP", "serving Prometheus metrics"): its url attribute.
var urlRE = regexp.MustCompile(`url=(https?://\S+)`)

// ServedURLs reads r, a server's log (its stderr pipe), to its end in a
// goroutine of its own, so that the server never blocks on a full pipe,
// and returns the first n URLs it logs as url=..., in the order logged,
// once they are. It fails when the log ends, or within passes, first.
func ServedURLs(r io.Reader, n int, within time.Duration) ([]string, error) {
	found := make(chan string, n)
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		sc := bufio.NewScanner(r)
		for sent := 0; sc.Scan(); {
			if m := urlRE.FindStringSubmatch(sc.Text()); m != nil && sent < n {
				found <- m[1]
				sent++
			}
		}
		_, _ = io.Copy(io.Discard, r) // past a line too long to scan
	}()
	timeout := time.NewTimer(within)
	defer timeout.Stop()
	var urls []string
	for len(urls) < n {
		select {
		case u := <-found:
			urls = append(urls, u)
		case <-ended:
			for len(found) > 0 {
				urls = append(urls, <-found)
			}
			if len(urls) < n {
				return urls, fmt.Errorf("the log ended with %d of the %d URLs logged", len(urls), n)
			}
		case <-timeout.C:
			return urls, fmt.Errorf("%d of the %d URLs logged within %s", len(urls), n, within)
		}
	}
	return urls, nil
}

// Serve starts cmd, a server that logs its URLs on stderr, and returns the
// first n it logs (ServedURLs), failing t when it does not serve within
// 30s. The server is killed at the end of the test.
func Serve(t testing.TB, cmd *exec.Cmd, n int) []string {
	t.Helper()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	urls, err := ServedURLs(stderr, n, 30*time.Second)
	if err != nil {
		t.Fatalf("%q did not serve: %v", cmd.Args, err)
	}
	return urls
}
