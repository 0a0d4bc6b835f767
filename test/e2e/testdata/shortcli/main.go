// Command shortcli is mycli served with a one-second call timeout and a
// small output cap: the e2e tests' fixture for Config.Timeout and
// Config.MaxOutput, which mycli itself leaves at their defaults.
package main

import (
	"os"
	"time"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/example/mycli"
)

// Timeout and MaxOutput are the limits the e2e tests expect.
const (
	Timeout   = time.Second
	MaxOutput = 4096
)

func main() {
	root := mycli.New()
	root.AddCommand(bridge.Command(&bridge.Config{Timeout: Timeout, MaxOutput: MaxOutput}))
	os.Exit(mycli.ExitCode(root.Execute()))
}
