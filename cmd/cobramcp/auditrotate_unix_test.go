//go:build unix

package main

import (
	"context"
	"os"
	osexec "os/exec"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/test/auditfile"
	"github.com/cobramcp/cobramcp/test/proctest"
)

// TestAuditLogRotation (issue 34.7): `cobramcp start --audit-log FILE --
// mycli` opens its audit log again on SIGHUP, after the file was renamed
// (logrotate's way), and goes on serving.
func TestAuditLogRotation(t *testing.T) {
	bin, self := mycli(t), build(t, ".", "cobramcp")
	p := filepath.Join(t.TempDir(), "calls.audit")
	cmd := osexec.Command(self, "start", "--cache-dir="+sharedCache, "--audit-log", p, "--", bin)
	cmd.Env = append(os.Environ(), "MYCLI_STATE="+filepath.Join(t.TempDir(), "state.json"))
	stderr := &proctest.Buffer{}
	cmd.Stderr = stderr
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("cobramcp's stderr:\n%s", stderr)
		}
	})
	call := func() {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_version", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("mycli_version: %v %v\n%s", err, res, stderr)
		}
	}
	call()
	auditfile.WaitLines(t, p, 1)
	auditfile.Rotate(t, cmd.Process, p, p+".1", stderr, 1)
	call()
	auditfile.WaitLines(t, p, 1)
	if n := len(auditfile.Lines(t, p+".1")); n != 1 {
		t.Errorf("the rotated file has %d lines, want 1", n)
	}
}
