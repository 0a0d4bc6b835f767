package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/cobramcp/cobramcp/example/mycli"
)

// BenchmarkCallOverhead measures what a tools/call adds to running the
// command: each iteration runs `mycli version` once directly (fork/exec,
// wait, read its output) and once as a tools/call on an open MCP session
// (mcp start on stdio, go-sdk client), and reports the median of each and
// the median overhead (the difference of the medians) as custom metrics.
//
//	go test -run='^$' -bench=CallOverhead -benchtime=300x ./test/e2e/
func BenchmarkCallOverhead(b *testing.B) {
	s := startServer(b, serverOptions{})
	ctx := context.Background()
	env := append(os.Environ(), mycli.StateEnv+"="+s.state)
	direct := make([]time.Duration, 0, b.N)
	viaMCP := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		cmd := exec.Command(mycliBin, "version")
		cmd.Env = env
		out, err := cmd.Output()
		direct = append(direct, time.Since(start))
		if err != nil || string(out) != "mycli version 1.4.2\n" {
			b.Fatalf("mycli version: %v %q", err, out)
		}

		start = time.Now()
		res, err := s.callErr(ctx, "mycli_version", `{}`)
		viaMCP = append(viaMCP, time.Since(start))
		if err != nil || res.IsError {
			b.Fatalf("tools/call mycli_version: %v %+v", err, res)
		}
	}
	b.StopTimer()
	md, mm := median(direct), median(viaMCP)
	b.ReportMetric(float64(md.Microseconds()), "direct-µs")
	b.ReportMetric(float64(mm.Microseconds()), "mcp-µs")
	b.ReportMetric(float64((mm - md).Microseconds()), "overhead-µs")
	if code := s.close(); code != 0 {
		b.Errorf("server exit code %d", code)
	}
}

// BenchmarkHugeOutputMemory measures the server's peak resident memory
// (VmHWM) for one call printing 100 MB (`flood --bytes 100000000`), read
// from /proc before the server exits; each iteration is a fresh server.
//
//	go test -run='^$' -bench=HugeOutputMemory -benchtime=3x ./test/e2e/
func BenchmarkHugeOutputMemory(b *testing.B) {
	const total = 100_000_000
	var peak int64
	for range b.N {
		s := startServer(b, serverOptions{})
		res, err := s.callErr(context.Background(), "mycli_flood", fmt.Sprintf(`{"flags":{"bytes":%d}}`, total))
		if err != nil || res.IsError {
			b.Fatalf("flood: %v", err)
		}
		peak = max(peak, vmHWM(b, s.pid()))
		if code := s.close(); code != 0 {
			b.Errorf("server exit code %d", code)
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
	b.ReportMetric(total/(1<<20), "output-MiB")
}

// median returns the median of d (which it sorts).
func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	if len(d)%2 == 1 {
		return d[len(d)/2]
	}
	return (d[len(d)/2-1] + d[len(d)/2]) / 2
}
