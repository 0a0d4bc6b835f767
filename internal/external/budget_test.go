package external_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cobramcp/cobramcp/internal/external"
	"github.com/cobramcp/cobramcp/test/proctest"
)

// TestEndlessTree reflects a CLI whose tree has no end (six sub-commands
// made up on demand under every command): the reflection stops by itself
// at a limit, with an error that names it and the flag that raises it,
// having started fewer than 5,000 processes.
func TestEndlessTree(t *testing.T) {
	bin := fixture(t, "testdata/endless")
	for _, tt := range []struct {
		name  string
		opts  external.Options
		limit string
		flag  string
	}{
		{"defaults", external.Options{}, external.LimitCommands, "--max-commands"},
		{"processes", external.Options{MaxProcesses: 50}, external.LimitProcesses, "--max-processes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := external.Reflect(context.Background(), bin, "endless", &tt.opts)
			var le *external.LimitError
			if !errors.As(err, &le) {
				t.Fatalf("err = %v, want a *LimitError", err)
			}
			if le.Limit != tt.limit || le.Flag != tt.flag || !strings.Contains(err.Error(), tt.flag+" raises the limit") {
				t.Errorf("limit %q flag %q: %v; want %q, %q", le.Limit, le.Flag, err, tt.limit, tt.flag)
			}
			if le.Processes >= 5000 || tt.opts.MaxProcesses > 0 && le.Processes > int64(tt.opts.MaxProcesses) {
				t.Errorf("%d processes started", le.Processes)
			}
			t.Logf("%v", err)
		})
	}
}

// TestHangingHelps: 16 sub-commands whose help hangs stop the reflection
// after MaxTimeouts of them did not answer, each tried again; a whole
// reflection that outlasts Timeout stops at that limit.
func TestHangingHelps(t *testing.T) {
	bin := fixture(t, "testdata/slowhelp")
	for _, tt := range []struct {
		name  string
		opts  external.Options
		limit string
		flag  string
	}{
		{"timeouts", external.Options{ProbeTimeout: 200 * time.Millisecond}, external.LimitTimeouts, "--max-timeouts"},
		{"deadline", external.Options{Timeout: time.Second, MaxTimeouts: 100}, external.LimitTime, "--reflect-timeout"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := external.Reflect(context.Background(), bin, "slowhelp", &tt.opts)
			var le *external.LimitError
			if !errors.As(err, &le) || le.Limit != tt.limit || le.Flag != tt.flag || !strings.Contains(err.Error(), tt.flag+" raises the limit") {
				t.Fatalf("err = %v; want the limit %s naming %s", err, tt.limit, tt.flag)
			}
			if tt.limit == external.LimitTimeouts && (!strings.Contains(err.Error(), "--probe-timeout") || !strings.Contains(err.Error(), "slowhelp help cmd")) {
				t.Errorf("err = %v; want the hanging help named and --probe-timeout", err)
			}
			t.Logf("%v", err)
		})
	}
}

// TestProgressLines: a slow reflection logs its progress (commands read
// and left, processes, time elapsed) at the interval given.
func TestProgressLines(t *testing.T) {
	bin := fixture(t, "testdata/slowhelp")
	var log proctest.Buffer
	env := append(os.Environ(), "SLOWHELP_DELAY=300ms")
	_, err := external.Reflect(context.Background(), bin, "slowhelp", &external.Options{
		Env: env, Parallel: 2, ProgressInterval: 50 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(&log, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(log.String(), "\n") {
		if strings.Contains(l, "msg=reflecting ") {
			lines = append(lines, l)
		}
	}
	// 16 helps of 300 ms, two at a time: at least 2.4 s of reflection.
	if len(lines) < 2 {
		t.Fatalf("progress lines: %q", lines)
	}
	for _, want := range []string{"commands_read=", "commands_left=", "processes=", "elapsed="} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("progress line %q has no %s", lines[0], want)
		}
	}
	if strings.Contains(lines[len(lines)-1], "commands_read=0 ") {
		t.Errorf("the last progress line reads no command: %q", lines[len(lines)-1])
	}
}
