package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/toolset"
)

// BenchmarkParallelCalls measures how the number of calls run at once
// (bridge.Config.MaxParallel) bounds a burst of calls: each iteration
// starts a batch of calls together, through the call path the server uses
// (Toolset.Call, the real mycli binary), and reports the batch's wall time
// in seconds (batch-s). Two kinds of batch:
//
//   - wait: 32 calls of `sleep --for 1s`, a command that waits, as the
//     commands of kubectl-like CLIs mostly wait on the network;
//   - cpu: 64 calls of `version`, short commands whose cost is starting a
//     process, which only the machine's cores bound.
//
// This is what the default MaxParallel (32) was chosen from (docs/design.md):
//
//	go test -run='^$' -bench=ParallelCalls -benchtime=3x ./test/e2e/
func BenchmarkParallelCalls(b *testing.B) {
	batches := []struct {
		name  string
		calls int
		tool  string
		args  string
	}{
		{"wait-32x1s", 32, "mycli_sleep", `{"flags":{"for":"1s"}}`},
		{"cpu-64xversion", 64, "mycli_version", `{}`},
	}
	for _, bt := range batches {
		for _, max := range []int{4, 8, 16, 32, 64} {
			b.Run(fmt.Sprintf("%s/max=%d", bt.name, max), func(b *testing.B) {
				env := append(os.Environ(), mycli.StateEnv+"="+filepath.Join(b.TempDir(), "state.json"))
				all, err := toolset.New(mycli.New(), &bridge.Config{MaxParallel: max, Executable: mycliBin, Env: env})
				if err != nil {
					b.Fatal(err)
				}
				ts, err := all.View(toolset.Listing{})
				if err != nil {
					b.Fatal(err)
				}
				var total time.Duration
				for range b.N {
					start := time.Now()
					var wg sync.WaitGroup
					errs := make(chan error, bt.calls)
					for range bt.calls {
						wg.Add(1)
						go func() {
							defer wg.Done()
							res, err := ts.Call(context.Background(), bt.tool, json.RawMessage(bt.args))
							if err == nil && res.IsError {
								err = fmt.Errorf("%s failed: %+v", bt.tool, res.Content)
							}
							if err != nil {
								errs <- err
							}
						}()
					}
					wg.Wait()
					total += time.Since(start)
					close(errs)
					for err := range errs {
						b.Fatal(err)
					}
				}
				b.ReportMetric(total.Seconds()/float64(b.N), "batch-s")
			})
		}
	}
}
