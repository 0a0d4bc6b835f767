package bridge

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/cobramcp/cobramcp/serve"
	"github.com/cobramcp/cobramcp/toolset"

	"github.com/spf13/cobra"
)

func newStartCmd(o *Options) *cobra.Command {
	var pf *policyFlags
	var cf *callFlags
	var kf *confirmFlags
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
			began := time.Now()
			ts, err := pf.load(o, c)
			if err != nil {
				return err
			}
			tel, err := startTelemetry(c.Context(), o, c, ts, began, nil, log)
			if err != nil {
				return err
			}
			defer tel.shutdown()
			confirm, err := kf.read(o, c, ts)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			calls, endCalls := context.WithCancel(ctx) // a signal ends the running calls too
			defer endCalls()
			opts := toolset.ServerOptions{Logger: log, Context: calls, HideEnv: hiddenVars(o, c), Confirm: confirm, Observer: tel.observer()}
			closeAudit, err := cf.apply(c, serverName(o, c), log, &opts)
			if err != nil {
				return err
			}
			defer closeAudit()
			srv := ts.NewServer(opts)
			log.Info("serving MCP on stdio", "tools", len(ts.Tools()))
			err = serve.Stdio(ctx, srv, os.Stdin, proto)
			endCalls()
			ts.Wait()
			if err != nil {
				return fmt.Errorf("mcp server: %w", err)
			}
			log.Info("MCP server stopped")
			return nil
		},
	}
	pf = addPolicyFlags(c, toolset.ToolModeAuto)
	cf = addCallFlags(c, false)
	addLimitFlags(c)
	kf = addConfirmFlags(c)
	return c
}
