package otelcol

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/pmetric"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// The binaries under test: $COBRAMCP_BIN and $MYCLI_BIN (make otelcol sets
// them), else built from the repository by TestMain.
var cobramcpBin, mycliBin string

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "cobramcp-otelcol-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	for _, b := range []struct {
		dst *string
		env string
		pkg string
	}{{&cobramcpBin, "COBRAMCP_BIN", "./cmd/cobramcp"}, {&mycliBin, "MYCLI_BIN", "./example"}} {
		if p := os.Getenv(b.env); p != "" {
			if *b.dst, err = filepath.Abs(p); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			continue
		}
		*b.dst = filepath.Join(dir, filepath.Base(b.pkg))
		cmd := exec.Command("go", "build", "-o", *b.dst, b.pkg)
		cmd.Dir = filepath.Join("..", "..")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n", b.pkg, err)
			return 1
		}
	}
	return m.Run()
}

// The client's trace context, sent in params._meta, and the one its HTTP
// requests carry in their traceparent header (another span of the same
// trace, as an HTTP client's instrumentation would make).
const (
	clientTrace  = "0af7651916cd43dd8448eb211c80319c"
	clientSpan   = "b7ad6b7169203331"
	clientParent = "00-" + clientTrace + "-" + clientSpan + "-01"
	headerSpan   = "00f067aa0ba902b7"
	headerParent = "00-" + clientTrace + "-" + headerSpan + "-01"
	// serverParent is a trace the server itself was started in: no
	// call's process may see it.
	serverParent = "00-11111111111111111111111111111111-2222222222222222-01"
)

// secret is a value of a flag and an argument of a call: it must appear
// in nothing the Collector receives.
const secret = "s3cr3t-value-4d1f"

// otelEnv is the server's environment: the Collector's endpoint, short
// batching delays, and a trace of the server's own.
func otelEnv(c *Collector) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OTEL_") && !strings.HasPrefix(kv, "TRACE") {
			env = append(env, kv)
		}
	}
	return append(env,
		"OTEL_EXPORTER_OTLP_ENDPOINT="+c.Endpoint,
		"OTEL_BSP_SCHEDULE_DELAY=100",
		"OTEL_METRIC_EXPORT_INTERVAL=500",
		"OTEL_RESOURCE_ATTRIBUTES=deployment.environment.name=e2e",
		"TRACEPARENT="+serverParent,
		"MYCLI_STATE="+filepath.Join(os.TempDir(), "cobramcp-otelcol-state.json"),
	)
}

// calls makes the test's calls through cs: the process's TRACEPARENT, a
// call with the secret as a flag's value and an argument, a failing one;
// it returns the TRACEPARENT the first call's process saw. meta is the
// calls' _meta (nil: none).
func calls(t *testing.T, cs *mcp.ClientSession, meta mcp.Meta) string {
	t.Helper()
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Meta: meta, Name: "mycli_env-get", Arguments: map[string]any{"args": []string{"TRACEPARENT"}}})
	if err != nil || res.IsError {
		t.Fatalf("mycli_env-get: %v %+v", err, res)
	}
	seen := strings.TrimSpace(res.Content[0].(*mcp.TextContent).Text)
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Meta: meta, Name: "mycli_echo", Arguments: map[string]any{
		"flags": map[string]any{"str": secret, "map": map[string]any{"k": secret}}, "args": []string{secret},
	}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, secret) {
		t.Fatalf("mycli_echo: %v %+v", err, res)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Meta: meta, Name: "mycli_fail", Arguments: map[string]any{"flags": map[string]any{"code": 3}}})
	if err != nil || !res.IsError {
		t.Fatalf("mycli_fail: %v %+v", err, res)
	}
	return seen
}

// span is a received span with its resource's service.name.
type span struct {
	ptrace.Span
	service string
}

func attr(m pcommon.Map, k string) string {
	v, ok := m.Get(k)
	if !ok {
		return ""
	}
	return v.AsString()
}

