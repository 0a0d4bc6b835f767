package httpe2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/internal/oidctest"
)

// vmKB is a line of /proc/PID/status in KB: VmRSS or VmHWM.
func vmKB(tb testing.TB, pid int, field string) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		tb.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	tb.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// BenchmarkClaimValuesMemory (issue 34.6): the memory of `mycli mcp stream
// --access` (a rule pinning --namespace to each caller's email) serving
// 1,000 callers with distinct emails, one after another: each opens a
// session, lists the tools, calls mycli_echo (which shows its own email)
// and closes the session. It reports the server's resident memory after
// them (rss-MB), its peak (hwm-MB), and the growth per caller from the
// first caller's (rss-KB/caller). Run it with -benchtime 1x; set
// MYCLI_TEAM_BIN to measure another build.
func BenchmarkClaimValuesMemory(b *testing.B) {
	const callers = 1000
	idp := oidctest.Start(b)
	accessFile := filepath.Join(b.TempDir(), "access.json")
	if err := os.WriteFile(accessFile, []byte(`{"rules": [{"set-claim": {"namespace": "email"}}]}`), 0o600); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s := oauthServer(b, idp, false, "--access", accessFile)
		pid := s.cmd.Process.Pid
		ctx := context.Background()
		var first int
		for i := range callers {
			email := fmt.Sprintf("user%04d@example.com", i)
			cs := mustConnect(b, s, idp.Token(b, map[string]any{"sub": fmt.Sprint("user", i), "email": email, "aud": s.url}))
			if _, err := cs.ListTools(ctx, nil); err != nil {
				b.Fatal(err)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_echo", Arguments: map[string]any{}})
			if err != nil || res.IsError || !strings.Contains(text(res), `"namespace":"`+email+`"`) {
				b.Fatalf("caller %d: %v %s", i, err, text(res))
			}
			cs.Close()
			if i == 0 {
				first = vmKB(b, pid, "VmRSS")
			}
		}
		rss, hwm := vmKB(b, pid, "VmRSS"), vmKB(b, pid, "VmHWM")
		b.ReportMetric(float64(rss)/1024, "rss-MB")
		b.ReportMetric(float64(hwm)/1024, "hwm-MB")
		b.ReportMetric(float64(rss-first)/(callers-1), "rss-KB/caller")
		s.stop(b)
	}
}
