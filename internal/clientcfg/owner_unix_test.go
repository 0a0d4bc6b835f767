//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package clientcfg

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestBackupKeepsConfigOwner checks that the backup and the new file get
// the owner of the configuration file, not that of an older backup (run
// as root, the file belongs to another user, as under sudo; otherwise
// every file is the caller's).
func TestBackupKeepsConfigOwner(t *testing.T) {
	uid, gid := os.Getuid(), os.Getgid()
	if uid == 0 {
		uid, gid = 4242, 4343
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, readFixture(t, "cursor-mcp.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+".bak", []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, uid, gid); err != nil {
		t.Fatal(err)
	}
	f := File{Path: path, Format: JSON, Key: []string{"mcpServers"}}
	if _, err := f.Set("mycli", testServer, false); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + ".bak"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		if int(st.Uid) != uid || int(st.Gid) != gid {
			t.Errorf("%s owner = %d:%d, want %d:%d (the config file's)", filepath.Base(p), st.Uid, st.Gid, uid, gid)
		}
	}
}
