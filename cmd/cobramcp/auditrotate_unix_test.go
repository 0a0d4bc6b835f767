//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type lockedBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestAuditLogRotation (issue 34.7): `cobramcp start --audit-log FILE --
// mycli` opens its audit log again on SIGHUP, after the file was renamed
// (logrotate's way), and goes on serving.
func TestAuditLogRotation(t *testing.T) {
	bin, self := mycli(t), build(t, ".", "cobramcp")
	p := filepath.Join(t.TempDir(), "calls.audit")
	cmd := osexec.Command(self, "start", "--cache-dir="+sharedCache, "--audit-log", p, "--", bin)
	cmd.Env = append(os.Environ(), "MYCLI_STATE="+filepath.Join(t.TempDir(), "state.json"))
	stderr := &lockedBuf{}
	cmd.Stderr = stderr
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	lines := func(path string) int {
		b, _ := os.ReadFile(path)
		return strings.Count(string(b), "\n")
	}
	wait := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("waited 20s for %s\n%s", what, stderr)
			}
		}
	}
	call := func() {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_version", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("mycli_version: %v %v\n%s", err, res, stderr)
		}
	}
	call()
	wait("the first line", func() bool { return lines(p) == 1 })
	if err := os.Rename(p, p+".1"); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	wait("the reopening logged", func() bool { return strings.Contains(stderr.String(), "SIGHUP: the audit log is opened again") })
	call()
	wait("the line in the new file", func() bool { return lines(p) == 1 })
	if n := lines(p + ".1"); n != 1 {
		t.Errorf("the rotated file has %d lines, want 1", n)
	}
}
