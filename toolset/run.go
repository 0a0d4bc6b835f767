package toolset

import (
	"context"
	"time"

	"github.com/cobramcp/cobramcp/internal/exec"
)

// RunOptions bound the run of one call's process (Call.Options): what a
// Middleware may change before the call runs. The zero value runs with the
// inherited environment, in the current directory, with no time limit and
// the default caps.
type RunOptions struct {
	// Env is the process's whole environment, as "KEY=value" entries. Nil
	// inherits the server's; an empty non-nil slice gives an empty one.
	Env []string
	// Dir is the process's working directory; "" is the server's.
	Dir string
	// Timeout ends the run after this long (Result.TimedOut); zero means
	// no limit beyond the call's context.
	Timeout time.Duration
	// KillGrace is how long the process group has, after SIGTERM, to exit
	// before SIGKILL; zero means 2 seconds.
	KillGrace time.Duration
	// MaxOutput caps the bytes kept of each stream (stdout, stderr); zero
	// means 1 MiB, negative keeps everything. Past the cap the first and
	// the last halves are kept, with a line saying how much was left out.
	MaxOutput int
	// OnLine, if set, receives each line of output as it arrives, with
	// its stream ("stdout" or "stderr"), for progress reports. Calls never
	// overlap, and they hold up reading the output: OnLine must not block
	// long.
	OnLine func(stream, line string)
}

// Result is what a call's process produced: what a RunFunc returns. A
// non-zero exit is a Result, not an error.
type Result struct {
	// Stdout and Stderr are the output, capped as RunOptions.MaxOutput
	// says. Where bytes were left out, a line "[... cobramcp: N bytes of
	// stdout left out ...]" stands in their place, and the kept parts are
	// cut at UTF-8 sequence boundaries.
	Stdout, Stderr string
	// ExitCode is the process's exit code, or -1 when a signal ended it.
	ExitCode int
	// Duration is the wall time from the start of the process until its
	// output was collected and its process group ended.
	Duration time.Duration
	// TimedOut reports that RunOptions.Timeout ended the run.
	TimedOut bool
	// Canceled reports that the call's context was done before the
	// process exited (the client went away, the server shut down).
	Canceled bool
	// Signal names the signal that ended the process ("terminated",
	// "killed"), or is "" when it exited by itself.
	Signal string
	// StdoutOmitted and StderrOmitted count the bytes left out of Stdout
	// and Stderr by the cap.
	StdoutOmitted, StderrOmitted int64
	// StdoutUnread and StderrUnread report that reading the stream
	// stopped while a process that had left the command's process group
	// (setsid) still held it open: whatever it wrote afterwards is
	// missing, and a line at the end of the stream says so.
	StdoutUnread, StderrUnread bool
}

// runProcess runs c's process with opts: exec.Run, its Result the
// library's. The conversions check at compile time that the types stay
// field for field exec's.
func runProcess(ctx context.Context, c *Call, opts RunOptions) (*Result, error) {
	res, err := exec.Run(ctx, c.Path, c.Argv, exec.Options(opts))
	return (*Result)(res), err
}
