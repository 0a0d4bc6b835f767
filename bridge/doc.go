// Package bridge is how a Cobra CLI adopts cobramcp, in one line:
//
//	root.AddCommand(bridge.Command(nil))
//
// which adds the "mcp" command group: `mycli mcp start` serves every
// runnable command as a tool on stdio, `mycli mcp tools` exports the tool
// definitions, and the other sub-commands serve over HTTP, run one call, or
// set up MCP clients. Config chooses what is served and how calls run:
//
//	root.AddCommand(bridge.Command(&bridge.Config{
//		Selectors: []bridge.Selector{{Cmd: bridge.ExcludeCmds("delete")}},
//		Middleware: []bridge.Middleware{func(next bridge.RunFunc) bridge.RunFunc {
//			return func(ctx context.Context, c *bridge.Call) (*bridge.Result, error) {
//				slog.Info("tool call", "tool", c.Tool, "flags", c.Flags, "args", c.Args) // log, refuse or alter (c.Argv also holds pinned values)
//				return next(ctx, c)
//			}
//		}},
//	}))
//
// and a command's Annotations carry its MCP hints
// (bridge.AnnotationReadOnly, AnnotationTitle, ...). bridge names all an
// adopter needs for this; the names are package toolset's.
//
// bridge is the top of the import graph: it is the command group, built
// on the library that reflects the tree (package toolset) and serves it
// (package serve). Its commands are a client of the library: they map
// flags and environment variables onto toolset's types (Policy, Listing,
// ServerOptions) and serve through package serve, as any program embedding
// the library would. A program that serves a tree without the command
// group uses those packages directly:
//
//	ts, err := toolset.New(root, &bridge.Config{})
//	v, err := ts.View(toolset.Listing{})
//	srv := v.NewServer(toolset.ServerOptions{})
//	err = serve.Stdio(ctx, srv, os.Stdin, os.Stdout)
//
// The team server's OAuth is an opt-in, so that a CLI that does not serve
// a team links no OAuth, JOSE or OIDC code: a CLI that does gives
// bridge.WithOAuth(oauth.New) to Command. Parts that bridge does not import
// are added so, each by an Option built from its own package's constructor:
// a new one is its With function and an unexported field of Options
// (bridge.go, cmd.go) and its flags in a file named after it (as
// oauthflags.go and telemetry.go), which refuse in one line, naming the
// opt-in, when the CLI did not opt in.
//
// A program that serves a CLI other than itself sets Options.Outside, and
// one whose purpose is serving puts the commands at its top with
// Options.Parent (cmd/cobramcp does both).
//
// In stdio mode nothing but protocol bytes reaches stdout: start keeps a
// private copy of the stdout descriptor for the protocol and points
// descriptor 1 at stderr before anything else runs.
package bridge
