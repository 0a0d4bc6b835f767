package toolset

import (
	"context"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/audit"
	"github.com/cobramcp/cobramcp/internal/exec"
)

type pflagFlag = pflag.Flag

// ServerOptions configure a server made by NewServer.
type ServerOptions struct {
	// Logger receives the server's logs; nil means discard.
	Logger *slog.Logger
	// Context bounds every call the server runs: when it is done, running
	// calls end (their process groups are terminated). nil means no bound
	// beyond each request's own context.
	Context context.Context
	// HideEnv names environment variables that the calls' processes must
	// not see, such as the one holding the server's own token. A name
	// ending in "*" hides every variable beginning with what precedes it
	// ("KUBECTL_MCP_*").
	HideEnv []string
	// Limits share the call slots fairly between the server's callers
	// and cap the calls waiting; the zero value means the defaults.
	Limits Limits
	// Audit, when set, receives one record per tools/call, served or
	// refused, with the pinned values of its argv replaced by "***".
	Audit *audit.Log
	// Confirm names the calls a person confirms before they run, asked
	// through the client (MCP elicitation); check it with
	// Served.CheckConfirm. The zero value asks for none.
	Confirm Confirm
	// Observer, when set, watches every request and call for traces and
	// metrics (package telemetry's); nil: none, at no cost.
	Observer Observer
}

// NewServer returns an MCP server serving the tools of s, as listed (see
// Tools). The server's name and version are the root command's. Serve it
// with package serve, which answers what the go-sdk's transports alone
// would drop or answer wrongly.
func (s *Served) NewServer(opts ServerOptions) *mcp.Server {
	ts := s.ts
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	version := serverVersion(ts.root)
	// The SDK reports each connection at info level; keep its chatter for
	// debug and let its warnings and errors through.
	sdkLogger := slog.New(minLevel{logger.Handler(), slog.LevelWarn})
	if logger.Enabled(context.Background(), slog.LevelDebug) {
		sdkLogger = logger
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: ts.root.Name(), Version: version}, &mcp.ServerOptions{
		Logger:       sdkLogger,
		Instructions: s.instructions(),
		// Advertise only what the server does: tools, whose list never
		// changes while it runs. The SDK's defaults would add logging and
		// tools.listChanged, neither of which it ever sends.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	base := opts.Context
	// The calls' environment, less what the server hides from them; s
	// itself is not changed, so another server made from it, or its Call,
	// still sees Config.Env.
	env := exec.WithoutEnv(ts.cfg.Env, opts.HideEnv)
	confirm := newConfirmer(opts.Confirm, ts.root.Name())
	srv.AddReceivingMiddleware(s.answerUnknownTool)
	auditRefusals(srv, opts.Audit)
	if opts.Observer != nil {
		srv.AddReceivingMiddleware(opts.Observer.Middleware)
	}
	sc := s.serverCall(opts)
	wire := s.list.registered()
	for i, t := range s.list.tools() {
		name := t.Name
		handler := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if base != nil {
				var cancel context.CancelFunc
				ctx, cancel = mergeCancel(ctx, base)
				defer cancel()
			}
			progress, stop := startProgress(ctx, req)
			defer stop()
			return s.callAs(ctx, req, name, callOptions{env: env, progress: progress, confirm: confirm, request: req}, sc), nil
		}
		// The go-sdk checks a schema when the tool is added, and reads a
		// *jsonschema.Schema more cheaply there than its encoding (which it
		// would decode twice more); it keeps the definition it is given and
		// encodes it for every tools/list answer (and, over HTTP, reads it
		// for every call). So it is given a copy of the definition, which,
		// once added and before the server serves, takes the schemas encoded
		// once (see wireDefs): the same bytes on the wire, encoded once.
		reg := *t
		srv.AddTool(&reg, handler)
		reg.InputSchema, reg.OutputSchema = wire[i].InputSchema, wire[i].OutputSchema
	}
	return srv
}

// mergeCancel returns a context derived from ctx that is also done when
// other is done.
func mergeCancel(ctx, other context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(other, func() { cancel(context.Cause(other)) })
	return ctx, func() { stop(); cancel(nil) }
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
// have with the message of [Served.Call], which names the tool most likely
// meant ("did you mean ..."), where the go-sdk would say only "unknown
// tool". The error code stays the go-sdk's, invalid params, as the MCP spec
// asks for an unknown tool.
func (s *Served) answerUnknownTool(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if r, ok := req.(*mcp.CallToolRequest); ok && method == "tools/call" && r.Params != nil {
			if err := s.checkName(r.Params.Name, false); err != nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
			}
		}
		return next(ctx, method, req)
	}
}
