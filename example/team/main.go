// Command team is the example CLI (package
// github.com/cobramcp/cobramcp/example/mycli) as a CLI that serves a team
// adopts cobramcp: the one-line adoption plus the opt-ins to OAuth, so that
// `mycli mcp stream --oauth-issuer ... --oauth-resource ...` is an OAuth
// 2.1 resource server and --access serves each caller by its rules, and
// to telemetry, so that its servers export traces and metrics when the
// OTEL_* variables say where and `mycli mcp stream --metrics-addr` serves
// Prometheus /metrics:
//
//	root.AddCommand(bridge.Command(nil, bridge.WithOAuth(oauth.New), bridge.WithTelemetry(telemetry.New)))
//
// The plain example (package github.com/cobramcp/cobramcp/example) does
// not opt in, and links no OAuth, JOSE, OIDC or OpenTelemetry code.
package main

import (
	"os"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/oauth"
	"github.com/cobramcp/cobramcp/telemetry"
)

func main() {
	root := mycli.New()
	root.AddCommand(bridge.Command(nil, bridge.WithOAuth(oauth.New), bridge.WithTelemetry(telemetry.New))) // the adoption, with the team server
	os.Exit(mycli.ExitCode(root.Execute()))
}
