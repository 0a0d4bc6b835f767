package bridge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/toolset"
)

// Telemetry is a server's traces and metrics, as WithTelemetry makes them
// (package telemetry's Observer): the Observer of its calls, the handler
// of /metrics, and Shutdown, which sends what is left once it has stopped.
type Telemetry interface {
	toolset.Observer
	// Metrics returns the handler of /metrics; nil when not asked for.
	Metrics() http.Handler
	// Shutdown sends the spans and metrics not sent yet, within ctx.
	Shutdown(ctx context.Context) error
}

// WithTelemetry gives `mcp start` and `mcp stream` traces and metrics by
// the OpenTelemetry semantic conventions for MCP, configured by the
// standard OTEL_* variables, and `mcp stream` the flag --metrics-addr,
// which serves Prometheus /metrics: newTelemetry makes a server's when it
// starts, nil when nothing is configured. It is package telemetry's New:
//
//	root.AddCommand(bridge.Command(nil, bridge.WithTelemetry(telemetry.New)))
//
// bridge does not import package telemetry: a CLI that does not opt in
// links no OpenTelemetry code, and its commands have no telemetry flags.
func WithTelemetry[T interface {
	comparable
	Telemetry
}](newTelemetry func(context.Context, toolset.ObserverConfig) (T, error)) Option {
	return func(o *Options) {
		o.telemetry = func(ctx context.Context, cfg toolset.ObserverConfig) (Telemetry, error) {
			t, err := newTelemetry(ctx, cfg)
			var none T
			if err != nil || t == none {
				return nil, err
			}
			return t, nil
		}
	}
}

// Names of the telemetry flags of `mcp stream`.
const (
	flagMetricsAddr      = "metrics-addr"
	flagMetricsBySubject = "metrics-by-subject"
)

// telemetryFlags are `mcp stream`'s telemetry flags, defined only when the
// CLI opted in (WithTelemetry). They have no shorthand, so that they
// cannot clash with an adopter's persistent flags.
type telemetryFlags struct {
	metricsAddr string
	bySubject   bool
}

// addTelemetryFlags defines the telemetry flags on c when o has telemetry;
// nil otherwise.
func addTelemetryFlags(o *Options, c *cobra.Command) *telemetryFlags {
	if o.telemetry == nil {
		return nil
	}
	f := &telemetryFlags{}
	fl := c.Flags()
	fl.StringVar(&f.metricsAddr, flagMetricsAddr, "", "serve Prometheus /metrics on this address (host:port), apart from the MCP endpoint and without authentication: keep it where only your scraper reaches")
	fl.BoolVar(&f.bySubject, flagMetricsBySubject, false, "count calls by the caller's OAuth subject as well (user_id: one series per person)")
	return f
}

// serverTelemetry is a serving command's telemetry once started: nil when
// the CLI did not opt in or nothing is configured.
type serverTelemetry struct {
	Telemetry
	log *slog.Logger
}

// startTelemetry starts the telemetry of a server of v, whose reading
// began at began; f are the command's telemetry flags (nil for start).
func startTelemetry(ctx context.Context, o *Options, c *cobra.Command, v *toolset.Served, began time.Time, f *telemetryFlags, log *slog.Logger) (*serverTelemetry, error) {
	if o.telemetry == nil {
		return nil, nil
	}
	cfg := toolset.ObserverConfig{
		Service:         serverName(o, c),
		Version:         v.Toolset().Root().Version,
		ReflectionStart: began,
		Reflection:      time.Since(began),
		Outside:         o.Outside != nil,
		Logger:          log,
	}
	if f != nil {
		cfg.Metrics, cfg.BySubject = f.metricsAddr != "", f.bySubject
	}
	t, err := o.telemetry(ctx, cfg)
	if err != nil || t == nil {
		return nil, err
	}
	return &serverTelemetry{Telemetry: t, log: log}, nil
}

// observer is the Observer of the server's options; nil for none.
func (t *serverTelemetry) observer() toolset.Observer {
	if t == nil {
		return nil
	}
	return t
}

// shutdown sends what is left, within a few seconds: the server has
// stopped, and its exit should not wait long for a collector that is gone.
func (t *serverTelemetry) shutdown() {
	if t == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := t.Shutdown(ctx); err != nil {
		t.log.Warn("telemetry", "err", err)
	}
}

// serveMetrics serves the telemetry's /metrics on addr until stop is
// called: a listener of its own, so that the MCP endpoint's
// authentication never has to let a scraper in, nor a scraper hold a
// token that can call tools.
func (t *serverTelemetry) serveMetrics(addr string) (stop func(), err error) {
	if t == nil || addr == "" || t.Metrics() == nil {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--%s: %w", flagMetricsAddr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", t.Metrics())
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          slog.NewLogLogger(t.log.Handler(), slog.LevelWarn),
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.log.Error("serving /metrics", "err", err)
		}
	}()
	t.log.Info("serving Prometheus metrics", "url", "http://"+ln.Addr().String()+"/metrics")
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(ctx)
		<-done
	}, nil
}
