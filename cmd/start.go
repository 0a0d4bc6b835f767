package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

func newStartCmd(o *Options) *cobra.Command {
	var pf *policyFlags
	c := &cobra.Command{
		Use:   "start",
		Short: "Serve the tools over stdio (what MCP clients launch)",
		Long: "Serve this CLI's commands as MCP tools on stdin/stdout, the transport that Claude Desktop,\n" +
			"VS Code, Cursor and Claude Code use. Logs go to stderr. The server exits when the client\n" +
			"closes stdin, or on SIGINT/SIGTERM; running calls are ended with their process groups.",
		Args: flagsOnly,
		RunE: func(c *cobra.Command, _ []string) error {
			// Keep a private copy of stdout for the protocol and point
			// descriptor 1 at stderr, so that nothing else the process
			// prints can corrupt the stream.
			proto, err := protectStdout()
			if err != nil {
				return err
			}
			defer proto.Close()
			log, err := logger(c)
			if err != nil {
				return err
			}
			ts, err := pf.load(o, c)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			calls, endCalls := context.WithCancel(ctx) // a signal ends the running calls too
			defer endCalls()
			srv, err := ts.NewServer(ServerOptions{Logger: log, Context: calls})
			if err != nil {
				return err
			}
			log.Info("serving MCP on stdio", "tools", len(ts.Tools()))
			err = srv.Run(ctx, stdioTransport(os.Stdin, proto, maxMessage))
			endCalls()
			ts.Wait()
			if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) && ctx.Err() == nil {
				return fmt.Errorf("mcp server: %w", err)
			}
			log.Info("MCP server stopped")
			return nil
		},
	}
	pf = addPolicyFlags(c, ToolModeAuto)
	return c
}