// receivedSpans reads the spans of the trace the Collector has written,
// waiting until the spans named want have come.
func receivedSpans(t *testing.T, c *Collector, want ...string) []span {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		b, err := ReadFile(c.Traces)
		if err != nil {
			t.Fatal(err)
		}
		var spans []span
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(sc.Bytes())
			if err != nil {
				t.Fatalf("the Collector's traces file: %v", err)
			}
			for i := 0; i < td.ResourceSpans().Len(); i++ {
				rs := td.ResourceSpans().At(i)
				service := attr(rs.Resource().Attributes(), "service.name")
				for j := 0; j < rs.ScopeSpans().Len(); j++ {
					ss := rs.ScopeSpans().At(j).Spans()
					for k := 0; k < ss.Len(); k++ {
						if ss.At(k).TraceID().String() == clientTrace {
							spans = append(spans, span{ss.At(k), service})
						}
					}
				}
			}
		}
		have := map[string]bool{}
		for _, s := range spans {
			have[s.Name()] = true
		}
		missing := ""
		for _, w := range want {
			if !have[w] {
				missing = w
			}
		}
		if missing == "" {
			return spans
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Collector received no span %q of trace %s; it has %v", missing, clientTrace, have)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// checkTrace checks the spans of the test's calls: each call's server span
// is the child of the client's span parent, by the conventions, with its
// phases as events, the process continued the trace from the call's span,
// and the failing call says so.
func checkTrace(t *testing.T, spans []span, parent, transport, seen string) {
	t.Helper()
	byID := map[string]span{}
	for _, s := range spans {
		byID[s.SpanID().String()] = s
	}
	var env span
	for _, s := range spans {
		if s.Name() == "tools/call mycli_env-get" {
			env = s
		}
	}
	if env.Name() == "" {
		t.Fatal("no span tools/call mycli_env-get")
	}
	if env.Kind() != ptrace.SpanKindServer || env.ParentSpanID().String() != parent || env.service != "mycli" {
		t.Errorf("tools/call mycli_env-get: kind %v, parent %s (want %s), service %q", env.Kind(), env.ParentSpanID(), parent, env.service)
	}
	a := env.Attributes()
	for k, v := range map[string]string{
		"mcp.method.name": "tools/call", "gen_ai.tool.name": "mycli_env-get", "gen_ai.operation.name": "execute_tool",
		"network.transport": transport, "cobramcp.call.outcome": "ok", "process.exit.code": "0",
	} {
		if got := attr(a, k); got != v {
			t.Errorf("tools/call mycli_env-get: %s = %q, want %q", k, got, v)
		}
	}
	if attr(a, "mcp.protocol.version") == "" {
		t.Errorf("tools/call mycli_env-get: no mcp.protocol.version: %v", a.AsRaw())
	}
	// The process saw a TRACEPARENT of this trace whose parent is the
	// call's span; validation and the run are its events, and nothing
	// waited, so it has no child span.
	f := strings.Split(seen, "-")
	if len(f) != 4 || f[1] != clientTrace {
		t.Fatalf("the process saw TRACEPARENT %q, want one of trace %s", seen, clientTrace)
	}
	if f[2] != env.SpanID().String() {
		t.Errorf("the process's parent span %s is %q, want the call's %s", f[2], byID[f[2]].Name(), env.SpanID())
	}
	for _, s := range spans {
		if s.ParentSpanID() == env.SpanID() {
			t.Errorf("tools/call mycli_env-get has a child span %q, want none", s.Name())
		}
	}
	var events []string
	for i := range env.Events().Len() {
		events = append(events, env.Events().At(i).Name())
	}
	if strings.Join(events, ",") != "validated,run" {
		t.Errorf("tools/call mycli_env-get: events %q, want validated, run", events)
	}
	for _, s := range spans {
		if s.Name() == "tools/call mycli_fail" {
			fa := s.Attributes()
			if attr(fa, "error.type") != "tool_error" || attr(fa, "cobramcp.call.outcome") != "exit_nonzero" || attr(fa, "process.exit.code") != "3" || s.Status().Code() != ptrace.StatusCodeError {
				t.Errorf("tools/call mycli_fail: %v %v", fa.AsRaw(), s.Status().Code())
			}
		}
	}
}

// noSecret checks that nothing the Collector wrote holds the secret.
func noSecret(t *testing.T, c *Collector) {
	t.Helper()
	for _, p := range []string{c.Traces, c.Metrics} {
		b, err := ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("%s holds a flag's value and an argument", filepath.Base(p))
		}
	}
}

