package telemetry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/cobramcp/cobramcp/toolset"
)

// instrumentation is the name of the tracer and the meter (the
// instrumentation scope).
const instrumentation = "github.com/cobramcp/cobramcp/telemetry"

// Observer is one server's traces and metrics: the toolset.Observer of its
// ServerOptions, the Prometheus handler of /metrics, and Shutdown, which
// sends what is left. Make one with New.
type Observer struct {
	tracer     trace.Tracer
	propagator propagation.TextMapPropagator
	inst       instruments
	gauges     gauges
	bySubject  bool
	log        *slog.Logger

	handler  http.Handler // /metrics; nil when not asked for
	shutdown []func(context.Context) error

	sessions sync.Map // *mcp.ServerSession -> *session, while it lasts
	sets     sync.Map // opKey -> attribute.Set, callKey -> callAttrs: made once
}

// New returns the telemetry of one server, configured the OpenTelemetry
// way, by the standard environment variables, and by cfg:
//
//   - traces go over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT or
//     OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set, or OTEL_TRACES_EXPORTER is
//     "otlp"; OTEL_TRACES_EXPORTER=none turns them off;
//   - metrics go over OTLP/HTTP alike (OTEL_EXPORTER_OTLP_METRICS_ENDPOINT,
//     OTEL_METRICS_EXPORTER), and to the Prometheus handler (Metrics) when
//     cfg.Metrics asks for it;
//   - OTEL_SDK_DISABLED=true turns everything but cfg.Metrics off.
//
// The exporters read the rest of the OTEL_EXPORTER_OTLP_* variables
// (headers, timeout, TLS files), the tracer provider OTEL_TRACES_SAMPLER and
// OTEL_TRACES_SAMPLER_ARG, the span processor OTEL_BSP_*, the metric reader
// OTEL_METRIC_EXPORT_INTERVAL; the resource is service.name cfg.Service and
// service.version cfg.Version, then OTEL_RESOURCE_ATTRIBUTES and
// OTEL_SERVICE_NAME over them. Only the http/protobuf protocol is spoken:
// OTEL_EXPORTER_OTLP_PROTOCOL=grpc is an error that says so.
//
// When nothing is configured, New returns nil and no error: a server then
// has no Observer, and costs nothing more. Nothing is set globally (no
// global tracer or meter provider): the telemetry is the server's own.
func New(ctx context.Context, cfg toolset.ObserverConfig) (*Observer, error) {
	traces, err := otlpWanted("TRACES")
	if err != nil {
		return nil, err
	}
	metrics, err := otlpWanted("METRICS")
	if err != nil {
		return nil, err
	}
	if !traces && !metrics && !cfg.Metrics {
		return nil, nil
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	res, err := newResource(ctx, cfg)
	if err != nil {
		return nil, err
	}
	var shutdown []func(context.Context) error
	var tp trace.TracerProvider = tracenoop.NewTracerProvider()
	if traces {
		batching, err := batchConfigFromEnv()
		if err != nil {
			return nil, err
		}
		exp, err := otlptracehttp.New(ctx)
		if err != nil {
			return nil, fmt.Errorf("telemetry: the OTLP trace exporter: %w", err)
		}
		sdk := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(newBatcher(exp, batching, log)), sdktrace.WithResource(res))
		tp, shutdown = sdk, append(shutdown, sdk.Shutdown)
	}
	var readers []sdkmetric.Option
	if metrics {
		exp, err := otlpmetrichttp.New(ctx)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("telemetry: the OTLP metric exporter: %w", err), stopAll(ctx, shutdown))
		}
		readers = append(readers, sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)))
	}
	var handler http.Handler
	if cfg.Metrics {
		reg := prometheus.NewRegistry()
		exp, err := otelprom.New(otelprom.WithRegisterer(reg), otelprom.WithoutScopeInfo())
		if err != nil {
			return nil, errors.Join(fmt.Errorf("telemetry: the Prometheus exporter: %w", err), stopAll(ctx, shutdown))
		}
		reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
		readers = append(readers, sdkmetric.WithReader(exp))
		handler = promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorLog: slogPrinter{log}})
	}
	var mp metric.MeterProvider = metricnoop.NewMeterProvider()
	if len(readers) > 0 {
		sdk := sdkmetric.NewMeterProvider(append(readers, sdkmetric.WithResource(res))...)
		mp, shutdown = sdk, append(shutdown, sdk.Shutdown)
	}
	t, err := newObserver(ctx, cfg, tp, mp)
	if err != nil {
		return nil, errors.Join(err, stopAll(ctx, shutdown))
	}
	t.handler, t.shutdown = handler, shutdown
	log.Info("telemetry", "traces", traces, "otlpMetrics", metrics, "prometheus", cfg.Metrics)
	return t, nil
}

