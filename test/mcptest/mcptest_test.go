package mcptest_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/test/mcptest"
)

func TestConnectAndText(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "two", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: "one, "},
			&mcp.ImageContent{MIMEType: "image/png", Data: []byte{1}},
			&mcp.TextContent{Text: "two"},
		}}, nil
	})
	cs := mcptest.Connect(t, srv)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "two", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if got := mcptest.Text(res); got != "one, two" {
		t.Errorf("Text = %q, want the text blocks joined", got)
	}
	if got := mcptest.Text(&mcp.CallToolResult{}); got != "" {
		t.Errorf("Text of no content = %q", got)
	}
}

// TestConnectClient: the test's own client and session options are the
// ones connected.
func TestConnectClient(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	client := mcp.NewClient(&mcp.Implementation{Name: "mine", Version: "2"}, nil)
	cs := mcptest.ConnectClient(t, srv, client, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	if v := cs.InitializeResult().ProtocolVersion; v != "2025-06-18" {
		t.Errorf("protocol version %q, want the one asked for", v)
	}
}
