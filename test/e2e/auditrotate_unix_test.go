//go:build unix

package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cobramcp/cobramcp/test/auditfile"
)

// TestAuditLogRotation (issue 34.7) on `mycli mcp start`: what logrotate
// does (the file renamed, then SIGHUP to the server, its postrotate) leaves
// the lines before in the renamed file and those after in a new one, and
// the server serving; a file moved away without SIGHUP is noticed, and the
// new file starts with a mark of the lines that may be missing.
func TestAuditLogRotation(t *testing.T) {
	p := filepath.Join(t.TempDir(), "calls.audit")
	s := startServer(t, serverOptions{args: []string{"--audit-log", p}})
	ctx := context.Background()
	version := func() {
		t.Helper()
		if res := s.call(t, ctx, "mycli_version", `{}`); res.IsError {
			t.Fatalf("mycli_version: %s", resultText(t, res))
		}
	}
	version()
	auditfile.WaitLines(t, p, 1)
	auditfile.Rotate(t, s.cmd.Process, p, p+".1", s.stderr, 1)
	version()
	if l := auditfile.WaitLines(t, p, 1); l[0]["tool"] != "mycli_version" {
		t.Errorf("the new file: %v", l)
	}
	if l := auditfile.Lines(t, p+".1"); len(l) != 1 || l[0]["tool"] != "mycli_version" {
		t.Errorf("the rotated file: %v", l)
	}
	// Moved without a signal.
	if err := os.Rename(p, p+".2"); err != nil {
		t.Fatal(err)
	}
	version()
	l := auditfile.WaitLines(t, p, 2)
	if l[0]["reopened"] != p || l[0]["mayBeMissing"] != 1.0 || l[1]["tool"] != "mycli_version" {
		t.Errorf("the file after a move without SIGHUP: %v", l)
	}
	if code := s.close(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// TestAuditLogRefusedPaths (issue 34.7): `mycli mcp start --audit-log`
// naming a symbolic link or a named pipe exits at once with an error
// naming the path; nothing is written through the link.
func TestAuditLogRefusedPaths(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "victim")
	if err := os.WriteFile(target, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link, fifo := filepath.Join(dir, "link.audit"), filepath.Join(dir, "fifo.audit")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, says string }{{link, "is a symbolic link"}, {fifo, "is a named pipe (FIFO)"}} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		out, err := exec.CommandContext(ctx, mycliBin, "mcp", "start", "--audit-log", c.path).CombinedOutput()
		hung := ctx.Err() != nil
		cancel()
		if hung {
			t.Fatalf("--audit-log %s: the server did not exit (a hang)", c.path)
		}
		if err == nil || !strings.Contains(string(out), "--audit-log: audit log "+c.path+": "+c.says) {
			t.Errorf("--audit-log %s: %v\n%s", c.path, err, out)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "precious\n" {
		t.Errorf("the link's target: %q", b)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o644 {
		t.Errorf("the link's target's mode: %v", fi.Mode().Perm())
	}
}
