// Command shortcli is mycli served with a five-second call timeout and a
// small output cap: the e2e tests' fixture for Config.Timeout and
// Config.MaxOutput, which mycli itself leaves at their defaults.
package main

import (
	"os"
	"time"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/example/mycli"
)

// Timeout and MaxOutput are the limits the e2e tests expect. Timeout is
// short enough for a test to wait it out, and long enough for a call meant
// to finish within it (mycli starting, a 100 ms sleep, a 1 MB flood) to do
// so on a loaded 2-core machine: with 1s, TestTimeout's 100 ms call timed
// out under make test (load average 20).
const (
	Timeout   = 5 * time.Second
	MaxOutput = 4096
)

func main() {
	root := mycli.New()
	root.AddCommand(bridge.Command(&bridge.Config{Timeout: Timeout, MaxOutput: MaxOutput}))
	os.Exit(mycli.ExitCode(root.Execute()))
}
