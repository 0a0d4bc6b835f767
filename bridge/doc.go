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
// bridge is the top of the import graph: it joins the command group
// (package mcpcmd) to the library that reflects the tree (package toolset).
// A program that serves a tree without the command group uses those two
// packages, and package serve, directly:
//
//	ts, err := toolset.New(root, &bridge.Config{})
//	v, err := ts.View(toolset.Listing{})
//	srv := v.NewServer(toolset.ServerOptions{})
//	err = serve.Stdio(ctx, srv, os.Stdin, os.Stdout)
package bridge
