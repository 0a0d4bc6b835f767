package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus/testutil/promlint"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/test/proctest"
)

// The trace context the tests' clients send in _meta.
const (
	traceID     = "4bf92f3577b34da6a3ce929d0e0e4736"
	clientSpan  = "00f067aa0ba902b7"
	traceParent = "00-" + traceID + "-" + clientSpan + "-01"
	traceState  = "congo=t61rcWkgMzE"
)

// startTeamStream runs the team example's `mcp stream` (with telemetry) on
// loopback with /metrics on a listener of its own, and returns the MCP
// endpoint's URL and the metrics URL.
func startTeamStream(t *testing.T, env ...string) (mcpURL, metricsURL string) {
	t.Helper()
	cmd := exec.Command(teamBin, "mcp", "stream", "--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0")
	cmd.Env = append(append(os.Environ(), mycli.StateEnv+"="+filepath.Join(t.TempDir(), "state.json")), env...)
	for _, u := range proctest.Serve(t, cmd, 2) {
		if strings.HasSuffix(u, "/metrics") {
			metricsURL = u
		} else {
			mcpURL = u
		}
	}
	return mcpURL, metricsURL
}

// scrape reads /metrics and parses it with the Prometheus text parser,
// after checking it against promlint's rules (promtool check metrics).
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
	}
	problems, err := promlint.New(bytes.NewReader(body)).Lint()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("promlint: %s: %s", p.Metric, p.Text)
	}
	parser := expfmt.NewTextParser(model.LegacyValidation)
	families, err := parser.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("the Prometheus text parser: %v", err)
	}
	return families
}

// value is the value of the series of f with the labels of want (its
// count for a histogram); -1 when there is none.
func value(f *dto.MetricFamily, want map[string]string) float64 {
	for _, m := range f.GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		match := true
		for k, v := range want {
			if labels[k] != v {
				match = false
			}
		}
		if !match {
			continue
		}
		switch f.GetType() {
		case dto.MetricType_COUNTER:
			return m.GetCounter().GetValue()
		case dto.MetricType_GAUGE:
			return m.GetGauge().GetValue()
		case dto.MetricType_HISTOGRAM:
			return float64(m.GetHistogram().GetSampleCount())
		}
	}
	return -1
}

