package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOverlayLimits: an overlay's "limits" set the call limits of a CLI
// served from outside, as an author's Config does; --timeout wins over
// them. A 5 s sleep under a 1 s timeout ends "timed out".
func TestOverlayLimits(t *testing.T) {
	bin := mycli(t)
	t.Setenv("MYCLI_STATE", filepath.Join(t.TempDir(), "state.json"))
	overlay := filepath.Join(t.TempDir(), "overlay.json")
	if err := os.WriteFile(overlay, []byte(`{"limits": {"timeout": "1s", "maxParallel": 2}} // a test
`), 0o644); err != nil {
		t.Fatal(err)
	}
	sleep := func(extra ...string) (string, error) {
		args := append([]string{"mcp", "call", "mycli_sleep", `{"flags":{"for":"5s"}}`, "--overlay", overlay, "--cache-dir", sharedCache}, extra...)
		return run(t, append(args, "--", bin)...)
	}
	out, err := sleep()
	if err == nil || !strings.Contains(err.Error(), "timed out after 1s") {
		t.Errorf("overlay timeout 1s: %v\n%s", err, out)
	}
	out, err = sleep("--timeout", "2s")
	if err == nil || !strings.Contains(err.Error(), "timed out after 2s") {
		t.Errorf("--timeout 2s over the overlay's 1s: %v\n%s", err, out)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"limits": {"timeout": "soon"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, "mcp", "call", "mycli_version", "{}", "--overlay", bad, "--cache-dir", sharedCache, "--", bin); err == nil || !strings.Contains(err.Error(), `limits.timeout "soon"`) {
		t.Errorf("bad limits: %v", err)
	}
}
