package telemetry

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/cobramcp/cobramcp/internal/caller"
	"github.com/cobramcp/cobramcp/toolset"
)

var _ toolset.Observer = (*Observer)(nil)

// session is what is kept of an MCP session while it lasts.
type session struct {
	version string // the negotiated protocol version
}

// protocolHeader is the streamable HTTP transport's protocol version header.
const protocolHeader = "Mcp-Protocol-Version"

// Middleware observes every request: one server span, named and described
// by the semantic conventions for MCP, whose parent is the trace context in
// the request's params._meta (traceparent, tracestate), else the HTTP
// request's traceparent header (which is then a link); and
// mcp.server.operation.duration. It notes each session that initializes,
// for mcp.server.session.duration.
func (t *Observer) Middleware(next mcp.MethodHandler) mcp.MethodHandler {
	// The work before and after next is in functions of their own, so that
	// this frame, which stays on the goroutine's stack under the whole
	// request, is small: a larger one made the stack of every call grow
	// once more (a copy of it, 10 % of the server's CPU in a profile).
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		r := t.begin(ctx, method, req)
		res, err := next(r.ctx, method, req)
		t.end(r, method, req, res, err)
		return res, err
	}
}

// request is what Middleware keeps of a request while it is handled; the
// context it passes on holds it, for Called.
type request struct {
	ctx    context.Context
	span   trace.Span
	start  time.Time
	header http.Header
	ss     *mcp.ServerSession
	tool   string
	user   attribute.KeyValue
	called *toolset.CallReport // how the tool call ended, when it was one
}

// requestKey is the context key of a request's *request.
type requestKey struct{}

// begin starts the request's span.
//
//go:noinline
func (t *Observer) begin(ctx context.Context, method string, req mcp.Request) *request {
	start := time.Now()
	var header http.Header
	if extra := req.GetExtra(); extra != nil {
		header = extra.Header
	}
	ss, _ := req.GetSession().(*mcp.ServerSession)
	common := t.commonAttrs(header)
	var tool string
	if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil {
		tool = r.Params.Name
	}
	name := method
	spanAttrs := append(make([]attribute.KeyValue, 0, len(common)+5), common...)
	spanAttrs = append(spanAttrs, attribute.String(keyMethod, method))
	if tool != "" {
		name += " " + tool
		spanAttrs = append(spanAttrs, attribute.String(keyTool, tool), attribute.String(keyOperation, operationExecuteTool))
	}
	if ss != nil && ss.ID() != "" {
		spanAttrs = append(spanAttrs, attribute.String(keySession, ss.ID()))
	}
	var user attribute.KeyValue
	if t.bySubject {
		if sub := caller.FromRequest(req).Subject; sub != "" {
			user = attribute.String(keyUser, sub)
			spanAttrs = append(spanAttrs, user)
		}
	}
	parent, links := t.parent(ctx, req, header)
	ctx, span := t.tracer.Start(parent, name, trace.WithSpanKind(trace.SpanKindServer),
		trace.WithTimestamp(start), trace.WithAttributes(spanAttrs...), trace.WithLinks(links...))
	r := &request{span: span, start: start, header: header, ss: ss, tool: tool, user: user}
	r.ctx = context.WithValue(ctx, requestKey{}, r)
	return r
}

