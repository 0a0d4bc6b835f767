//go:build sdkfloor

package main

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
)

// Built with -tags sdkfloor, kubelite links only the go-sdk (and through it
// jsonschema-go), with one trivial tool served on stdio by `kubelite mcp
// start` (which takes --mcp-log-level and ignores it, as the benchmark
// passes it): what any bridge built on the go-sdk adds to the adopting CLI
// at least (Ophis links the same two), for the benchmark's size, start and
// idle memory figures.
func init() {
	addMCP = func(root *cobra.Command) {
		group := &cobra.Command{Use: "mcp", Short: "Serve a trivial tool over MCP"}
		group.PersistentFlags().String("mcp-log-level", "info", "ignored")
		root.AddCommand(group)
		group.AddCommand(&cobra.Command{
			Use:   "start",
			Short: "Serve a trivial tool over MCP on stdio",
			RunE: func(c *cobra.Command, _ []string) error {
				s := mcp.NewServer(&mcp.Implementation{Name: "kubelite", Version: "v1.0.0"}, nil)
				mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Print the words given"},
					func(_ context.Context, _ *mcp.CallToolRequest, in echoInput) (*mcp.CallToolResult, any, error) {
						return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(in.Args, " ")}}}, nil, nil
					})
				return s.Run(c.Context(), &mcp.StdioTransport{})
			},
		})
	}
}

// echoInput is the trivial tool's input.
type echoInput struct {
	Args []string `json:"args,omitempty"`
}
