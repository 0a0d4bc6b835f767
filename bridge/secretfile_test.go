package bridge

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestEnableSecretTightensFile: enable writing a secret (--env API_KEY=...,
// a pin with --set) into an existing client config of mode 0644 leaves the
// file and its backup to the owner (0600) and says so; a dry run only
// says it would; an entry without one keeps the file's mode.
func TestEnableSecretTightensFile(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		secret string // what the summary names; "" for none
	}{
		{"no secret", []string{"--", "--read-only"}, ""},
		{"--env", []string{"--env", "API_KEY=s3cret"}, "--env"},
		{"--set", []string{"--", "--set", "kubeconfig=/secret/path"}, "--set"},
		{"--set=", []string{"--", "--read-only", "--set=kubeconfig=/secret/path"}, "--set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "settings.json")
			if err := os.WriteFile(path, []byte("{\"theme\": \"dark\"}\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, 0o644); err != nil {
				t.Fatal(err)
			}
			mode := func(p string) os.FileMode {
				fi, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				return fi.Mode().Perm()
			}
			enable := func(extra ...string) string {
				root := &cobra.Command{Use: "kubectl2"}
				root.AddCommand(New(Options{Name: "serve-mcp"}))
				var out bytes.Buffer
				root.SetOut(&out)
				root.SetErr(&out)
				root.SetArgs(append(append([]string{"serve-mcp", "gemini", "enable", "--config-path", path}, extra...), tt.args...))
				if err := root.Execute(); err != nil {
					t.Fatalf("%v\n%s", err, out.String())
				}
				return out.String()
			}
			out := enable("--dry-run")
			if mode(path) != 0o644 {
				t.Fatalf("the dry run changed the mode to %v", mode(path))
			}
			if said := strings.Contains(out, "would be mode 0600"); said != (tt.secret != "") {
				t.Errorf("dry run said:\n%s", out)
			}
			out = enable()
			want := os.FileMode(0o644)
			if tt.secret != "" {
				want = 0o600
				if line := path + " was mode 0644, open to others, and the entry holds a secret (" + tt.secret + "): it and its backup are now mode 0600."; !strings.Contains(out, line) {
					t.Errorf("enable said:\n%s\nwant %q", out, line)
				}
			} else if strings.Contains(out, "0600") {
				t.Errorf("enable without a secret said:\n%s", out)
			}
			if mode(path) != want || mode(path+".bak") != want {
				t.Errorf("file %v, backup %v; want %v", mode(path), mode(path+".bak"), want)
			}
		})
	}
}
