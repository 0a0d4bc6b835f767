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

// AllowCmds serves the commands named and their sub-commands; ExcludeFlags
// leaves flags out of them.
func ExampleAllowCmds() {
	root := &cobra.Command{Use: "mycli"}
	get := &cobra.Command{Use: "get", Short: "Show things"}
	pods := &cobra.Command{Use: "pods", Short: "Show pods", Run: func(*cobra.Command, []string) {}}
	pods.Flags().String("namespace", "", "the namespace")
	pods.Flags().String("token", "", "never served")
	get.AddCommand(pods)
	root.AddCommand(get, &cobra.Command{Use: "delete", Short: "Delete a thing", Run: func(*cobra.Command, []string) {}})
	root.AddCommand(bridge.Command(&bridge.Config{
		Selectors: []bridge.Selector{{Cmd: bridge.AllowCmds("get"), LocalFlag: bridge.ExcludeFlags("token")}},
	}))
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs([]string{"mcp", "tool", "mycli_get_pods", "--schema"})
	if err := root.Execute(); err != nil {
		panic(err)
	}
	var tool struct {
		Parameters struct {
			Properties struct {
				Flags struct{ Properties map[string]any }
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &tool); err != nil {
		panic(err)
	}
	_, token := tool.Parameters.Properties.Flags.Properties["token"]
	_, ns := tool.Parameters.Properties.Flags.Properties["namespace"]
	fmt.Println("namespace:", ns, "token:", token)
	// Output:
	// namespace: true token: false
}

// A flag's annotations give its schema where its type says too little: an
// enum here, and a custom value that accumulates served as an array.
func ExampleFlagAnnotationSchema() {
	root := &cobra.Command{Use: "mycli"}
	get := &cobra.Command{Use: "get", Short: "Show a thing", Run: func(*cobra.Command, []string) {}}
	get.Flags().String("output", "table", "output format")
	_ = get.Flags().SetAnnotation("output", bridge.FlagAnnotationSchema, []string{`{"enum": ["table", "json"]}`})
	get.Flags().Var(&labels{}, "label", "a label, KEY=VALUE; repeatable")
	_ = get.Flags().SetAnnotation("label", bridge.FlagAnnotationRepeatable, []string{"true"})
	root.AddCommand(get, bridge.Command(nil))
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs([]string{"mcp", "tool", "mycli_get", "--schema"})
	if err := root.Execute(); err != nil {
		panic(err)
	}
	var tool struct {
		Parameters struct {
			Properties struct {
				Flags struct {
					Properties map[string]struct {
						Type any
						Enum []string
					}
				}
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &tool); err != nil {
		panic(err)
	}
	flags := tool.Parameters.Properties.Flags.Properties
	fmt.Println("output:", flags["output"].Type, flags["output"].Enum)
	fmt.Println("label:", flags["label"].Type)
	// Output:
	// output: string [table json]
	// label: array
}

// labels is a custom pflag value that keeps every value it is given.
type labels []string

func (l *labels) String() string     { return fmt.Sprint(*l) }
func (l *labels) Set(v string) error { *l = append(*l, v); return nil }
func (l *labels) Type() string       { return "labels" }
