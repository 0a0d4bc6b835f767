// Package cmd holds the sub-commands of the "mcp" command group: start
// (stdio), stream (HTTP), tools (export), tool and call (one call without a
// client), and the client set-up commands.
//
// The commands depend only on the Toolset interface, which package bridge
// implements, so that data flows one way: bridge composes the reflection and
// the call path, cmd offers them as commands.
//
//	group := cmd.New(cmd.Options{
//		Load: func(c *cobra.Command) (cmd.Toolset, error) { return bridge.Tools(c.Root(), nil) },
//	})
//	root.AddCommand(group)
//
// In stdio mode nothing but protocol bytes reaches stdout: start keeps a
// private copy of the stdout descriptor for the protocol and points
// descriptor 1 at stderr before anything else runs.
package cmd
