package telemetry

import (
	"mime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/cobramcp/cobramcp/toolset"
)

// TestPrometheusNegotiated: whatever the scraper asks for, /metrics names
// every family and label the classic way (underscores), the names
// docs/observability.md lists and the Grafana dashboard queries. A
// Prometheus 3 asks for UTF-8 names (escaping=allow-utf-8), which some
// releases of the OpenTelemetry Prometheus exporter answered with the
// conventions' dotted names ("mcp.server.operation.duration"); the
// dashboard then shows nothing.
func TestPrometheusNegotiated(t *testing.T) {
	clearOTel(t)
	srv := servedMetrics(t, toolset.ObserverConfig{Service: "tt", Metrics: true}, &mcp.CallToolParams{Name: "tt_echo"})
	for _, tt := range []struct{ scraper, accept string }{
		{"no Accept header", ""},
		{"Prometheus 2", "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"},
		{"Prometheus 3", "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.6,application/openmetrics-text;version=0.0.1;q=0.5,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2"},
	} {
		t.Run(tt.scraper, func(t *testing.T) {
			body, contentType := scrape(t, srv, tt.accept)
			if ct, _, err := mime.ParseMediaType(contentType); err != nil || ct != "text/plain" {
				t.Fatalf("Content-Type %q, want the text format", contentType)
			}
			// Parse as UTF-8 names may be, then require the classic ones.
			parser := expfmt.NewTextParser(model.UTF8Validation)
			families, err := parser.TextToMetricFamilies(strings.NewReader(string(body)))
			if err != nil {
				t.Fatal(err)
			}
			for name, f := range families {
				if !model.LegacyValidation.IsValidMetricName(name) {
					t.Errorf("family %q: not a classic Prometheus name", name)
				}
				for _, m := range f.GetMetric() {
					for _, l := range m.GetLabel() {
						if !model.LegacyValidation.IsValidLabelName(l.GetName()) {
							t.Errorf("%s: label %q: not a classic Prometheus name", name, l.GetName())
						}
					}
				}
			}
			for _, name := range []string{"mcp_server_operation_duration_seconds", "cobramcp_tool_calls_total", "cobramcp_sessions_active"} {
				if families[name] == nil {
					t.Errorf("no %s", name)
				}
			}
		})
	}
}
