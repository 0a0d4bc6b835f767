//go:build corpusall

package corpus

import (
	"slices"
	"strings"
	"testing"

	"github.com/cobramcp/cobramcp/test/roundtrip"
)

// sharedState names the CLIs whose flags write package variables that
// outlive the tree (helm's global settings, which its next root checks).
var sharedState = map[string]bool{"helm": true}

// TestFuzzCalls draws random calls for every tool of each CLI's own tree
// and reads each argv back with the CLI's parsers: flags, args and
// ArgsLenAtDash exactly as asked (roundtrip.FuzzCalls). It needs a fresh
// tree per call: the CLIs of make test keep theirs in a package variable
// of their main, the ones of make corpus (this build tag) make one each
// time (kubectl and docker run in test/realcli and test/docker).
func TestFuzzCalls(t *testing.T) {
	for i, c := range CLIs() {
		if *only != "" && !slices.Contains(strings.Split(*only, ","), c.Name) {
			continue
		}
		if c.Root() == c.Root() || sharedState[c.Name] {
			continue // one tree for the process, or state beyond the tree
		}
		t.Run(c.Name, func(t *testing.T) {
			for _, e := range c.Env {
				t.Setenv(e, t.TempDir())
			}
			n := roundtrip.FuzzCalls(t, roundtrip.Calls{New: c.Root, PerTool: 10, Seed: uint64(i + 1), Reader: c.Name})
			t.Logf("%+v", n)
			if n.Read < n.Calls/4 {
				t.Errorf("%+v: too few calls read back", n)
			}
		})
	}
}
