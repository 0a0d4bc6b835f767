// Package telemetry gives cobramcp's servers traces and metrics by the
// OpenTelemetry semantic conventions for MCP, through the OpenTelemetry Go
// SDK and its exporters. It is an opt-in: a CLI links it only by asking,
//
//	root.AddCommand(bridge.Command(nil, bridge.WithTelemetry(telemetry.New)))
//
// and then `mcp start` and `mcp stream` export when the standard variables
// say where (OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:4318, and the
// other OTEL_* variables), and `mcp stream --metrics-addr :9464` serves
// Prometheus /metrics on a listener of its own. With nothing configured,
// New returns nil and the server has no observer at all. cobramcp (the
// binary) opts in.
//
// A program that embeds the library makes one Observer per server and sets
// it in toolset.ServerOptions.Observer:
//
//	obs, err := telemetry.New(ctx, toolset.ObserverConfig{Service: "mycli", Metrics: true})
//	if err != nil { ... }
//	if obs != nil {
//		defer obs.Shutdown(context.Background())
//		opts.Observer = obs // and serve obs.Metrics() at /metrics
//	}
//	srv := view.NewServer(opts)
//
// # What is traced and measured
//
// Every MCP request is a server span named "{mcp.method.name} {target}"
// ("tools/call mycli_get_pods", "tools/list"), with mcp.method.name,
// gen_ai.tool.name and gen_ai.operation.name (execute_tool), mcp.session.id,
// mcp.protocol.version, network.transport (pipe on stdio, tcp over HTTP),
// network.protocol.name, and error.type when it fails (the JSON-RPC error
// code, or tool_error for a result with isError). Its parent is the W3C
// trace context in the request's params._meta (traceparent, tracestate,
// baggage), else the HTTP request's traceparent header, which is then a
// link. A tool call adds how it ended (cobramcp.call.outcome, the command's
// tool as cobramcp.call.tool, process.exit.code), the events "validated"
// and "run" (at the process's start, its duration in
// cobramcp.phase.duration), and child spans for what it may wait on: a
// confirmation, a call slot. The call's process gets TRACEPARENT and
// TRACESTATE (and BAGGAGE) of the call's span in its environment, by the
// specification's environment variable carrier, so an instrumented CLI
// continues the trace; those the server itself was given never reach it.
//
// Spans are sent in batches configured by the OTEL_BSP_* variables, as
// the SDK's batch span processor is, by a processor of the package's own
// that does not wake a goroutine for every span; a span the full queue
// cannot take is counted, and the count logged when the next batch goes.
//
// The metrics: mcp.server.operation.duration and mcp.server.session.duration
// (seconds, with the conventions' buckets), cobramcp.tool.calls by tool and
// outcome, cobramcp.tool.output_cut, cobramcp.tool.queue.duration,
// cobramcp.tool.calls.active and .queued, cobramcp.sessions.active, and
// cobramcp.reflection.duration. Prometheus names them with underscores and
// unit suffixes (mcp_server_operation_duration_seconds,
// cobramcp_tool_calls_total).
//
// A flag's value, an argument or a pinned value is never an attribute nor
// a label: names, counts and durations only; the status of a failed span
// is its error.type, not the error's message, which may quote what the
// client sent. A tool the server does not have is counted as _OTHER, so
// that clients cannot make up label values without end. The caller's
// identity is no label unless the person running the server asks for it
// (ObserverConfig.BySubject, `mcp stream --metrics-by-subject`), and then
// only the OAuth subject, as user.id.
package telemetry
