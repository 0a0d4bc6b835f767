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

// TestPrivateSetTightens: a Set that writes a secret (File.Private) into a
// file its group or others may read leaves the file and its backup to
// the owner alone and reports the mode it had; a dry run only reports it;
// a file already private, or a Set without a secret, keeps its mode; a
// secret already there (nothing to change) still tightens the file and
// the backup left by an earlier write.
func TestPrivateSetTightens(t *testing.T) {
	for _, mode := range []os.FileMode{0o644, 0o640, 0o604, 0o666, 0o600, 0o700} {
		t.Run(mode.String(), func(t *testing.T) {
			for _, cl := range []string{"cursor", "codex"} {
				c, _ := Lookup(cl)
				path := filepath.Join(t.TempDir(), "config")
				src := map[Format]string{JSON: "{\"theme\": 1}\n", TOML: "model = \"m\"\n"}[c.Format]
				write := func() {
					if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
						t.Fatal(err)
					}
					if err := os.Chmod(path, mode); err != nil {
						t.Fatal(err)
					}
				}
				perm := func(p string) os.FileMode {
					fi, err := os.Stat(p)
					if err != nil {
						t.Fatal(err)
					}
					return fi.Mode().Perm()
				}
				want, tightened := mode&^0o077, mode
				if mode&0o077 == 0 {
					tightened = 0
				}
				write()
				f := c.File(path)
				f.Private = true
				ch, err := f.Set("mycli", roundTripServer(c), true)
				if err != nil || ch.Tightened != tightened || perm(path) != mode {
					t.Fatalf("%s dry run: %+v %v, mode %v", cl, ch, err, perm(path))
				}
				ch, err = f.Set("mycli", roundTripServer(c), false)
				if err != nil || !ch.Written || ch.Tightened != tightened {
					t.Fatalf("%s: %+v %v", cl, ch, err)
				}
				if perm(path) != want || perm(ch.Backup) != want {
					t.Errorf("%s: file %v, backup %v; want %v", cl, perm(path), perm(ch.Backup), want)
				}
				// Opened up again by hand, the secret already there.
				if err := os.Chmod(path, mode); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(ch.Backup, mode); err != nil {
					t.Fatal(err)
				}
				ch, err = f.Set("mycli", roundTripServer(c), false)
				if err != nil || ch.Changed() || ch.Tightened != tightened {
					t.Fatalf("%s again: %+v %v", cl, ch, err)
				}
				if perm(path) != want || perm(path+".bak") != want {
					t.Errorf("%s again: file %v, backup %v; want %v", cl, perm(path), perm(path+".bak"), want)
				}
				// Without a secret the mode stays.
				write()
				f.Private = false
				if ch, err = f.Set("mycli", roundTripServer(c), false); err != nil || ch.Tightened != 0 || perm(path) != mode {
					t.Errorf("%s without a secret: %+v %v, mode %v", cl, ch, err, perm(path))
				}
			}
		})
	}
}
