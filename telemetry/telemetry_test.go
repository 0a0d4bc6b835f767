package telemetry

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus/testutil/promlint"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/spf13/cobra"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/cobramcp/cobramcp/test/mcptest"
	"github.com/cobramcp/cobramcp/toolset"
)

// secret is an argument value that must appear in no span and no metric.
const secret = "s3cr3t-argument-value"

// clientParent is the traceparent the test's client sends in _meta.
const (
	clientTrace  = "4bf92f3577b34da6a3ce929d0e0e4736"
	clientSpan   = "00f067aa0ba902b7"
	clientParent = "00-" + clientTrace + "-" + clientSpan + "-01"
)

// cli writes a script that stands for the served CLI: `echo` prints the
// trace variables it was given, `fail` exits 4, `sleep` sleeps. Its
// environment holds a trace of the server's own, which no call may see.
func cli(t *testing.T) (*toolset.Served, string) {
	t.Helper()
	dir := t.TempDir()
	script := filepath.Join(dir, "cli")
	body := "#!/bin/sh\ncase \"$1\" in\n" +
		"echo) echo \"TRACEPARENT=${TRACEPARENT-unset} TRACESTATE=${TRACESTATE-unset}\";;\n" +
		"fail) echo no >&2; exit 4;;\n" +
		"*) echo ok;;\nesac\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	root := &cobra.Command{Use: "tt", Version: "1.2.3"}
	root.PersistentFlags().String("token", "", "a flag whose value is secret")
	for _, use := range []string{"echo [ARGS...]", "fail", "describe NAME"} {
		c := &cobra.Command{Use: use, RunE: func(*cobra.Command, []string) error { return nil }}
		if use == "describe NAME" {
			c.Args = cobra.ExactArgs(1)
		}
		root.AddCommand(c)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "TRACEPARENT=00-11111111111111111111111111111111-2222222222222222-01", "TRACESTATE=server=1"}
	ts, err := toolset.New(root, &toolset.Config{Executable: script, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	v, err := ts.View(toolset.Listing{})
	if err != nil {
		t.Fatal(err)
	}
	return v, dir
}

// attrs maps a span's attributes to their values as strings.
func attrs(s sdktrace.ReadOnlySpan) map[string]string {
	m := map[string]string{}
	for _, kv := range s.Attributes() {
		m[string(kv.Key)] = kv.Value.Emit()
	}
	return m
}

// TestSpans: one server span per request, named and described by the MCP
// conventions, whose parent is the client's traceparent from _meta; the
// call's validation and run are its events; the process sees a TRACEPARENT of the
// same trace, whose parent is the call's span; failures carry error.type; no
// argument value is anywhere.
func TestSpans(t *testing.T) {
	v, _ := cli(t)
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	began := time.Now().Add(-30 * time.Millisecond)
	obs, err := newObserver(context.Background(), toolset.ObserverConfig{Service: "tt", ReflectionStart: began, Reflection: 20 * time.Millisecond}, tp, mp)
	if err != nil {
		t.Fatal(err)
	}
	cs := mcptest.Connect(t, v.NewServer(toolset.ServerOptions{Observer: obs}))
	meta := mcp.Meta{"traceparent": clientParent, "tracestate": "rojo=00f067aa0ba902b7"}
	call := func(name string, args map[string]any) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Meta: meta, Name: name, Arguments: args})
		if err != nil {
			if name == "tt_nope" {
				return nil
			}
			t.Fatal(err)
		}
		return res
	}
	echo := call("tt_echo", map[string]any{"flags": map[string]any{"token": secret}, "args": []string{secret}})
	fail := call("tt_fail", map[string]any{"flags": map[string]any{"token": secret}})
	invalid := call("tt_describe", map[string]any{"args": []string{secret, secret}})
	call("tt_nope", map[string]any{"args": []string{secret}})
	if fail == nil || !fail.IsError || invalid == nil || !invalid.IsError {
		t.Fatalf("fail %v, invalid %v: want errors", fail, invalid)
	}

	spans := rec.Ended()
	byName := map[string][]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		byName[s.Name()] = append(byName[s.Name()], s)
		for k, v := range attrs(s) {
			if strings.Contains(v, secret) {
				t.Errorf("span %q: attribute %s holds an argument value: %q", s.Name(), k, v)
			}
		}
		if strings.Contains(s.Name(), secret) || strings.Contains(s.Status().Description, secret) {
			t.Errorf("span %q (%s) holds an argument value", s.Name(), s.Status().Description)
		}
	}
	one := func(name string) sdktrace.ReadOnlySpan {
		t.Helper()
		if len(byName[name]) != 1 {
			var names []string
			for _, s := range spans {
				names = append(names, s.Name())
			}
			t.Fatalf("%d spans named %q, want 1; spans: %q", len(byName[name]), name, names)
		}
		return byName[name][0]
	}

	ok := one("tools/call tt_echo")
	if ok.SpanKind() != trace.SpanKindServer {
		t.Errorf("kind %v, want server", ok.SpanKind())
	}
	if ok.Parent().TraceID().String() != clientTrace || ok.Parent().SpanID().String() != clientSpan || !ok.Parent().IsRemote() {
		t.Errorf("parent %v, want the client's %s", ok.Parent(), clientParent)
	}
	want := map[string]string{
		keyMethod: "tools/call", keyTool: "tt_echo", keyOperation: "execute_tool", keyTransport: "pipe",
		keyOutcome: "ok", keyCommandTool: "tt_echo", keyExitCode: "0",
	}
	got := attrs(ok)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("tools/call tt_echo: %s = %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	if got[keyProtocolVersion] == "" || got[keyErrorType] != "" || ok.Status().Code == codes.Error {
		t.Errorf("tools/call tt_echo: %v %v", got, ok.Status())
	}
	// Validation and the process's run are events of the call's span (a
	// span each would cost more than they tell), the run with its
	// duration; nothing here queued or asked for a confirmation, so the
	// call has no child span.
	for _, s := range spans {
		if s.Parent().SpanID() == ok.SpanContext().SpanID() {
			t.Errorf("the call has a child span %q, want none", s.Name())
		}
	}
	ev := ok.Events()
	if len(ev) != 2 || ev[0].Name != "validated" || ev[1].Name != "run" {
		t.Fatalf("the call's events %v, want validated, run", ev)
	}
	if d := ev[1].Attributes; len(d) != 1 || d[0].Key != keyPhaseDuration || d[0].Value.AsFloat64() <= 0 || d[0].Value.AsFloat64() > 60 {
		t.Errorf("the run event's attributes %v, want %s in seconds", d, keyPhaseDuration)
	}
	if ev[1].Time.Before(ev[0].Time) || ev[1].Time.After(ok.EndTime()) {
		t.Errorf("the run event at %v, want after validation (%v) and before the span's end (%v)", ev[1].Time, ev[0].Time, ok.EndTime())
	}
	// The process continued the trace from the call's span, and saw no
	// trace state of the server's.
	run := ok
	wantEnv := fmt.Sprintf("TRACEPARENT=00-%s-%s-01 TRACESTATE=rojo=00f067aa0ba902b7", clientTrace, run.SpanContext().SpanID())
	if out := mcptest.Text(echo); !strings.Contains(out, wantEnv) {
		t.Errorf("the process saw %q, want %q", out, wantEnv)
	}

	failed := attrs(one("tools/call tt_fail"))
	if failed[keyErrorType] != "tool_error" || failed[keyOutcome] != "exit_nonzero" || failed[keyExitCode] != "4" {
		t.Errorf("tools/call tt_fail: %v", failed)
	}
	if s := one("tools/call tt_fail"); s.Status().Code != codes.Error || s.Status().Description != "tool_error" {
		t.Errorf("tools/call tt_fail: status %v", s.Status())
	}
	refused := attrs(one("tools/call tt_describe"))
	if refused[keyOutcome] != "invalid_arguments" || refused[keyErrorType] != "tool_error" || refused[keyExitCode] != "" {
		t.Errorf("tools/call tt_describe: %v", refused)
	}
	// A tool the server does not have: the span is named by the method
	// alone, with the JSON-RPC error code.
	unknown := attrs(one("tools/call"))
	if unknown[keyErrorType] != "-32602" || unknown[keyStatusCode] != "-32602" || unknown[keyTool] != "tt_nope" {
		t.Errorf("tools/call tt_nope: %v", unknown)
	}
	if r := one("reflect"); !r.StartTime().Equal(began) || r.EndTime().Sub(r.StartTime()) != 20*time.Millisecond {
		t.Errorf("reflect span %v to %v", r.StartTime(), r.EndTime())
	}
	one("server/discover") // the go-sdk client's first request at protocol 2026-07-28

	// The metrics: every request's duration by the conventions, the calls
	// by outcome; an unknown tool is no label of its own.
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			for _, set := range attributeSets(m.Data) {
				for _, kv := range set.ToSlice() {
					if strings.Contains(kv.Value.Emit(), secret) || kv.Value.Emit() == "tt_nope" {
						t.Errorf("%s: label %s=%q", m.Name, kv.Key, kv.Value.Emit())
					}
				}
				seen[m.Name+" "+set.Encoded(attribute.DefaultEncoder())] = true
			}
		}
	}
	for _, w := range []string{
		"cobramcp.tool.calls cobramcp.call.outcome=ok,gen_ai.tool.name=tt_echo",
		"cobramcp.tool.calls cobramcp.call.outcome=exit_nonzero,gen_ai.tool.name=tt_fail",
		"cobramcp.tool.calls cobramcp.call.outcome=invalid_arguments,gen_ai.tool.name=tt_describe",
		"cobramcp.sessions.active ",
		"cobramcp.reflection.duration cobramcp.reflection.source=inside",
	} {
		if !seen[w] {
			t.Errorf("no series %s", w)
		}
	}
	var ops []string
	for k := range seen {
		if strings.HasPrefix(k, "mcp.server.operation.duration ") && strings.Contains(k, "tools/call") {
			ops = append(ops, strings.TrimPrefix(k, "mcp.server.operation.duration "))
		}
	}
	slices.Sort(ops)
	wantOps := []string{
		"error.type=-32602,gen_ai.operation.name=execute_tool,gen_ai.tool.name=_OTHER,mcp.method.name=tools/call,mcp.protocol.version=2026-07-28,network.transport=pipe,rpc.response.status_code=-32602",
		"error.type=tool_error,gen_ai.operation.name=execute_tool,gen_ai.tool.name=tt_describe,mcp.method.name=tools/call,mcp.protocol.version=2026-07-28,network.transport=pipe",
		"error.type=tool_error,gen_ai.operation.name=execute_tool,gen_ai.tool.name=tt_fail,mcp.method.name=tools/call,mcp.protocol.version=2026-07-28,network.transport=pipe",
		"gen_ai.operation.name=execute_tool,gen_ai.tool.name=tt_echo,mcp.method.name=tools/call,mcp.protocol.version=2026-07-28,network.transport=pipe",
	}
	if !slices.Equal(ops, wantOps) {
		t.Errorf("mcp.server.operation.duration of tools/call:\n%s\nwant\n%s", strings.Join(ops, "\n"), strings.Join(wantOps, "\n"))
	}
}

