package httpe2e

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/internal/oidctest"
)

// BenchmarkAuthorizedCall measures one tools/call at a time through `mcp
// stream` as a team server (OAuth, an access file whose second rule
// admits the caller): the call's latency (median) and the server's CPU
// per call, which include verifying the token and authorizing the
// request. Alternate MYCLI_BIN between two builds to compare them:
//
//	MYCLI_BIN=/tmp/a/mycli go test -run='^$' -bench=AuthorizedCall -benchtime=400x ./test/e2e/http/
func BenchmarkAuthorizedCall(b *testing.B) {
	idp := oidctest.Start(b)
	dir := b.TempDir()
	accessFile := filepath.Join(dir, "access.json")
	if err := os.WriteFile(accessFile, []byte(`{"rules": [{"group": "admins"}, {"scope": "mycli.read", "read-only": true}]}`), 0o600); err != nil {
		b.Fatal(err)
	}
	s := oauthServer(b, idp, false, "--access", accessFile)
	cs := mustConnect(b, s, idp.Token(b, map[string]any{"sub": "alice", "aud": s.url, "scope": "openid mycli.read", "groups": []string{"dev"}}))
	ctx := context.Background()
	call := func() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_version", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			b.Fatalf("tools/call: %v %+v", err, res)
		}
	}
	for range 20 { // warm up
		call()
	}
	lat := make([]time.Duration, 0, b.N)
	cpu0 := cpuTime(b, s.cmd.Process.Pid)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		call()
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	cpu := cpuTime(b, s.cmd.Process.Pid) - cpu0
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "median-µs")
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "server-cpu-µs/call")
}