// newObserver is the observer of the server cfg describes, whose spans and
// metrics go to tp and mp.
func newObserver(ctx context.Context, cfg toolset.ObserverConfig, tp trace.TracerProvider, mp metric.MeterProvider) (*Observer, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	t := &Observer{
		tracer:     tp.Tracer(instrumentation),
		propagator: propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}),
		bySubject:  cfg.BySubject,
		log:        log,
	}
	var err error
	if t.inst, err = newInstruments(mp.Meter(instrumentation), &t.gauges); err != nil {
		return nil, err
	}
	if cfg.Reflection > 0 {
		t.reflected(ctx, cfg)
	}
	return t, nil
}

// stopAll ends the exporters started so far.
func stopAll(ctx context.Context, fs []func(context.Context) error) error {
	var errs []error
	for _, f := range fs {
		errs = append(errs, f(ctx))
	}
	return errors.Join(errs...)
}

// Metrics returns the handler of /metrics in the Prometheus exposition
// format, with the Go runtime's and the process's own metrics beside the
// server's; nil when New was not asked for it (ObserverConfig.Metrics).
func (t *Observer) Metrics() http.Handler { return t.handler }

// Shutdown sends the spans and metrics not sent yet and ends the
// exporters, within ctx. Call it once the server has stopped.
func (t *Observer) Shutdown(ctx context.Context) error {
	if err := stopAll(ctx, t.shutdown); err != nil {
		return fmt.Errorf("telemetry: sending the last spans and metrics: %w", err)
	}
	return nil
}

// otlpWanted reports whether the signal (TRACES or METRICS) goes over OTLP,
// by the standard variables.
func otlpWanted(signal string) (bool, error) {
	if strings.EqualFold(strings.TrimSpace(os.Getenv("OTEL_SDK_DISABLED")), "true") {
		return false, nil
	}
	name := "OTEL_" + signal + "_EXPORTER"
	exporter := strings.ToLower(strings.TrimSpace(os.Getenv(name)))
	switch exporter {
	case "", "otlp":
	case "none":
		return false, nil
	default:
		return false, fmt.Errorf("telemetry: %s=%s: this server exports otlp (over HTTP) or none; for Prometheus, serve /metrics (mcp stream --metrics-addr)", name, exporter)
	}
	endpoint := firstEnv("OTEL_EXPORTER_OTLP_"+signal+"_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
	if exporter == "" && endpoint == "" {
		return false, nil
	}
	protoVar := "OTEL_EXPORTER_OTLP_" + signal + "_PROTOCOL"
	proto := os.Getenv(protoVar)
	if proto == "" {
		protoVar = "OTEL_EXPORTER_OTLP_PROTOCOL"
		proto = os.Getenv(protoVar)
	}
	if p := strings.TrimSpace(proto); p != "" && p != "http/protobuf" {
		return false, fmt.Errorf("telemetry: %s=%s: this server sends OTLP over HTTP (http/protobuf): point it at the collector's OTLP/HTTP port (4318), or unset the variable", protoVar, p)
	}
	return true, nil
}

// firstEnv is the value of the first of names that is set and not empty.
func firstEnv(names ...string) string {
	for _, n := range names {
		if v := strings.TrimSpace(os.Getenv(n)); v != "" {
			return v
		}
	}
	return ""
}

// newResource describes the server: the served CLI, then the standard
// variables over it.
func newResource(ctx context.Context, cfg toolset.ObserverConfig) (*resource.Resource, error) {
	var attrs []attribute.KeyValue
	if cfg.Service != "" {
		attrs = append(attrs, attribute.String("service.name", cfg.Service))
	}
	if cfg.Version != "" {
		attrs = append(attrs, attribute.String("service.version", cfg.Version))
	}
	res, err := resource.New(ctx,
		resource.WithTelemetrySDK(),
		resource.WithAttributes(attrs...),
		resource.WithFromEnv(),
	)
	if err != nil {
		return nil, fmt.Errorf("telemetry: the resource (OTEL_RESOURCE_ATTRIBUTES, OTEL_SERVICE_NAME): %w", err)
	}
	return res, nil
}

// reflected records the reading of the served tree: a span of its own,
// as it happened, and the reflection histogram.
func (t *Observer) reflected(ctx context.Context, cfg toolset.ObserverConfig) {
	source := "inside"
	if cfg.Outside {
		source = "outside"
	}
	a := attribute.String(keyReflectionSource, source)
	_, span := t.tracer.Start(ctx, "reflect", trace.WithTimestamp(cfg.ReflectionStart), trace.WithAttributes(a))
	span.End(trace.WithTimestamp(cfg.ReflectionStart.Add(cfg.Reflection)))
	t.inst.reflection.Record(ctx, cfg.Reflection.Seconds(), metric.WithAttributes(a))
}

// slogPrinter is promhttp's error log, written to a slog.Logger.
type slogPrinter struct{ log *slog.Logger }

func (p slogPrinter) Println(v ...any) { p.log.Error("serving /metrics", "err", fmt.Sprint(v...)) }