// end ends the request's span, records its duration, and notes its
// session.
//
//go:noinline
func (t *Observer) end(r *request, method string, req mcp.Request, res mcp.Result, err error) {
	ctx, span, start, header, ss, tool, user := r.ctx, r.span, r.start, r.header, r.ss, r.tool, r.user
	common := t.commonAttrs(header)
	var errType, code string
	switch {
	case err != nil:
		errType = otherValue
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) {
			code = strconv.FormatInt(rpcErr.Code, 10)
			errType = code
		} else if errors.Is(err, context.Canceled) {
			errType = "canceled"
		}
	default:
		if r, ok := res.(*mcp.CallToolResult); ok && r != nil && r.IsError {
			errType = errorToolError
		}
	}
	version := t.version(req, header, ss)
	if ir, ok := res.(*mcp.InitializeResult); ok && ir != nil && err == nil {
		version = ir.ProtocolVersion
	}
	if ss != nil && err == nil {
		t.sessionSeen(ss, version, header != nil, common)
	}
	key := opKey{http: header != nil, method: method, version: version, errType: errType, code: code}
	if tool != "" {
		// A tool the server does not have (a JSON-RPC error) is not
		// a label of its own: clients could make up names without
		// end.
		key.tool = tool
		if err != nil {
			key.tool = otherValue
			span.SetName(method)
		}
	}
	if user.Valid() {
		key.user = user.Value.AsString()
	}
	if span.IsRecording() {
		// One SetAttributes for all that the end of a request adds.
		var attrs [6]attribute.KeyValue
		n := 0
		if version != "" {
			attrs[n], n = attribute.String(keyProtocolVersion, version), n+1
		}
		if errType != "" {
			attrs[n], n = attribute.String(keyErrorType, errType), n+1
			if code != "" {
				attrs[n], n = attribute.String(keyStatusCode, code), n+1
			}
		}
		if c := r.called; c != nil {
			attrs[n], attrs[n+1], n = attribute.String(keyOutcome, string(c.Outcome)), attribute.String(keyCommandTool, calledTool(*c)), n+2
			if c.Ran {
				attrs[n], n = attribute.Int(keyExitCode, c.ExitCode), n+1
			}
		}
		span.SetAttributes(attrs[:n]...)
		if errType != "" {
			// The error's message is not the description: it may
			// quote what the client sent.
			span.SetStatus(codes.Error, errType)
		}
	}
	span.End()
	t.inst.operation.Record(ctx, time.Since(start).Seconds(), metric.WithAttributeSet(t.opSet(key)))
	if r.called != nil {
		t.count(*r.called, key.user)
	}
}

// commonAttrs are the attributes of the transport of every request and
// session: network.transport, and network.protocol.name over HTTP.
func (t *Observer) commonAttrs(header http.Header) []attribute.KeyValue {
	if header == nil {
		return pipeAttrs
	}
	return httpAttrs
}

// The attributes of the two transports; read only.
var (
	pipeAttrs = []attribute.KeyValue{attribute.String(keyTransport, transportPipe)}
	httpAttrs = []attribute.KeyValue{attribute.String(keyTransport, transportTCP), attribute.String(keyProtocolName, "http")}
)

// version is the request's protocol version: the one its _meta states
// (from 2026-07-28 on, every request does), else its HTTP header's, else
// its session's as negotiated.
func (t *Observer) version(req mcp.Request, header http.Header, ss *mcp.ServerSession) string {
	if v, ok := metaOf(req)[mcp.MetaKeyProtocolVersion].(string); ok && v != "" {
		return v
	}
	if v := header.Get(protocolHeader); v != "" {
		return v
	}
	if ss == nil {
		return ""
	}
	if s, ok := t.sessions.Load(ss); ok {
		return s.(*session).version
	}
	return ""
}

// parent is the context of a request's span: the trace context in its
// params._meta, else its HTTP request's traceparent header; links holds
// the header's when the two differ, as the conventions ask.
func (t *Observer) parent(ctx context.Context, req mcp.Request, header http.Header) (context.Context, []trace.Link) {
	if meta := metaOf(req); len(meta) > 0 {
		mctx := t.propagator.Extract(ctx, metaCarrier(meta))
		if trace.SpanContextFromContext(mctx).IsValid() {
			var links []trace.Link
			if header != nil {
				if hsc := trace.SpanContextFromContext(t.propagator.Extract(ctx, propagation.HeaderCarrier(header))); hsc.IsValid() && !hsc.Equal(trace.SpanContextFromContext(mctx)) {
					links = append(links, trace.Link{SpanContext: hsc})
				}
			}
			return mctx, links
		}
	}
	if header != nil {
		return t.propagator.Extract(ctx, propagation.HeaderCarrier(header)), nil
	}
	return ctx, nil
}

// metaOf is the _meta of a request's params; nil when it has none.
func metaOf(req mcp.Request) map[string]any {
	p := req.GetParams()
	if p == nil {
		return nil
	}
	if v := reflect.ValueOf(p); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	return p.GetMeta()
}

