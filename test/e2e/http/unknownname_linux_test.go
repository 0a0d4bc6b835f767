package httpe2e

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/test/auditfile"
)

// hugeName is a tool name of 4,000,000 bytes, under the default body limit
// (4 MiB): the (34.9) name, which cost mycli 2.5 s of CPU.
var hugeName = "mycli_get_pods" + strings.Repeat("s", 4_000_000-len("mycli_get_pods"))

// TestUnknownHugeToolName (issue 34.9): a call of a tool named with 4 MB is
// refused with a short message quoting the start of the name and its
// length, over the real server; a typo is still named; the server goes on
// serving. (BenchmarkUnknownHugeToolName gives its CPU.)
func TestUnknownHugeToolName(t *testing.T) {
	t.Parallel()
	auditFile := filepath.Join(t.TempDir(), "calls.audit")
	s := startServer(t, []string{"MYCLI_MCP_TOKEN=" + testToken}, "--audit-log", auditFile)
	cs := mustConnect(t, s, testToken)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: hugeName, Arguments: map[string]any{}})
	if err == nil || len(err.Error()) > 400 || !strings.Contains(err.Error(), `unknown tool "mycli_get_podsss`) || !strings.Contains(err.Error(), "(4000000 bytes)") {
		t.Errorf("a 4 MB name: %.400v; want a short refusal naming its length", err)
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_get_pdos", Arguments: map[string]any{}})
	if err == nil || !strings.Contains(err.Error(), `did you mean "mycli_get_pods"?`) {
		t.Errorf("a typo: %v", err)
	}
	if _, err := callEcho(ctx, cs, "after"); err != nil {
		t.Fatalf("the server no longer serves: %v\n%s", err, s.stderr)
	}
	// The audit line of the refusal holds the name's start and length.
	lines := auditfile.WaitLines(t, auditFile, 3)
	if b, _ := os.ReadFile(auditFile); len(b) > 4096 {
		t.Errorf("the audit log holds %d bytes for three calls", len(b))
	}
	if tool, _ := lines[0]["tool"].(string); !strings.HasPrefix(tool, "mycli_get_podsss") || !strings.HasSuffix(tool, "… (4000000 bytes)") {
		t.Errorf("the refusal's audit tool: %.300q", tool)
	}
}

// cpuTime is the user and system CPU time pid has used.
func cpuTime(tb testing.TB, pid int) time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		tb.Fatal(err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	utime, _ := strconv.Atoi(f[11])
	stime, _ := strconv.Atoi(f[12])
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ
}

// BenchmarkUnknownHugeToolName: the server's CPU (server-ms/op, from
// /proc) to refuse a call of an unknown tool named with 4 MB, and with a
// typo, over HTTP: the 4 MB name costs its decoding, not a comparison
// with every tool.
func BenchmarkUnknownHugeToolName(b *testing.B) {
	s := startServer(b, []string{"MYCLI_MCP_TOKEN=" + testToken})
	cs, err := connect(b, context.Background(), s, testToken)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	for _, bb := range []struct{ name, tool string }{{"typo", "mycli_get_pdos"}, {"4MB", hugeName}} {
		b.Run(bb.name, func(b *testing.B) {
			cpu0 := cpuTime(b, s.cmd.Process.Pid)
			for b.Loop() {
				if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: bb.tool, Arguments: map[string]any{}}); err == nil {
					b.Fatal("not refused")
				}
			}
			b.ReportMetric(float64(cpuTime(b, s.cmd.Process.Pid)-cpu0)/float64(time.Millisecond)/float64(b.N), "server-ms/op")
		})
	}
}
