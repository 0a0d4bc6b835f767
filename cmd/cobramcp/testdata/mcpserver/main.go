// Command mcpserver is a test fixture: an MCP server on stdio, whatever
// its args, with one tool; it is no Cobra CLI.
package main

import (
	"context"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "mcpserver", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "ping", Description: "Answer pong"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "pong"}}}, nil, nil
	})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(1)
	}
}
