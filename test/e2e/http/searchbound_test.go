package httpe2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// searchQuery calls mycli_search_commands with query over cs.
func searchQuery(ctx context.Context, cs *mcp.ClientSession, query string) (*mcp.CallToolResult, error) {
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_search_commands", Arguments: map[string]any{"query": query}})
}

// TestSearchHugeQueryOverHTTP: one-word searches of 512 KB and 5 MB (the
// server taking bodies that large) are refused at once with the bound
// named, many at once as well, beside ordinary searches that are answered;
// the server still serves after them.
func TestSearchHugeQueryOverHTTP(t *testing.T) {
	t.Parallel()
	s := startServer(t, []string{"MYCLI_MCP_TOKEN=" + testToken}, "--tool-mode", "search", "--max-body-bytes", fmt.Sprint(16<<20))
	cs := mustConnect(t, s, testToken)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	refused := func(t *testing.T, n int) {
		t.Helper()
		res, err := searchQuery(ctx, cs, strings.Repeat("a", n))
		if err != nil {
			t.Errorf("a %d-byte word: %v", n, err) // not Fatal: called from goroutines too
			return
		}
		if msg := text(res); !res.IsError || !strings.Contains(msg, "1024") || !strings.Contains(msg, "bytes") {
			t.Errorf("a %d-byte word: isError=%v %q; want a refusal naming the bound", n, res.IsError, msg)
		}
	}
	answered := func(t *testing.T) {
		t.Helper()
		res, err := searchQuery(ctx, cs, "delete a pod")
		if err != nil {
			t.Errorf("an ordinary search: %v", err)
			return
		}
		if res.IsError || !strings.Contains(text(res), "mycli_delete_pod") {
			t.Errorf("an ordinary search: %q", text(res))
		}
	}
	refused(t, 512<<10)
	refused(t, 5<<20)
	answered(t)

	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			if i%2 == 0 {
				refused(t, 512<<10)
			} else {
				answered(t)
			}
		})
	}
	wg.Wait()
	answered(t)
}

// TestSearchHugeQueryDefaultBody: with the default body limit (4 MiB), a
// 5 MB search is refused by the HTTP server before any tool reads it, and
// the server goes on serving.
func TestSearchHugeQueryDefaultBody(t *testing.T) {
	t.Parallel()
	s := startServer(t, []string{"MYCLI_MCP_TOKEN=" + testToken}, "--tool-mode", "search")
	cs := mustConnect(t, s, testToken)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if res, err := searchQuery(ctx, cs, strings.Repeat("a", 5<<20)); err == nil {
		t.Errorf("a 5 MB search over a 4 MiB body limit: answered %q, want the request refused", text(res))
	}
	// The go-sdk client closes its session on a 413; the server goes on
	// serving a new one.
	res, err := searchQuery(ctx, mustConnect(t, s, testToken), "delete a pod")
	if err != nil {
		t.Fatalf("an ordinary search after: %v\nserver stderr:\n%s", err, s.stderr)
	}
	if res.IsError {
		t.Fatalf("an ordinary search after: %q", text(res))
	}
	var out struct {
		Results []struct{ Command string } `json:"results"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || len(out.Results) == 0 {
		t.Errorf("results %s: %v", b, err)
	}
}

// BenchmarkSearchHugeWord times one search call of a one-word query of
// 512 KB and of 5 MB over HTTP, the server taking bodies that large: the
// time to the answer (a refusal naming the bound), client encoding and
// transport included.
func BenchmarkSearchHugeWord(b *testing.B) {
	s := startServer(b, []string{"MYCLI_MCP_TOKEN=" + testToken}, "--tool-mode", "search", "--max-body-bytes", fmt.Sprint(16<<20))
	cs, err := connect(b, context.Background(), s, testToken)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	for _, n := range []int{512 << 10, 5 << 20} {
		q := strings.Repeat("a", n)
		b.Run(fmt.Sprintf("%dKB", n>>10), func(b *testing.B) {
			for b.Loop() {
				res, err := searchQuery(context.Background(), cs, q)
				if err != nil || !res.IsError {
					b.Fatalf("%v %v", err, res)
				}
			}
		})
	}
}
