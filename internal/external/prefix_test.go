package external_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cobramcp/cobramcp/internal/external"
	"github.com/cobramcp/cobramcp/toolset"
)

// TestPrefixMatchingFromOutside serves only "show" of a CLI that matches
// sub-commands by prefix and in any case (cobra's EnablePrefixMatching and
// EnableCaseInsensitive, which cannot be seen from outside): no first arg
// runs its unserved sub-command "secret-wipe", whether the tree holds it
// or the overlay left it out.
func TestPrefixMatchingFromOutside(t *testing.T) {
	bin := fixture(t, "testdata/prefixcli")
	for _, overlay := range []*external.Overlay{nil, {Exclude: []string{"show secret-wipe"}}} {
		r, err := external.Load(context.Background(), bin, &external.Options{NoCache: true, Overlay: overlay})
		if err != nil {
			t.Fatal(err)
		}
		ts, err := toolset.New(r.Root, &toolset.Config{Executable: r.Path})
		if err != nil {
			t.Fatal(err)
		}
		v, err := ts.View(toolset.Listing{}, toolset.Policy{Tools: []string{"prefixcli_show"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, arg := range []string{"sec", "SECRET-WIPE", "secret-wipe", "sw", "SW", "s"} {
			args, _ := json.Marshal(map[string]any{"args": []string{arg}})
			res, err := v.Call(context.Background(), "prefixcli_show", args)
			if err != nil {
				t.Fatal(err)
			}
			out, ok := res.StructuredContent.(toolset.Output)
			if !ok {
				t.Errorf("overlay %v, arg %q: refused: %+v", overlay != nil, arg, res.Content)
				continue
			}
			if strings.Contains(out.Stdout, "WIPED") || out.Stdout != "show "+arg+"\n" {
				t.Errorf("overlay %v, arg %q: stdout %q; want %q", overlay != nil, arg, out.Stdout, "show "+arg+"\n")
			}
		}
	}
}
