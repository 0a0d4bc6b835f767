package telemetry

import (
	"context"
	"errors"
	"fmt"

	"go.opentelemetry.io/otel/metric"
)

// The attributes, by the OpenTelemetry semantic conventions for MCP (and
// the general ones they use), then this server's own under "cobramcp.".
const (
	keyMethod          = "mcp.method.name"
	keySession         = "mcp.session.id"
	keyProtocolVersion = "mcp.protocol.version"
	keyTool            = "gen_ai.tool.name"
	keyOperation       = "gen_ai.operation.name"
	keyErrorType       = "error.type"
	keyStatusCode      = "rpc.response.status_code"
	keyTransport       = "network.transport"
	keyProtocolName    = "network.protocol.name"
	keyExitCode        = "process.exit.code"
	keyUser            = "user.id"

	keyOutcome          = "cobramcp.call.outcome"
	keyCommandTool      = "cobramcp.call.tool"
	keyReflectionSource = "cobramcp.reflection.source"
)

// Values of the conventions' attributes.
const (
	operationExecuteTool = "execute_tool"
	errorToolError       = "tool_error"
	otherValue           = "_OTHER"
	transportPipe        = "pipe"
	transportTCP         = "tcp"
)

// durationBuckets are the bucket boundaries the conventions give for
// mcp.server.operation.duration and mcp.server.session.duration, in
// seconds.
var durationBuckets = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}

// waitBuckets are those of the time a call waits for a slot: most calls
// wait for none, so the first bucket holds them.
var waitBuckets = []float64{0, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300}

// reflectionBuckets are those of reading a command tree: milliseconds in
// process, seconds to minutes from outside.
var reflectionBuckets = []float64{0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}

// instruments are the server's metrics.
type instruments struct {
	operation  metric.Float64Histogram   // mcp.server.operation.duration
	session    metric.Float64Histogram   // mcp.server.session.duration
	sessions   metric.Int64UpDownCounter // cobramcp.sessions.active
	calls      metric.Int64Counter       // cobramcp.tool.calls
	outputCut  metric.Int64Counter       // cobramcp.tool.output_cut
	wait       metric.Float64Histogram   // cobramcp.tool.queue.duration
	active     metric.Int64UpDownCounter // cobramcp.tool.calls.active
	queued     metric.Int64UpDownCounter // cobramcp.tool.calls.queued
	reflection metric.Float64Histogram   // cobramcp.reflection.duration
}

func newInstruments(m metric.Meter) (instruments, error) {
	var i instruments
	var errs [9]error
	i.operation, errs[0] = m.Float64Histogram("mcp.server.operation.duration", metric.WithUnit("s"),
		metric.WithDescription("MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent."),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	i.session, errs[1] = m.Float64Histogram("mcp.server.session.duration", metric.WithUnit("s"),
		metric.WithDescription("The duration of the MCP session as observed on the MCP server."),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	i.sessions, errs[2] = m.Int64UpDownCounter("cobramcp.sessions.active", metric.WithUnit("{session}"),
		metric.WithDescription("MCP sessions open: stdio's connection, or the stateful HTTP sessions."))
	i.calls, errs[3] = m.Int64Counter("cobramcp.tool.calls", metric.WithUnit("{call}"),
		metric.WithDescription("Tool calls of the served CLI's commands, by tool and outcome (ok, exit_nonzero, timeout, canceled, signal, invalid_arguments, confirmation_asked, not_confirmed, queue_full, refused, failed)."))
	i.outputCut, errs[4] = m.Int64Counter("cobramcp.tool.output_cut", metric.WithUnit("{call}"),
		metric.WithDescription("Tool calls whose output was cut at the output limit, or left unread, by tool."))
	i.wait, errs[5] = m.Float64Histogram("cobramcp.tool.queue.duration", metric.WithUnit("s"),
		metric.WithDescription("How long tool calls waited for a free call slot (0 for most)."),
		metric.WithExplicitBucketBoundaries(waitBuckets...))
	i.active, errs[6] = m.Int64UpDownCounter("cobramcp.tool.calls.active", metric.WithUnit("{call}"),
		metric.WithDescription("Tool calls whose process is running."))
	i.queued, errs[7] = m.Int64UpDownCounter("cobramcp.tool.calls.queued", metric.WithUnit("{call}"),
		metric.WithDescription("Tool calls waiting for a free call slot."))
	i.reflection, errs[8] = m.Float64Histogram("cobramcp.reflection.duration", metric.WithUnit("s"),
		metric.WithDescription("How long reading the served CLI's command tree took when the server started, inside the program or from outside (an installed binary)."),
		metric.WithExplicitBucketBoundaries(reflectionBuckets...))
	if err := errors.Join(errs[:]...); err != nil {
		return i, fmt.Errorf("telemetry: the instruments: %w", err)
	}
	// The gauges are 0 from the start, so that a dashboard shows them
	// before the first call.
	ctx := context.Background()
	for _, g := range []metric.Int64UpDownCounter{i.sessions, i.active, i.queued} {
		g.Add(ctx, 0)
	}
	return i, nil
}
