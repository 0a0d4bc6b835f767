package httpe2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// auditFileLines reads the JSON lines of an audit file, failing on a line
// that is not JSON; nil while the file is missing.
func auditFileLines(t *testing.T, path string) []map[string]any {
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

// TestAuditLogRotationOverHTTP (issue 34.7) on `mycli mcp stream`: the
// file renamed and SIGHUP sent to the server, as logrotate's postrotate
// does, leaves the lines before in the renamed file and those after in a
// new one, with the server serving the same session; a second rotation
// too; a symbolic link or a named pipe at the path stops the start with
// the path named.
func TestAuditLogRotationOverHTTP(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "calls.audit")
	s := startServer(t, []string{"MYCLI_MCP_TOKEN=" + testToken}, "--audit-log", p)
	cs := mustConnect(t, s, testToken)
	ctx := context.Background()
	for round := 1; round <= 2; round++ {
		// The file holds the line of the call after the last rotation.
		before := len(auditFileLines(t, p))
		if _, err := callEcho(ctx, cs, "before"); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the call's line", func() bool { return len(auditFileLines(t, p)) == before+1 })
		rotated := p + "." + string(rune('0'+round))
		if err := os.Rename(p, rotated); err != nil {
			t.Fatal(err)
		}
		if err := s.cmd.Process.Signal(syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the reopening logged", func() bool {
			return strings.Count(s.stderr.String(), "SIGHUP: the audit log is opened again") == round
		})
		if _, err := callEcho(ctx, cs, "after"); err != nil {
			t.Fatalf("after SIGHUP: %v\n%s", err, s.stderr)
		}
		waitFor(t, "the line in the new file", func() bool { return len(auditFileLines(t, p)) == 1 })
		if l := auditFileLines(t, p); l[0]["tool"] != "mycli_echo" {
			t.Errorf("round %d, the new file: %v", round, l)
		}
		if l := auditFileLines(t, rotated); len(l) != before+1 || l[before]["tool"] != "mycli_echo" {
			t.Errorf("round %d, the rotated file: %v", round, l)
		}
	}

	link, fifo := filepath.Join(dir, "link.audit"), filepath.Join(dir, "fifo.audit")
	if err := os.Symlink(filepath.Join(dir, "calls.audit.1"), link); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, says string }{{link, "is a symbolic link"}, {fifo, "is a named pipe (FIFO)"}} {
		start := time.Now()
		_, err := tryStartServer(t, nil, "--addr", "127.0.0.1:0", "--audit-log", c.path)
		if err == nil || !strings.Contains(err.Error(), "audit log "+c.path+": "+c.says) || time.Since(start) > 25*time.Second {
			t.Errorf("--audit-log %s: %v", c.path, err)
		}
	}
}
