package external_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cobramcp/cobramcp/internal/external"
)

func TestParseOverlay(t *testing.T) {
	o, err := external.ParseOverlay([]byte(`{
  // kubectl's get reads only
  "commands": {
    "get": {"readOnly": true, /* and twice is as once */ "idempotent": true,},
  },
  "exclude": ["proxy",],
}`))
	if err != nil {
		t.Fatal(err)
	}
	if c := o.Commands["get"]; c == nil || c.ReadOnly == nil || !*c.ReadOnly || len(o.Exclude) != 1 {
		t.Errorf("overlay: %+v", o)
	}
	for _, tc := range []struct{ src, want string }{
		{`{"comands": {}}`, `unknown field "comands"`},
		{"{\n  \"exclude\": [\"a\" \"b\"]\n}", "line 2"},
		{`{"exclude": "proxy"}`, "cannot unmarshal string"},
	} {
		if _, err := external.ParseOverlay([]byte(tc.src)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseOverlay(%q) = %v, want an error with %q", tc.src, err, tc.want)
		}
	}
}

// TestBuiltinOverlay: the overlay cobramcp ships for a CLI applies when no
// other is given, and is noted; its names that the binary lacks are noted
// and skipped (here a fixture named kubectl has none of kubectl's).
func TestBuiltinOverlay(t *testing.T) {
	if o, err := external.BuiltinOverlay("kubectl"); err != nil || o == nil || o.Commands["get"] == nil {
		t.Fatalf("BuiltinOverlay(kubectl) = %+v, %v", o, err)
	}
	if o, err := external.BuiltinOverlay("templated"); o != nil || err != nil {
		t.Errorf("BuiltinOverlay(templated) = %+v, %v", o, err)
	}
	src, err := os.ReadFile(fixture(t, "testdata/templated"))
	if err != nil {
		t.Fatal(err)
	}
	// The root command is named kubectl, the file k: the overlay goes by
	// the root's name.
	bin := filepath.Join(t.TempDir(), "k")
	if err := os.WriteFile(bin, src, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TEMPLATED_NAME", "kubectl")
	notes := func(builtin bool) string {
		r, err := external.Load(context.Background(), bin, &external.Options{NoCache: true, Builtin: builtin})
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(r.Notes, "\n")
	}
	got := notes(true)
	for _, want := range []string{"applied the overlay cobramcp ships for kubectl", `built-in overlay for kubectl: commands: no command "get": skipped`, `built-in overlay for kubectl: exclude "proxy": no such command: skipped`} {
		if !strings.Contains(got, want) {
			t.Errorf("notes lack %q:\n%s", want, got)
		}
	}
	if got := notes(false); strings.Contains(got, "overlay") {
		t.Errorf("without Builtin: %s", got)
	}
}