// attributeSets are the attribute sets of a metric's data points.
func attributeSets(d metricdata.Aggregation) []attribute.Set {
	var out []attribute.Set
	switch d := d.(type) {
	case metricdata.Sum[int64]:
		for _, p := range d.DataPoints {
			out = append(out, p.Attributes)
		}
	case metricdata.Sum[float64]:
		for _, p := range d.DataPoints {
			out = append(out, p.Attributes)
		}
	case metricdata.Histogram[float64]:
		for _, p := range d.DataPoints {
			out = append(out, p.Attributes)
		}
	}
	return out
}

// TestPrometheus: /metrics, scraped after real calls, parses with the
// Prometheus text parser, passes promlint's rules, and holds the
// conventions' metrics under their Prometheus names, with their buckets.
func TestPrometheus(t *testing.T) {
	clearOTel(t)
	var made []*mcp.CallToolParams
	for _, name := range []string{"tt_echo", "tt_echo", "tt_fail"} {
		made = append(made, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"flags": map[string]any{"token": secret}}})
	}
	srv := servedMetrics(t, toolset.ObserverConfig{Service: "tt", Version: "1.2.3", Metrics: true}, made...)
	body, _ := scrape(t, srv, "")
	if strings.Contains(string(body), secret) {
		t.Errorf("/metrics holds an argument value")
	}
	problems, err := promlint.New(strings.NewReader(string(body))).Lint()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("promlint: %s: %s", p.Metric, p.Text)
	}
	parser := expfmt.NewTextParser(model.LegacyValidation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	for name, typ := range map[string]dto.MetricType{
		"mcp_server_operation_duration_seconds": dto.MetricType_HISTOGRAM,
		"mcp_server_session_duration_seconds":   dto.MetricType_HISTOGRAM,
		"cobramcp_tool_calls_total":             dto.MetricType_COUNTER,
		"cobramcp_tool_queue_duration_seconds":  dto.MetricType_HISTOGRAM,
		"cobramcp_tool_calls_active":            dto.MetricType_GAUGE,
		"cobramcp_tool_calls_queued":            dto.MetricType_GAUGE,
		"cobramcp_sessions_active":              dto.MetricType_GAUGE,
		"process_cpu_seconds_total":             dto.MetricType_COUNTER,
	} {
		f := families[name]
		if f == nil {
			if name == "mcp_server_session_duration_seconds" {
				continue // no session has ended yet: no series
			}
			t.Errorf("no %s", name)
			continue
		}
		if f.GetType() != typ {
			t.Errorf("%s is a %v, want %v", name, f.GetType(), typ)
		}
	}
	calls := map[string]float64{}
	for _, m := range families["cobramcp_tool_calls_total"].GetMetric() {
		l := map[string]string{}
		for _, p := range m.GetLabel() {
			l[p.GetName()] = p.GetValue()
		}
		calls[l["gen_ai_tool_name"]+" "+l["cobramcp_call_outcome"]] = m.GetCounter().GetValue()
	}
	if calls["tt_echo ok"] != 2 || calls["tt_fail exit_nonzero"] != 1 {
		t.Errorf("cobramcp_tool_calls_total %v", calls)
	}
	var bounds []float64
	for _, m := range families["mcp_server_operation_duration_seconds"].GetMetric() {
		bounds = bounds[:0]
		for _, b := range m.GetHistogram().GetBucket() {
			bounds = append(bounds, b.GetUpperBound())
		}
	}
	if len(bounds) == 0 || !slices.Equal(bounds[:len(bounds)-1], durationBuckets) || !math.IsInf(bounds[len(bounds)-1], 1) {
		t.Errorf("mcp_server_operation_duration_seconds buckets %v, want %v", bounds, durationBuckets)
	}
}

