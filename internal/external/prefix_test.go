package external_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/cobramcp/cobramcp/internal/exec"
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

// TestMatchingFromOutside: the binary is asked once how it matches
// sub-command names (cobra's EnablePrefixMatching, EnableCaseInsensitive),
// and a call writes "--" before show's args exactly when the CLI would
// read the first of them as a sub-command's name: show then sees
// ArgsLenAtDash -1, as when a person types the args, and never runs
// "secret-wipe".
func TestMatchingFromOutside(t *testing.T) {
	bin := fixture(t, "testdata/prefixcli")
	tests := []struct {
		env, want string
		dash      map[string]bool // arg: whether it must follow "--"
	}{
		{"", "prefix,case", map[string]bool{"sec": true, "SW": true, "other": false, "secret-wipes": false}},
		{"prefix", exec.MatchPrefix, map[string]bool{"sec": true, "SW": false, "SECRET-WIPE": false, "other": false}},
		{"case", exec.MatchCase, map[string]bool{"sec": false, "SW": true, "Secret-Wipe": true, "other": false}},
		{"none", exec.MatchExact, map[string]bool{"sec": false, "SW": false, "sw": true, "secret-wipe": true, "other": false}},
	}
	for _, tt := range tests {
		env := append(os.Environ(), "PREFIXCLI_MATCHING="+tt.env)
		r, err := external.Load(context.Background(), bin, &external.Options{NoCache: true, Env: env})
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Root.Annotations[exec.AnnotationMatching]; got != tt.want {
			t.Errorf("PREFIXCLI_MATCHING=%q: matching %q, want %q", tt.env, got, tt.want)
		}
		ts, err := toolset.New(r.Root, &toolset.Config{Executable: r.Path, Env: env})
		if err != nil {
			t.Fatal(err)
		}
		v, err := ts.View(toolset.Listing{}, toolset.Policy{Tools: []string{"prefixcli_show"}})
		if err != nil {
			t.Fatal(err)
		}
		for arg, dash := range tt.dash {
			in, _ := json.Marshal(map[string]any{"args": []string{arg}})
			res, err := v.Call(context.Background(), "prefixcli_show", in)
			if err != nil {
				t.Fatal(err)
			}
			out, ok := res.StructuredContent.(toolset.Output)
			if !ok {
				t.Errorf("PREFIXCLI_MATCHING=%q, arg %q: refused: %+v", tt.env, arg, res.Content)
				continue
			}
			want := "at dash -1\n"
			if dash {
				want = "at dash 0\n"
			}
			if out.Stdout != "show "+arg+"\n" || out.Stderr != want {
				t.Errorf("PREFIXCLI_MATCHING=%q, arg %q: stdout %q, stderr %q; want show %s, %q", tt.env, arg, out.Stdout, out.Stderr, arg, want)
			}
		}
	}
}
