// Package otelcol runs a real OpenTelemetry Collector, built from the
// module proxy through the Collector's Go API with only the parts the
// end-to-end test needs: the OTLP receiver (over HTTP) and the file
// exporter. It is a module of its own, so that the library's go.mod gains
// nothing; `make otelcol` runs its test.
package otelcol

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/open-telemetry/opentelemetry-collector-contrib/exporter/fileexporter"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/confmap/provider/yamlprovider"
	"go.opentelemetry.io/collector/otelcol"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/service/telemetry/otelconftelemetry"
)

// Collector is a running Collector that receives OTLP over HTTP and writes
// what it receives to files, one JSON document (OTLP/JSON) per line.
type Collector struct {
	// Endpoint is the OTLP/HTTP endpoint, http://127.0.0.1:PORT, for
	// OTEL_EXPORTER_OTLP_ENDPOINT.
	Endpoint string
	// Traces and Metrics are the files the spans and the metrics go to.
	Traces, Metrics string

	col  *otelcol.Collector
	done chan error
}

// config is the Collector's configuration: OTLP over HTTP in, each signal
// to a file, flushed often; no telemetry of its own (no port 8888).
const config = `
receivers:
  otlp:
    protocols:
      http:
        endpoint: %q
exporters:
  file/traces:
    path: %q
    flush_interval: 50ms
  file/metrics:
    path: %q
    flush_interval: 50ms
service:
  telemetry:
    logs:
      level: warn
    metrics:
      level: none
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [file/traces]
    metrics:
      receivers: [otlp]
      exporters: [file/metrics]
`

// Start starts a Collector that writes into dir, and waits until it
// accepts connections.
func Start(ctx context.Context, dir string) (*Collector, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	c := &Collector{
		Endpoint: "http://" + addr,
		Traces:   filepath.Join(dir, "traces.jsonl"),
		Metrics:  filepath.Join(dir, "metrics.jsonl"),
		done:     make(chan error, 1),
	}
	yaml := fmt.Sprintf(config, addr, c.Traces, c.Metrics)
	c.col, err = otelcol.NewCollector(otelcol.CollectorSettings{
		BuildInfo: component.BuildInfo{Command: "otelcol-cobramcp-test", Description: "the Collector of cobramcp's telemetry test", Version: "test"},
		Factories: factories,
		ConfigProviderSettings: otelcol.ConfigProviderSettings{ResolverSettings: confmap.ResolverSettings{
			URIs:              []string{"yaml:" + yaml},
			ProviderFactories: []confmap.ProviderFactory{yamlprovider.NewFactory()},
		}},
		DisableGracefulShutdown: true,
	})
	if err != nil {
		return nil, fmt.Errorf("otelcol: %w", err)
	}
	go func() { c.done <- c.col.Run(ctx) }()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			return c, nil
		}
		select {
		case err := <-c.done:
			return nil, fmt.Errorf("otelcol ended before it served: %w", err)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			c.col.Shutdown()
			return nil, errors.New("otelcol: the OTLP receiver never accepted a connection")
		}
	}
}

// Stop shuts the Collector down, which flushes the files, and waits for it.
func (c *Collector) Stop() error {
	c.col.Shutdown()
	return <-c.done
}

// factories are the Collector's parts: the OTLP receiver, the file
// exporter, and the telemetry of its own that every Collector needs.
func factories() (otelcol.Factories, error) {
	var f otelcol.Factories
	var errs [2]error
	f.Receivers, errs[0] = otelcol.MakeFactoryMap(otlpreceiver.NewFactory())
	f.Exporters, errs[1] = otelcol.MakeFactoryMap(fileexporter.NewFactory())
	f.Telemetry = otelconftelemetry.NewFactory()
	return f, errors.Join(errs[:]...)
}

// freeAddr is a loopback address with a port free a moment ago.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// ReadFile reads one of the Collector's files, empty when it is not
// written yet.
func ReadFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return b, err
}
