//go:build unix

package serve

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestStdioOnPipe serves a session over OS pipes, as a client's stdin and
// stdout are, and checks what Stdio leaves of the pipe it read through the
// poller: the read end back in blocking mode and, once ctx has ended the
// session, no read of its own still waiting there (a line written
// afterwards stays in the pipe for its next reader).
func TestStdioOnPipe(t *testing.T) {
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer inR.Close()
	defer inW.Close()
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer outR.Close()
	defer outW.Close()
	fd := int(inR.Fd()) // blocking, as a child's stdin is
	srv := mcp.NewServer(&mcp.Implementation{Name: "pipe-test", Version: "1"}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Stdio(ctx, srv, inR, outW) }()

	replies := bufio.NewReader(outR)
	if _, err := inW.WriteString(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n"); err != nil {
		t.Fatal(err)
	}
	line, err := replies.ReadString('\n')
	if err != nil || !strings.Contains(line, `"id":1`) || !strings.Contains(line, `"result"`) {
		t.Fatalf("initialize: %q, %v", line, err)
	}
	if !nonblocking(fd) {
		t.Error("while serving, the pipe is not read through the poller (blocking mode)")
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Stdio: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Stdio did not return after ctx was cancelled")
	}
	if nonblocking(fd) {
		t.Error("after Stdio, the pipe is left in non-blocking mode")
	}
	if _, err := inW.WriteString("after\n"); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(inR).ReadString('\n')
		got <- l
	}()
	select {
	case l := <-got:
		if l != "after\n" {
			t.Fatalf("the line written after Stdio returned: read %q", l)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a line written after Stdio returned was taken by a read Stdio left behind")
	}
}
