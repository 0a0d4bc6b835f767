package docker

import (
	"testing"

	"github.com/cobramcp/cobramcp/test/roundtrip"
	"github.com/cobramcp/cobramcp/toolset"
)

// TestFuzzCallsDocker draws random calls for every tool of docker's real
// tree and reads each argv back with docker's parsers: flags, args and
// ArgsLenAtDash exactly as asked (roundtrip.FuzzCalls).
func TestFuzzCallsDocker(t *testing.T) {
	n := roundtrip.FuzzCalls(t, roundtrip.Calls{New: New, Config: &toolset.Config{RepeatableTypes: RepeatableTypes()}, PerTool: 6, Seed: 3, Reader: "docker"})
	t.Logf("%+v", n)
	if n.Read < n.Calls/4 || n.Dash == 0 || n.Dash == n.Read {
		t.Errorf("%+v: too few calls read back, or none with and without \"--\"", n)
	}
}
