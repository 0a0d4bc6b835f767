//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package clientcfg

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAtomicWritesKeepMode: enable and disable replace the file (a new
// inode: a temporary file renamed over it, so that a reader never sees
// half a file) and give it, and its backup, the mode the file had,
// whatever the umask.
func TestAtomicWritesKeepMode(t *testing.T) {
	for _, mode := range []os.FileMode{0o600, 0o640, 0o644, 0o660, 0o664, 0o604, 0o755} {
		t.Run(mode.String(), func(t *testing.T) {
			for _, cl := range []string{"cursor", "codex"} {
				c, _ := Lookup(cl)
				path := filepath.Join(t.TempDir(), "config")
				src := map[Format]string{JSON: "{\"theme\": 1}\n", TOML: "model = \"m\"\n"}[c.Format]
				if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path, mode); err != nil { // the umask does not apply
					t.Fatal(err)
				}
				f := c.File(path)
				for _, op := range []string{"enable", "disable"} {
					before, err := os.Stat(path)
					if err != nil {
						t.Fatal(err)
					}
					var ch *Change
					if op == "enable" {
						ch, err = f.Set("mycli", roundTripServer(c), false)
					} else {
						ch, err = f.Remove("mycli", false)
					}
					if err != nil || !ch.Written {
						t.Fatalf("%s %s: %+v %v", cl, op, ch, err)
					}
					after, err := os.Stat(path)
					if err != nil {
						t.Fatal(err)
					}
					if os.SameFile(before, after) {
						t.Errorf("%s %s: the file was written in place, not replaced", cl, op)
					}
					if after.Mode().Perm() != mode {
						t.Errorf("%s %s: mode %v, want %v", cl, op, after.Mode().Perm(), mode)
					}
					if bak, err := os.Stat(ch.Backup); err != nil || bak.Mode().Perm() != mode {
						t.Errorf("%s %s: backup %v %v, want mode %v", cl, op, bak, err, mode)
					}
				}
				if b, _ := os.ReadFile(path); string(b) != src {
					t.Errorf("%s: enable then disable left %q", cl, b)
				}
				if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(left) != 0 {
					t.Errorf("%s: temporary or lock files left: %v", cl, left)
				}
			}
		})
	}
}
