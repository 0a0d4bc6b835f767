package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/cmd"
)

type pflagFlag = pflag.Flag

// NewServer returns an MCP server serving the tools that opts selects. The
// server's name and version are the root command's.
func (ts *Toolset) NewServer(opts cmd.ServerOptions) (*mcp.Server, error) {
	if len(opts.Tools) > 0 {
		if ts.view != nil {
			return nil, errors.New("bridge: ServerOptions.Tools with a policy applied: put the patterns in the policy")
		}
		v, err := ts.Restrict(cmd.Policy{Tools: opts.Tools})
		if err != nil {
			return nil, err
		}
		rest := opts
		rest.Tools = nil
		return v.NewServer(rest)
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	version := ts.root.Version
	if version == "" {
		version = "devel"
	}
	// The SDK reports each connection at info level; keep its chatter for
	// debug and let its warnings and errors through.
	sdkLogger := slog.New(minLevel{logger.Handler(), slog.LevelWarn})
	if logger.Enabled(context.Background(), slog.LevelDebug) {
		sdkLogger = logger
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: ts.root.Name(), Version: version}, &mcp.ServerOptions{
		Logger:       sdkLogger,
		Instructions: ts.Instructions(),
		// Advertise only what the server does: tools, whose list never
		// changes while it runs. The SDK's defaults would add logging and
		// tools.listChanged, neither of which it ever sends.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	base := opts.Context
	ts = ts.hiding(opts.HideEnv)
	srv.AddReceivingMiddleware(ts.answerUnknownTool)
	handle := func(run func(context.Context, json.RawMessage, progressFunc) *mcp.CallToolResult) mcp.ToolHandler {
		return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if base != nil {
				var cancel context.CancelFunc
				ctx, cancel = mergeCancel(ctx, base)
				defer cancel()
			}
			progress, stop := startProgress(ctx, req)
			defer stop()
			return run(ctx, req.Params.Arguments, progress), nil
		}
	}
	if ts.view != nil && ts.view.search != nil {
		for _, t := range ts.view.search.tools() {
			srv.AddTool(t, handle(ts.view.search.handler(t.Name)))
		}
		return srv, nil
	}
	for _, t := range ts.tools {
		srv.AddTool(ts.listedTool(t), handle(func(ctx context.Context, args json.RawMessage, p progressFunc) *mcp.CallToolResult {
			return ts.callServed(ctx, t, args, p)
		}))
	}
	return srv, nil
}

// mergeCancel returns a context derived from ctx that is also done when
// other is done.
func mergeCancel(ctx, other context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(other, func() { cancel(context.Cause(other)) })
	return ctx, func() { stop(); cancel(nil) }
}

// Command returns the command group ("mcp" by default) that serves root's
// commands as MCP tools; add it to the root command:
//
//	root.AddCommand(bridge.Command(nil))
//
// The tree is reflected when a sub-command runs, so commands added after
// this call are served too. A nil cfg means the defaults.
func Command(cfg *Config) *cobra.Command {
	c := withDefaults(cfg)
	var group *cobra.Command
	group = cmd.New(cmd.Options{
		Name: c.CommandName,
		Load: func(sub *cobra.Command) (cmd.Toolset, error) {
			lc := c
			if cfg == nil || cfg.Logger == nil {
				l, err := cmd.Logger(sub)
				if err != nil {
					return nil, err
				}
				lc.Logger = l
			}
			return Tools(sub.Root(), &lc)
		},
		DefaultEnv: func() map[string]string { return captureEnv(c.DefaultEnv) },
	})
	if group.Annotations == nil {
		group.Annotations = map[string]string{}
	}
	group.Annotations[groupAnnotation] = "true"
	return group
}

// minLevel is a slog.Handler that drops records below a level.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(as []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(as), h.min}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h.Handler.WithGroup(name), h.min}
}

// answerUnknownTool answers a tools/call for a tool the server does not
// have with the message of [Toolset.Call], which names the tool most likely
// meant ("did you mean ..."), where the go-sdk would say only "unknown
// tool". The error code stays the go-sdk's, invalid params, as the MCP spec
// asks for an unknown tool.
func (ts *Toolset) answerUnknownTool(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if r, ok := req.(*mcp.CallToolRequest); ok && method == "tools/call" && r.Params != nil {
			if err := ts.checkName(r.Params.Name, false); err != nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
			}
		}
		return next(ctx, method, req)
	}
}