// TestTelemetryTypeScriptClient: the official TypeScript client sends the
// trace context in a call's _meta; the call's process sees it as
// TRACEPARENT and TRACESTATE (the server exports no traces here, so it
// passes the client's own on) rather than the server's; /metrics, scraped
// with the Prometheus text parser, passes promlint and counts the calls
// and the session, which has ended.
func TestTelemetryTypeScriptClient(t *testing.T) {
	nodeModules(t)
	mcpURL, metricsURL := startTeamStream(t, "TRACEPARENT=00-11111111111111111111111111111111-2222222222222222-01", "TRACESTATE=server=1")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nodeBin(t), "trace-client.mjs", mcpURL, traceParent, traceState)
	cmd.Dir = nodeDir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		t.Fatalf("trace-client.mjs: %v\nstdout:\n%s\nstderr:\n%s", err, o.String(), e.String())
	}
	var seen struct{ Traceparent, Tracestate string }
	if err := json.Unmarshal(o.Bytes(), &seen); err != nil {
		t.Fatalf("%q: %v", o.String(), err)
	}
	if seen.Traceparent != traceParent || seen.Tracestate != traceState {
		t.Errorf("the process saw TRACEPARENT %q TRACESTATE %q, want the client's %q %q", seen.Traceparent, seen.Tracestate, traceParent, traceState)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		fams := scrape(t, metricsURL)
		calls := value(fams["cobramcp_tool_calls_total"], map[string]string{"gen_ai_tool_name": "mycli_env-get", "cobramcp_call_outcome": "ok"})
		ops := value(fams["mcp_server_operation_duration_seconds"], map[string]string{"mcp_method_name": "tools/call", "gen_ai_tool_name": "mycli_env-get", "network_transport": "tcp", "network_protocol_name": "http"})
		ended := value(fams["mcp_server_session_duration_seconds"], map[string]string{"network_transport": "tcp"})
		open := value(fams["cobramcp_sessions_active"], nil)
		if calls == 2 && ops == 2 && ended == 1 && open == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/metrics: calls %v, tools/call durations %v, sessions ended %v, open %v; want 2, 2, 1, 0", calls, ops, ended, open)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// otlpSink is an OTLP/HTTP endpoint that decodes the spans it is sent with
// OTLP's own protobuf types.
type otlpSink struct {
	mu    sync.Mutex
	spans []*tracepb.Span
	names map[string]string // service.name of each span, by span ID
}

func (s *otlpSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	if err != nil || r.URL.Path != "/v1/traces" {
		w.WriteHeader(http.StatusOK) // metrics: not this test's
		return
	}
	var req coltracepb.ExportTraceServiceRequest
	if err := proto.Unmarshal(b, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, rs := range req.GetResourceSpans() {
		service := ""
		for _, a := range rs.GetResource().GetAttributes() {
			if a.GetKey() == "service.name" {
				service = a.GetValue().GetStringValue()
			}
		}
		for _, ss := range rs.GetScopeSpans() {
			for _, sp := range ss.GetSpans() {
				s.spans = append(s.spans, sp)
				s.names[string(sp.GetSpanId())] = service
			}
		}
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	_, _ = w.Write(out)
}

// TestTelemetryStdioOTLP: `mycli mcp start` of the team example, with
// OTEL_EXPORTER_OTLP_ENDPOINT set, sends the spans of its calls over
// OTLP/HTTP: the call's span is the child of the client's span from _meta,
// and the process saw a TRACEPARENT whose parent is the call's run span.
// (test/otelcol does the same against a real OpenTelemetry Collector.)
func TestTelemetryStdioOTLP(t *testing.T) {
	sink := &otlpSink{names: map[string]string{}}
	srv := httptest.NewServer(sink)
	defer srv.Close()
	cmd := exec.Command(teamBin, "mcp", "start", "--mcp-log-level", "warn")
	cmd.Env = append(os.Environ(), mycli.StateEnv+"="+filepath.Join(t.TempDir(), "state.json"),
		"OTEL_EXPORTER_OTLP_ENDPOINT="+srv.URL, "OTEL_TRACES_EXPORTER=", "OTEL_METRICS_EXPORTER=none", "OTEL_SDK_DISABLED=",
		"OTEL_EXPORTER_OTLP_PROTOCOL=", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=", "TRACEPARENT=00-11111111111111111111111111111111-2222222222222222-01")
	cmd.Stderr = os.Stderr
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Meta: mcp.Meta{"traceparent": traceParent}, Name: "mycli_env-get", Arguments: map[string]any{"args": []string{"TRACEPARENT"}}})
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	seen := strings.TrimSpace(res.Content[0].(*mcp.TextContent).Text)
	cs.Close() // the server sends what is left as it exits
	f := strings.Split(seen, "-")
	if len(f) != 4 || f[1] != traceID {
		t.Fatalf("the process saw TRACEPARENT %q, want one of trace %s", seen, traceID)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		sink.mu.Lock()
		var call *tracepb.Span
		for _, sp := range sink.spans {
			if sp.GetName() == "tools/call mycli_env-get" {
				call = sp
			}
		}
		sink.mu.Unlock()
		if call != nil {
			if hexOf(call.GetTraceId()) != traceID || hexOf(call.GetParentSpanId()) != clientSpan || call.GetKind() != tracepb.Span_SPAN_KIND_SERVER {
				t.Errorf("tools/call mycli_env-get: trace %x parent %x kind %v", call.GetTraceId(), call.GetParentSpanId(), call.GetKind())
			}
			// The process continued the trace from the call's span,
			// whose events say when it ran.
			if hexOf(call.GetSpanId()) != f[2] {
				t.Errorf("the process's parent span %s, want the call's %x", f[2], call.GetSpanId())
			}
			var events []string
			for _, ev := range call.GetEvents() {
				events = append(events, ev.GetName())
			}
			if strings.Join(events, ",") != "validated,run" {
				t.Errorf("tools/call mycli_env-get: events %q, want validated, run", events)
			}
			if sink.names[string(call.GetSpanId())] != "mycli" {
				t.Errorf("service.name %q, want mycli", sink.names[string(call.GetSpanId())])
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no span tools/call mycli_env-get: %d spans received", len(sink.spans))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 2*len(b))
	for i, c := range b {
		out[2*i], out[2*i+1] = digits[c>>4], digits[c&15]
	}
	return string(out)
}
