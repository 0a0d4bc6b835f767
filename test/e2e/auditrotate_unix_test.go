//go:build unix

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// auditLines reads the JSON lines of an audit file, failing on a line that
// is not JSON; nil while the file is missing.
func auditLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []map[string]any
	for _, l := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatalf("%s: a line is not JSON: %q", path, l)
		}
		out = append(out, m)
	}
	return out
}

// waitLines waits until path has n lines.
func waitLines(t *testing.T, path string, n int) []map[string]any {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		lines := auditLines(t, path)
		if len(lines) == n {
			return lines
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s has %d lines, want %d", path, len(lines), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

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
	waitLines(t, p, 1)
	if err := os.Rename(p, p+".1"); err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(s.stderr.String(), "SIGHUP: the audit log is opened again") {
		if time.Now().After(deadline) {
			t.Fatalf("no reopening logged:\n%s", s.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	version()
	if l := waitLines(t, p, 1); l[0]["tool"] != "mycli_version" {
		t.Errorf("the new file: %v", l)
	}
	if l := auditLines(t, p+".1"); len(l) != 1 || l[0]["tool"] != "mycli_version" {
		t.Errorf("the rotated file: %v", l)
	}
	// Moved without a signal.
	if err := os.Rename(p, p+".2"); err != nil {
		t.Fatal(err)
	}
	version()
	l := waitLines(t, p, 2)
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
