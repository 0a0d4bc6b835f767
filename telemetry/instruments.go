package telemetry

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

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
	keyPhaseDuration   = "cobramcp.phase.duration"
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
	operation  metric.Float64Histogram // mcp.server.operation.duration
	session    metric.Float64Histogram // mcp.server.session.duration
	calls      metric.Int64Counter     // cobramcp.tool.calls
	outputCut  metric.Int64Counter     // cobramcp.tool.output_cut
	wait       metric.Float64Histogram // cobramcp.tool.queue.duration
	reflection metric.Float64Histogram // cobramcp.reflection.duration
}

// gauges are what the up-down counters read when they are collected:
// cobramcp.sessions.active, cobramcp.tool.calls.active and .queued. A call
// moves an integer, not an instrument: the SDK's Add, twice a call, cost
// more than a process's run is worth counting (measured in test/bench).
type gauges struct {
	sessions, active, queued atomic.Int64
}

func newInstruments(m metric.Meter, g *gauges) (instruments, error) {
	var i instruments
	var errs [9]error
	i.operation, errs[0] = m.Float64Histogram("mcp.server.operation.duration", metric.WithUnit("s"),
		metric.WithDescription("MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent."),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	i.session, errs[1] = m.Float64Histogram("mcp.server.session.duration", metric.WithUnit("s"),
		metric.WithDescription("The duration of the MCP session as observed on the MCP server."),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	_, errs[2] = m.Int64ObservableUpDownCounter("cobramcp.sessions.active", metric.WithUnit("{session}"),
		metric.WithDescription("MCP sessions open: stdio's connection, or the stateful HTTP sessions."),
		metric.WithInt64Callback(observe(&g.sessions)))
	i.calls, errs[3] = m.Int64Counter("cobramcp.tool.calls", metric.WithUnit("{call}"),
		metric.WithDescription("Tool calls of the served CLI's commands, by tool and outcome (ok, exit_nonzero, timeout, canceled, signal, invalid_arguments, confirmation_asked, not_confirmed, queue_full, refused, failed)."))
	i.outputCut, errs[4] = m.Int64Counter("cobramcp.tool.output_cut", metric.WithUnit("{call}"),
		metric.WithDescription("Tool calls whose output was cut at the output limit, or left unread, by tool."))
	i.wait, errs[5] = m.Float64Histogram("cobramcp.tool.queue.duration", metric.WithUnit("s"),
		metric.WithDescription("How long tool calls waited for a free call slot (0 for most)."),
		metric.WithExplicitBucketBoundaries(waitBuckets...))
	_, errs[6] = m.Int64ObservableUpDownCounter("cobramcp.tool.calls.active", metric.WithUnit("{call}"),
		metric.WithDescription("Tool calls whose process is running."),
		metric.WithInt64Callback(observe(&g.active)))
	_, errs[7] = m.Int64ObservableUpDownCounter("cobramcp.tool.calls.queued", metric.WithUnit("{call}"),
		metric.WithDescription("Tool calls waiting for a free call slot."),
		metric.WithInt64Callback(observe(&g.queued)))
	i.reflection, errs[8] = m.Float64Histogram("cobramcp.reflection.duration", metric.WithUnit("s"),
		metric.WithDescription("How long reading the served CLI's command tree took when the server started, inside the program or from outside (an installed binary)."),
		metric.WithExplicitBucketBoundaries(reflectionBuckets...))
	if err := errors.Join(errs[:]...); err != nil {
		return i, fmt.Errorf("telemetry: the instruments: %w", err)
	}
	return i, nil
}

// observe is the callback of an up-down counter that reads n: 0 from the
// start, so that a dashboard shows it before the first call.
func observe(n *atomic.Int64) metric.Int64Callback {
	return func(_ context.Context, o metric.Int64Observer) error {
		o.Observe(n.Load())
		return nil
	}
}