// metaCarrier reads W3C trace context from a request's _meta.
type metaCarrier map[string]any

func (m metaCarrier) Get(key string) string {
	s, _ := m[key].(string)
	return s
}

func (m metaCarrier) Set(string, string) {}

func (m metaCarrier) Keys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// sessionSeen counts a session from its first request answered (its
// initialize, or over stdio with protocols from 2026-07-28 on, which have
// no initialize, its first request) until it ends, and then records its
// duration. Stateless HTTP has no session to count: each request is one
// of its own.
func (t *Observer) sessionSeen(ss *mcp.ServerSession, version string, overHTTP bool, common []attribute.KeyValue) {
	if overHTTP && ss.ID() == "" {
		return
	}
	if _, known := t.sessions.Load(ss); known {
		return
	}
	if _, again := t.sessions.LoadOrStore(ss, &session{version: version}); again {
		return
	}
	start := time.Now()
	attrs := common
	if version != "" {
		attrs = append(append([]attribute.KeyValue(nil), common...), attribute.String(keyProtocolVersion, version))
	}
	t.gauges.sessions.Add(1)
	go func() {
		_ = ss.Wait()
		ctx := context.Background()
		t.gauges.sessions.Add(-1)
		t.inst.session.Record(ctx, time.Since(start).Seconds(), metric.WithAttributes(attrs...))
		t.sessions.Delete(ss)
	}()
}

// phaseNames are the names of the phases' spans (validation and the run
// are events).
var phaseNames = [...]string{
	toolset.PhaseValidate: "validate",
	toolset.PhaseConfirm:  "confirm",
	toolset.PhaseQueue:    "wait for a call slot",
	toolset.PhaseRun:      "run",
}

// Phase begins a child span of the call's for a confirmation or a wait for
// a call slot. Validation is an event "validated" of the call's span, and
// the process's run an event "run" at its start with its duration in
// cobramcp.phase.duration: a span each, with every call, cost more server
// CPU than they tell (test/bench), and the process continues the call's
// span. The queue and run phases count in cobramcp.tool.calls.queued and
// .active while they last.
func (t *Observer) Phase(ctx context.Context, p toolset.Phase) (context.Context, func()) {
	if p == toolset.PhaseValidate {
		// Microseconds: an event of the call's span, when they end, not
		// a span of their own.
		span := trace.SpanFromContext(ctx)
		if !span.IsRecording() {
			return ctx, noEnd
		}
		return ctx, func() { span.AddEvent("validated") }
	}
	if p == toolset.PhaseRun {
		span := trace.SpanFromContext(ctx)
		start := time.Now()
		t.gauges.active.Add(1)
		return ctx, func() {
			t.gauges.active.Add(-1)
			if span.IsRecording() {
				span.AddEvent("run", trace.WithTimestamp(start), trace.WithAttributes(attribute.Float64(keyPhaseDuration, time.Since(start).Seconds())))
			}
		}
	}
	name := "phase"
	if int(p) >= 0 && int(p) < len(phaseNames) {
		name = phaseNames[p]
	}
	ctx, span := t.tracer.Start(ctx, name)
	if p != toolset.PhaseQueue {
		return ctx, func() { span.End() }
	}
	t.gauges.queued.Add(1)
	return ctx, func() {
		t.gauges.queued.Add(-1)
		span.End()
	}
}

// envNames are the variables that carry a trace into a process, by the
// OpenTelemetry specification's environment variable carrier (the W3C
// names, upper case).
var envNames = [...]struct{ key, env string }{
	{"traceparent", "TRACEPARENT"},
	{"tracestate", "TRACESTATE"},
	{"baggage", "BAGGAGE"},
}

// Env returns TRACEPARENT, TRACESTATE and BAGGAGE for ctx (the call's span's),
// each empty when ctx has none, so that the process sees the call's trace
// and never one it would inherit from the server.
func (t *Observer) Env(ctx context.Context) []string {
	var c envCarrier
	t.propagator.Inject(ctx, &c)
	out := make([]string, len(envNames))
	for i, n := range envNames {
		out[i] = n.env + "=" + c[i]
	}
	return out
}

// envCarrier takes what a propagator injects, by the index of its key in
// envNames: no map for three values.
type envCarrier [len(envNames)]string

