package realcli

import (
	"testing"

	"github.com/cobramcp/cobramcp/test/roundtrip"
)

// TestFuzzCallsKubectl draws random calls for every tool of kubectl's
// real tree and reads each argv back with kubectl's parsers: flags, args
// and ArgsLenAtDash exactly as asked (roundtrip.FuzzCalls).
func TestFuzzCallsKubectl(t *testing.T) {
	n := roundtrip.FuzzCalls(t, roundtrip.Calls{New: Kubectl, PerTool: 6, Seed: 2, Reader: "kubectl"})
	t.Logf("%+v", n)
	if n.Read < n.Calls/4 || n.Dash == 0 || n.Dash == n.Read {
		t.Errorf("%+v: too few calls read back, or none with and without \"--\"", n)
	}
}
