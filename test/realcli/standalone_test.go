package realcli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cobramcp/cobramcp/toolset"
)

// maxKubectlCompact is issue 18's budget for kubectl's compact tools/list.
const maxKubectlCompact = 310_000

// TestKubectlListingStandsAlone: kubectl's compact listing, the one
// tools/list and `mcp tools` give, lets a model use every shared flag
// without the server instructions (which clients may drop, and an export
// does not carry): each tool's "flags" description names each shared flag
// that its schema leaves out, with the flag's JSON type; and the whole
// stays within its budget.
func TestKubectlListingStandsAlone(t *testing.T) {
	f, err := Measure("kubectl", Kubectl(), toolset.Listing{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("kubectl compact tools/list: %d bytes, %d tools", f.List, f.Tools)
	if f.List > maxKubectlCompact {
		t.Errorf("kubectl's compact listing is %d bytes, over %d", f.List, maxKubectlCompact)
	}
	ts, err := toolset.New(Kubectl(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// The shared flags a tool's listing leaves out are those its definition
	// (every flag it serves) has and its listed schema has not.
	shared := map[string]bool{}
	for _, tool := range fullView(ts).Tools() {
		in := tool.InputSchema.(*jsonschema.Schema)
		listed := in.Properties["flags"]
		if listed == nil {
			continue
		}
		tl, _ := lookup(fullView(ts), tool.Name)
		expanded := tl.Definition().InputSchema.(*jsonschema.Schema).Properties["flags"]
		for name, p := range expanded.Properties {
			if _, own := listed.Properties[name]; own {
				continue
			}
			shared[name] = true
			if !names(listed.Description, p.Type, name) {
				t.Errorf("%s: its flags description does not name the shared --%s (%s): %q", tool.Name, name, p.Type, listed.Description)
			}
		}
	}
	if len(shared) < 20 {
		t.Fatalf("kubectl's listing leaves out %d shared flags, want 20 or more", len(shared))
	}
	// The export is the listing itself, JSON as tools/list sends it.
	b, _ := json.Marshal(fullView(ts).Tools())
	if !strings.Contains(string(b), "not listed, the shared flags (string: ") {
		t.Error("the exported listing does not name the shared flags")
	}
}

// names reports whether a compact "flags" description names flag under
// typ, in its "(TYPE: a, b; TYPE: c)" part.
func names(d, typ, flag string) bool {
	open, end := strings.Index(d, "("), strings.LastIndex(d, ")")
	if open < 0 || end < open {
		return false
	}
	for _, group := range strings.Split(d[open+1:end], "; ") {
		if rest, ok := strings.CutPrefix(group, typ+": "); ok {
			for _, n := range strings.Split(rest, ", ") {
				if n == flag {
					return true
				}
			}
		}
	}
	return false
}
