package roundtrip_test

import (
	"testing"

	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/test/roundtrip"
)

// TestFuzzCallsMycli: random calls on every tool of the example CLI read
// back exactly, ArgsLenAtDash included.
func TestFuzzCallsMycli(t *testing.T) {
	n := roundtrip.FuzzCalls(t, roundtrip.Calls{New: mycli.New, PerTool: 40, Seed: 1, Reader: "mycli"})
	t.Logf("%+v", n)
	if n.Read < n.Calls/4 || n.Dash == 0 || n.Dash == n.Read {
		t.Errorf("%+v: too few calls read back, or none with and without \"--\"", n)
	}
}
