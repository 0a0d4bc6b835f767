// Package mcpcmd holds the "mcp" command group: start (stdio), stream
// (HTTP), tools (export), tool and call (one call without a client), and
// the client set-up commands. It is a client of the library: it maps flags
// and environment variables onto package toolset's types (Policy, Listing,
// ServerOptions) and serves through package serve, as any program
// embedding the library would. Package bridge builds the group for an
// adopting CLI:
//
//	root.AddCommand(mcpcmd.New(mcpcmd.Options{
//		Tree: func(c *cobra.Command, _ *slog.Logger) (*cobra.Command, *toolset.Config, error) {
//			return c.Root(), &toolset.Config{Timeout: 10 * time.Minute}, nil
//		},
//	}))
//
// The person running the server may change the Config's call limits with
// --timeout, --max-output and --max-parallel (or <ROOT>_MCP_TIMEOUT...).
// A program that serves a CLI other than itself sets Options.Outside, and
// one whose purpose is serving puts the commands at its top with
// Options.Parent (cmd/cobramcp does both).
//
// In stdio mode nothing but protocol bytes reaches stdout: start keeps a
// private copy of the stdout descriptor for the protocol and points
// descriptor 1 at stderr before anything else runs.
package mcpcmd
