package telemetry

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/cobramcp/cobramcp/toolset"
)

// BenchmarkCall is one tools/call over in-memory transports, its run
// answered by a middleware (no process), without an observer and with
// one whose spans go through the batch processor to an exporter that
// drops them and whose metrics go to a reader: the server's CPU that
// telemetry adds to a call.
//
//	go test ./telemetry -run '^$' -bench Call -benchmem
func BenchmarkCall(b *testing.B) {
	root := &cobra.Command{Use: "tt"}
	root.AddCommand(&cobra.Command{Use: "echo [ARGS...]", Run: func(*cobra.Command, []string) {}})
	answer := func(toolset.RunFunc) toolset.RunFunc {
		return func(ctx context.Context, c *toolset.Call) (*toolset.Result, error) {
			return &toolset.Result{Stdout: "ok"}, nil
		}
	}
	ts, err := toolset.New(root, &toolset.Config{Middleware: []toolset.Middleware{answer}})
	if err != nil {
		b.Fatal(err)
	}
	v, err := ts.View(toolset.Listing{})
	if err != nil {
		b.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	obs, err := newObserver(context.Background(), toolset.ObserverConfig{}, tp, mp)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		obs  toolset.Observer
	}{{"off", nil}, {"on", obs}} {
		b.Run(bc.name, func(b *testing.B) {
			st, ct := mcp.NewInMemoryTransports()
			ss, err := v.NewServer(toolset.ServerOptions{Observer: bc.obs}).Connect(context.Background(), st, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer ss.Close()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "b", Version: "1"}, nil).Connect(context.Background(), ct, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			params := &mcp.CallToolParams{Name: "tt_echo", Arguments: map[string]any{"args": []string{"a"}},
				Meta: mcp.Meta{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := cs.CallTool(context.Background(), params); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	_ = tp.Shutdown(context.Background())
}
