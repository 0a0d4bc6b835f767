package httpe2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cobramcp/cobramcp/test/auditfile"
)

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
		before := len(auditfile.Lines(t, p))
		if _, err := callEcho(ctx, cs, "before"); err != nil {
			t.Fatal(err)
		}
		auditfile.WaitLines(t, p, before+1)
		rotated := p + "." + string(rune('0'+round))
		auditfile.Rotate(t, s.cmd.Process, p, rotated, s.stderr, round)
		if _, err := callEcho(ctx, cs, "after"); err != nil {
			t.Fatalf("after SIGHUP: %v\n%s", err, s.stderr)
		}
		if l := auditfile.WaitLines(t, p, 1); l[0]["tool"] != "mycli_echo" {
			t.Errorf("round %d, the new file: %v", round, l)
		}
		if l := auditfile.Lines(t, rotated); len(l) != before+1 || l[before]["tool"] != "mycli_echo" {
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
