package bridge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/oauth"
)

// The one-line adoption: the CLI gains the mcp command group.
func ExampleCommand() {
	root := &cobra.Command{Use: "mycli"}
	root.AddCommand(bridge.Command(nil))
	group, _, err := root.Find([]string{"mcp"})
	if err != nil {
		panic(err)
	}
	for _, c := range group.Commands() {
		if c.Name() == "start" || c.Name() == "tools" || c.Name() == "call" {
			fmt.Println(c.CommandPath(), "-", c.Short)
		}
	}
	// Output:
	// mycli mcp call - Run one tool call without a client and print its result as JSON
	// mycli mcp start - Serve the tools over stdio (what MCP clients launch)
	// mycli mcp tools - Export the tool definitions as JSON, in MCP or another dialect
}

// Middleware sees every call before it runs: here it refuses the delete
// command, so no process starts, and the refusal is the call's result.
func ExampleMiddleware() {
	root := &cobra.Command{Use: "mycli"}
	root.AddCommand(&cobra.Command{Use: "delete NAME", Short: "Delete a thing", Args: cobra.ExactArgs(1), Run: func(*cobra.Command, []string) {}})
	root.AddCommand(bridge.Command(&bridge.Config{
		Middleware: []bridge.Middleware{func(next bridge.RunFunc) bridge.RunFunc {
			return func(ctx context.Context, c *bridge.Call) (*bridge.Result, error) {
				if c.Command.Name() == "delete" {
					return nil, fmt.Errorf("%s %q: refused by policy", c.Tool, c.Args)
				}
				return next(ctx, c)
			}
		}},
	}))
	var out bytes.Buffer
	root.SetOut(&out)
	root.SilenceErrors = true
	root.SetArgs([]string{"mcp", "call", "mycli_delete", `{"args": ["prod"]}`})
	err := root.Execute()
	fmt.Print(out.String())
	fmt.Println("error:", err)
	// Output:
	// {
	//   "content": [
	//     {
	//       "type": "text",
	//       "text": "mycli_delete: mycli_delete [\"prod\"]: refused by policy"
	//     }
	//   ],
	//   "isError": true
	// }
	// error: mycli_delete: the call failed: mycli_delete ["prod"]: refused by policy
}

// Config chooses what is served: selectors pick commands and flags, and
// annotations on a command carry its MCP hints.
func ExampleConfig() {
	root := &cobra.Command{Use: "mycli"}
	get := &cobra.Command{Use: "get", Short: "Show a thing", Run: func(*cobra.Command, []string) {},
		Annotations: map[string]string{bridge.AnnotationReadOnly: "true", bridge.AnnotationTitle: "Get"}}
	get.Flags().String("output", "", "output format")
	get.Flags().String("token", "", "never served")
	root.AddCommand(get, &cobra.Command{Use: "delete", Short: "Delete a thing", Run: func(*cobra.Command, []string) {}})
	root.AddCommand(bridge.Command(&bridge.Config{
		Selectors: []bridge.Selector{
			{Cmd: bridge.ExcludeCmds("delete"), LocalFlag: bridge.AllowFlags("output")},
		},
	}))
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs([]string{"mcp", "tools", "--expanded", "--output", "-"})
	if err := root.Execute(); err != nil {
		panic(err)
	}
	var tools []struct {
		Name        string
		Annotations struct {
			Title        string
			ReadOnlyHint bool
		}
		InputSchema struct {
			Properties struct {
				Flags struct{ Properties map[string]any }
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &tools); err != nil {
		panic(err)
	}
	for _, t := range tools {
		fmt.Println(t.Name, t.Annotations.Title, t.Annotations.ReadOnlyHint, len(t.InputSchema.Properties.Flags.Properties))
	}
	// Output:
	// mycli_get Get true 1
}

// A CLI that serves a team opts into OAuth: `mycli mcp stream
// --oauth-issuer URL --oauth-resource URL` is then an OAuth 2.1 resource
// server. A CLI that does not links no OAuth code, and its `mcp stream
// --oauth-issuer` says how to get the team server.
func ExampleWithOAuth() {
	root := &cobra.Command{Use: "mycli"}
	root.AddCommand(&cobra.Command{Use: "get", Short: "Show a thing", Run: func(*cobra.Command, []string) {}})
	root.AddCommand(bridge.Command(nil, bridge.WithOAuth(oauth.New)))
	stream, _, err := root.Find([]string{"mcp", "stream"})
	if err != nil {
		panic(err)
	}
	fmt.Println(stream.Flags().Lookup("oauth-issuer").Usage[:60])
	// Output:
	// serve as an OAuth resource server: accept only access tokens
}