// clearOTel unsets every OTEL_ variable for the test.
func clearOTel(t *testing.T) {
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "OTEL_") {
			t.Setenv(name, "")
			os.Unsetenv(name)
		}
	}
}

// TestConfiguration: the standard variables decide what is exported;
// nothing configured is no observer at all.
func TestConfiguration(t *testing.T) {
	for _, tt := range []struct {
		env             map[string]string
		traces, metrics bool
		err             string
	}{
		{env: nil},
		{env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, traces: true, metrics: true},
		{env: map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces"}, traces: true},
		{env: map[string]string{"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "http://collector:4318/v1/metrics"}, metrics: true},
		{env: map[string]string{"OTEL_TRACES_EXPORTER": "otlp"}, traces: true},
		{env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_METRICS_EXPORTER": "none"}, traces: true},
		{env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SDK_DISABLED": "true"}},
		{env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"}, traces: true, metrics: true},
		{env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, err: "OTEL_EXPORTER_OTLP_PROTOCOL=grpc: this server sends OTLP over HTTP"},
		{env: map[string]string{"OTEL_TRACES_EXPORTER": "zipkin"}, err: "OTEL_TRACES_EXPORTER=zipkin: this server exports otlp"},
		{env: map[string]string{"OTEL_METRICS_EXPORTER": "prometheus"}, err: "--metrics-addr"},
	} {
		t.Run(fmt.Sprint(tt.env), func(t *testing.T) {
			clearOTel(t)
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			traces, terr := otlpWanted("TRACES")
			metrics, merr := otlpWanted("METRICS")
			err := terr
			if err == nil {
				err = merr
			}
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want %q", err, tt.err)
				}
				if _, err := New(context.Background(), toolset.ObserverConfig{}); err == nil {
					t.Fatal("New accepted it")
				}
				return
			}
			if err != nil || traces != tt.traces || metrics != tt.metrics {
				t.Fatalf("traces %v metrics %v err %v, want %v %v", traces, metrics, err, tt.traces, tt.metrics)
			}
			obs, err := New(context.Background(), toolset.ObserverConfig{Service: "tt"})
			if err != nil {
				t.Fatal(err)
			}
			if (obs != nil) != (traces || metrics) {
				t.Fatalf("New returned %v with traces %v metrics %v", obs, traces, metrics)
			}
			if obs != nil {
				ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
				defer cancel()
				_ = obs.Shutdown(ctx) // nothing listens: the error is expected, not checked
			}
		})
	}
}

// TestBySubject: the caller's identity is a label only when the person
// running the server asks for it, and then only the OAuth subject, as
// user.id; a static token's holder (no subject) adds none.
func TestBySubject(t *testing.T) {
	for _, tt := range []struct {
		bySubject bool
		token     *auth.TokenInfo
		want      string // the user.id of the calls' series; "" for none
	}{
		{false, &auth.TokenInfo{UserID: "alice@example.com", Extra: map[string]any{"email": "alice@example.com", "groups": []any{"admins"}}}, ""},
		{true, &auth.TokenInfo{UserID: "alice@example.com", Extra: map[string]any{"email": "alice@example.com", "groups": []any{"admins"}}}, "alice@example.com"},
		{true, &auth.TokenInfo{}, ""},
	} {
		reader := sdkmetric.NewManualReader()
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
		obs, err := newObserver(context.Background(), toolset.ObserverConfig{BySubject: tt.bySubject}, tracenoop.NewTracerProvider(), mp)
		if err != nil {
			t.Fatal(err)
		}
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "tt_echo"}, Extra: &mcp.RequestExtra{TokenInfo: tt.token, Header: http.Header{}}}
		handler := obs.Middleware(func(ctx context.Context, _ string, _ mcp.Request) (mcp.Result, error) {
			obs.Called(ctx, toolset.CallReport{Tool: "tt_echo", Outcome: toolset.OutcomeOK, Ran: true})
			return &mcp.CallToolResult{}, nil
		})
		if _, err := handler(context.Background(), "tools/call", req); err != nil {
			t.Fatal(err)
		}
		var rm metricdata.ResourceMetrics
		if err := reader.Collect(context.Background(), &rm); err != nil {
			t.Fatal(err)
		}
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				for _, set := range attributeSets(m.Data) {
					got, has := set.Value(keyUser)
					switch m.Name {
					case "cobramcp.tool.calls", "mcp.server.operation.duration", "cobramcp.tool.queue.duration":
					default:
						if has {
							t.Errorf("%s has user.id", m.Name)
						}
						continue
					}
					if got.AsString() != tt.want || has != (tt.want != "") {
						t.Errorf("bySubject %v: %s user.id = %q (%v), want %q", tt.bySubject, m.Name, got.AsString(), has, tt.want)
					}
					for _, kv := range set.ToSlice() {
						if v := kv.Value.Emit(); strings.Contains(v, "admins") || (kv.Key != keyUser && strings.Contains(v, "alice")) {
							t.Errorf("%s: %s=%q: only the subject may be a label", m.Name, kv.Key, v)
						}
					}
				}
			}
		}
	}
}

// servedMetrics makes the observer cfg describes (with /metrics), makes the
// calls through a server of the test CLI that it observes, and serves its
// Prometheus handler until the test ends.
func servedMetrics(t *testing.T, cfg toolset.ObserverConfig, calls ...*mcp.CallToolParams) *httptest.Server {
	t.Helper()
	v, _ := cli(t)
	obs, err := New(context.Background(), cfg)
	if err != nil || obs == nil {
		t.Fatalf("New: %v %v", obs, err)
	}
	t.Cleanup(func() { obs.Shutdown(context.Background()) })
	cs := mcptest.Connect(t, v.NewServer(toolset.ServerOptions{Observer: obs}))
	for _, c := range calls {
		if _, err := cs.CallTool(context.Background(), c); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(obs.Metrics())
	t.Cleanup(srv.Close)
	return srv
}

// scrape gets srv's /metrics as a scraper whose Accept header is accept
// (none when empty) would, and returns the body and its Content-Type.
func scrape(t *testing.T, srv *httptest.Server, accept string) (body []byte, contentType string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return body, resp.Header.Get("Content-Type")
}