func (c *envCarrier) Get(string) string { return "" }

func (c *envCarrier) Set(key, value string) {
	for i, n := range envNames {
		if n.key == key {
			c[i] = value
		}
	}
}

func (c *envCarrier) Keys() []string { return nil }

// Called notes how a call ended (the outcome, the exit code, the
// command's tool in search mode): the request's span gets it as
// attributes when it ends, with the counts of the call, in one go.
func (t *Observer) Called(ctx context.Context, r toolset.CallReport) {
	if req, ok := ctx.Value(requestKey{}).(*request); ok {
		req.called = &r
		return
	}
	// Not under the Middleware: counted alone.
	t.count(r, "")
}

// calledTool is the value of cobramcp.call.tool and of a call's
// gen_ai.tool.name label.
func calledTool(r toolset.CallReport) string {
	if r.Tool == "" {
		return otherValue
	}
	return r.Tool
}

// count counts a call by its tool, outcome and, when asked for, user.
// Only the duration of the request has exemplars (the trace of a
// measurement): recording one costs as much as the measurement, and a
// count's or a wait's would point at the same traces.
func (t *Observer) count(r toolset.CallReport, user string) {
	ctx := context.Background()
	sets := t.callSets(callKey{tool: calledTool(r), outcome: r.Outcome, user: user})
	t.inst.calls.Add(ctx, 1, metric.WithAttributeSet(sets.call))
	if r.OutputCut {
		t.inst.outputCut.Add(ctx, 1, metric.WithAttributeSet(sets.tool))
	}
	if r.Ran || r.Waited > 0 || r.Outcome == toolset.OutcomeQueueFull {
		t.inst.wait.Record(ctx, r.Waited.Seconds(), metric.WithAttributeSet(sets.user))
	}
}

// opKey is what the attributes of a request's duration are made of.
type opKey struct {
	http                                       bool
	method, tool, version, errType, code, user string
}

// opSet returns the attribute set of k, made once: sorting and hashing
// the attributes of every request would cost more than recording it.
func (t *Observer) opSet(k opKey) attribute.Set {
	if s, ok := t.sets.Load(k); ok {
		return s.(attribute.Set)
	}
	attrs := append([]attribute.KeyValue{attribute.String(keyMethod, k.method)}, pipeAttrs...)
	if k.http {
		attrs = append([]attribute.KeyValue{attribute.String(keyMethod, k.method)}, httpAttrs...)
	}
	if k.tool != "" {
		attrs = append(attrs, attribute.String(keyTool, k.tool), attribute.String(keyOperation, operationExecuteTool))
	}
	for _, kv := range []struct{ key, v string }{{keyProtocolVersion, k.version}, {keyErrorType, k.errType}, {keyStatusCode, k.code}, {keyUser, k.user}} {
		if kv.v != "" {
			attrs = append(attrs, attribute.String(kv.key, kv.v))
		}
	}
	s, _ := t.sets.LoadOrStore(k, attribute.NewSet(attrs...))
	return s.(attribute.Set)
}

// callKey is what the attributes of a call's counts are made of.
type callKey struct {
	tool    string
	outcome toolset.Outcome
	user    string
}

// callAttrs are the attribute sets of a call's metrics: by tool and
// outcome, by tool, and by no more than the user.
type callAttrs struct{ call, tool, user attribute.Set }

// callSets returns the attribute sets of k, made once.
func (t *Observer) callSets(k callKey) callAttrs {
	if s, ok := t.sets.Load(k); ok {
		return s.(callAttrs)
	}
	var user []attribute.KeyValue
	if k.user != "" {
		user = append(user, attribute.String(keyUser, k.user))
	}
	tool := attribute.String(keyTool, k.tool)
	c := callAttrs{
		call: attribute.NewSet(append([]attribute.KeyValue{tool, attribute.String(keyOutcome, string(k.outcome))}, user...)...),
		tool: attribute.NewSet(append([]attribute.KeyValue{tool}, user...)...),
		user: attribute.NewSet(user...),
	}
	s, _ := t.sets.LoadOrStore(k, c)
	return s.(callAttrs)
}

func noEnd() {}
