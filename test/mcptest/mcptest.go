package mcptest

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Connect serves srv over in-memory transports (a pipe, as stdio is) and
// returns a go-sdk client's session on it. Both ends are closed when the
// test ends.
func Connect(t testing.TB, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	return ConnectClient(t, srv, mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil), nil)
}

// ConnectClient is Connect with the test's own client (its handlers and
// capabilities) and session options (nil: the client's defaults, such as
// its latest protocol version).
func ConnectClient(t testing.TB, srv *mcp.Server, client *mcp.Client, opts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := client.Connect(context.Background(), ct, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// Text is the text of res's content, its text blocks joined as they are;
// "" for a result with none.
func Text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}
