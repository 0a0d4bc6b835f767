//go:build telemetry && !nobridge && !sdkfloor

package main

import (
	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/telemetry"
)

// Built with -tags telemetry, kubelite opts into telemetry: its servers
// export over OTLP when the OTEL_* variables say where (the bench's -otel),
// and cost nothing more otherwise.
func init() {
	mcpOptions = append(mcpOptions, bridge.WithTelemetry(telemetry.New))
}
