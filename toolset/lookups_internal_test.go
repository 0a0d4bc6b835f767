package toolset

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestLookupLimit: the limit lets as many lookups as it holds run; one
// more waits, and stops waiting when its request is cancelled, saying so;
// a turn ended lets the next one in.
func TestLookupLimit(t *testing.T) {
	l := make(lookupLimit, 2)
	r1, refused := l.acquire(context.Background(), "a")
	if refused != nil {
		t.Fatal(refused)
	}
	r2, refused := l.acquire(context.Background(), "b")
	if refused != nil {
		t.Fatal(refused)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan string)
	go func() {
		_, refused := l.acquire(ctx, "c")
		if refused == nil {
			done <- "got a turn over the limit"
			return
		}
		done <- refused.Content[0].(*mcp.TextContent).Text
	}()
	cancel()
	if msg := <-done; !strings.Contains(msg, "c: canceled while waiting for a turn (2 ") {
		t.Errorf("the third lookup: %q", msg)
	}
	r1()
	r3, refused := l.acquire(context.Background(), "d")
	if refused != nil {
		t.Fatal("a turn ended, and the next lookup was refused")
	}
	r2()
	r3()
	if len(l) != 0 {
		t.Errorf("%d turns still taken", len(l))
	}
	var none lookupLimit
	release, refused := none.acquire(context.Background(), "e")
	if refused != nil {
		t.Fatal(refused)
	}
	release()
}
