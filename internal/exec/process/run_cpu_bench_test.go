//go:build unix

package process

import (
	osexec "os/exec"
	"syscall"
	"testing"
	"time"
)

// BenchmarkRunCPU is the CPU this process spends per run of a small
// command (the test binary exiting at once), the children's own CPU left
// out: Run against os/exec's Output, which keeps none of Run's
// guarantees, as a yardstick. It reports cpu-ms/op beside the wall time.
func BenchmarkRunCPU(b *testing.B) {
	path := self(b)
	opts := helperOpts()
	for _, bc := range []struct {
		name string
		run  func() error
	}{
		{"Run", func() error {
			res, err := Run(b.Context(), path, []string{"exit", "0"}, opts)
			if err == nil && res.ExitCode != 0 {
				b.Fatalf("Run: %+v", res)
			}
			return err
		}},
		{"os-exec-Output", func() error {
			cmd := osexec.Command(path, "exit", "0")
			cmd.Env = opts.Env
			_, err := cmd.Output()
			return err
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			before := selfCPU(b)
			for b.Loop() {
				if err := bc.run(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(selfCPU(b)-before)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		})
	}
}

// selfCPU is the user and system CPU this process has used.
func selfCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
