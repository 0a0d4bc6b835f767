package telemetry_test

import (
	"context"
	"fmt"
	"log"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/telemetry"
	"github.com/cobramcp/cobramcp/toolset"
)

// A CLI opts into traces and metrics with one option: `mcp start` and
// `mcp stream` then export when OTEL_EXPORTER_OTLP_ENDPOINT is set, and
// `mcp stream --metrics-addr` serves Prometheus /metrics.
func Example() {
	root := &cobra.Command{Use: "mycli"}
	root.AddCommand(bridge.Command(nil, bridge.WithTelemetry(telemetry.New)))
	stream, _, _ := root.Find([]string{"mcp", "stream"})
	fmt.Println(stream.Flags().Lookup("metrics-addr").Usage)
	// Output:
	// serve Prometheus /metrics on this address (host:port), apart from the MCP endpoint and without authentication: keep it where only your scraper reaches
}

// A program that serves a view itself makes the observer of each server.
func ExampleNew() {
	root := &cobra.Command{Use: "mycli"}
	root.AddCommand(&cobra.Command{Use: "version", Run: func(*cobra.Command, []string) {}})
	ts, err := toolset.New(root, nil)
	if err != nil {
		log.Fatal(err)
	}
	view, err := ts.View(toolset.Listing{})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	obs, err := telemetry.New(ctx, toolset.ObserverConfig{Service: "mycli", Metrics: true})
	if err != nil {
		log.Fatal(err)
	}
	defer obs.Shutdown(ctx)
	srv := view.NewServer(toolset.ServerOptions{Observer: obs})
	fmt.Println(srv != nil, obs.Metrics() != nil)
	// Output: true true
}
