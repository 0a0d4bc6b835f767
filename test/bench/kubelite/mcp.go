//go:build !nobridge && !sdkfloor

package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
)

func init() {
	addMCP = func(root *cobra.Command) {
		// The one line of adoption. KUBELITE_UNCAPPED serves the output
		// uncapped, for the benchmark's large-output figure.
		var cfg *bridge.Config
		if os.Getenv("KUBELITE_UNCAPPED") != "" {
			cfg = &bridge.Config{MaxOutput: -1}
		}
		root.AddCommand(bridge.Command(cfg, mcpOptions...))
	}
}

// mcpOptions are the opt-ins kubelite is built with: telemetry with -tags
// telemetry (telemetry.go), OAuth with -tags oauth (optin_oauth.go).
var mcpOptions []bridge.Option