// metricNames reads the metric names the Collector has written, waiting
// until want has come.
func metricNames(t *testing.T, c *Collector, want string) map[string]string {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		b, err := ReadFile(c.Metrics)
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]string{}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			md, err := (&pmetric.JSONUnmarshaler{}).UnmarshalMetrics(sc.Bytes())
			if err != nil {
				t.Fatalf("the Collector's metrics file: %v", err)
			}
			for i := 0; i < md.ResourceMetrics().Len(); i++ {
				sms := md.ResourceMetrics().At(i).ScopeMetrics()
				for j := 0; j < sms.Len(); j++ {
					ms := sms.At(j).Metrics()
					for k := 0; k < ms.Len(); k++ {
						names[ms.At(k).Name()] = ms.At(k).Unit()
					}
				}
			}
		}
		if _, ok := names[want]; ok {
			return names
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Collector received no metric %s; it has %v", want, names)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestStdio: `cobramcp start -- mycli` with the Collector's endpoint in
// OTEL_EXPORTER_OTLP_ENDPOINT; the go-sdk client sends the trace context
// in _meta.
func TestStdio(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, err := Start(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	cmd := exec.Command(cobramcpBin, "start", "--mcp-log-level=warn", "--", mycliBin)
	cmd.Env = otelEnv(c)
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "otelcol-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := calls(t, cs, mcp.Meta{"traceparent": clientParent, "tracestate": "congo=t61rcWkgMzE"})
	if err := cs.Close(); err != nil { // the server flushes its spans as it exits
		t.Logf("closing: %v", err)
	}
	spans := receivedSpans(t, c, "tools/call mycli_env-get", "tools/call mycli_fail")
	checkTrace(t, spans, clientSpan, "pipe", seen)
	names := metricNames(t, c, "mcp.server.operation.duration")
	for _, n := range []string{"mcp.server.operation.duration", "cobramcp.tool.calls", "cobramcp.reflection.duration"} {
		if _, ok := names[n]; !ok {
			t.Errorf("no metric %s: %v", n, names)
		}
	}
	if u := names["mcp.server.operation.duration"]; u != "s" {
		t.Errorf("mcp.server.operation.duration in %q, want s", u)
	}
	noSecret(t, c)
}

// headerClient adds the traceparent header to every request, as an
// instrumented HTTP client does.
type headerClient struct{ next http.RoundTripper }

func (h headerClient) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("traceparent", headerParent)
	return h.next.RoundTrip(r)
}

// TestStream: `cobramcp stream -- mycli`: the trace context in _meta is the
// parent, and the HTTP request's traceparent header a link; without _meta,
// the header is the parent.
func TestStream(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, err := Start(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	addr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(cobramcpBin, "stream", "--mcp-log-level=warn", "--addr", addr, "--", mycliBin)
	cmd.Env = otelEnv(c)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("cobramcp stream never answered /healthz")
		}
		time.Sleep(50 * time.Millisecond)
	}
	transport := &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", HTTPClient: &http.Client{Transport: headerClient{http.DefaultTransport}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "otelcol-test", Version: "1"}, nil).Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	if err != nil {
		t.Fatal(err)
	}
	seen := calls(t, cs, mcp.Meta{"traceparent": clientParent})
	// Without _meta, the header's context is the parent.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_version", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("mycli_version: %v %+v", err, res)
	}
	cs.Close()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("cobramcp stream: %v", err)
	}
	spans := receivedSpans(t, c, "tools/call mycli_env-get", "tools/call mycli_version")
	checkTrace(t, spans, clientSpan, "tcp", seen)
	for _, s := range spans {
		switch s.Name() {
		case "tools/call mycli_env-get":
			links := s.Links()
			if links.Len() != 1 || links.At(0).SpanID().String() != headerSpan {
				t.Errorf("tools/call mycli_env-get: links %d, want the header's span %s", links.Len(), headerSpan)
			}
			if attr(s.Attributes(), "mcp.session.id") == "" || attr(s.Attributes(), "network.protocol.name") != "http" {
				t.Errorf("tools/call mycli_env-get: %v", s.Attributes().AsRaw())
			}
		case "tools/call mycli_version":
			if s.ParentSpanID().String() != headerSpan {
				t.Errorf("tools/call mycli_version: parent %s, want the header's %s", s.ParentSpanID(), headerSpan)
			}
		}
	}
	names := metricNames(t, c, "mcp.server.session.duration")
	if u := names["mcp.server.session.duration"]; u != "s" {
		t.Errorf("mcp.server.session.duration in %q, want s", u)
	}
	noSecret(t, c)
}
