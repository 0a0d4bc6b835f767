// Package mcpcmd holds the "mcp" command group: start (stdio), stream
// (HTTP), tools (export), tool and call (one call without a client), and
// the client set-up commands. It is a client of the library: it maps flags
// and environment variables onto package toolset's types (Policy, Listing,
// ServerOptions) and serves through package serve, as any program
// embedding the library would. Package bridge builds the group for an
// adopting CLI:
//
//	root.AddCommand(mcpcmd.New(mcpcmd.Options{
//		Load: func(c *cobra.Command) (*toolset.Toolset, error) { return toolset.New(c.Root(), nil) },
//	}))
//
// In stdio mode nothing but protocol bytes reaches stdout: start keeps a
// private copy of the stdout descriptor for the protocol and points
// descriptor 1 at stderr before anything else runs.
package mcpcmd
