package process

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// DefaultKillGrace is how long Run waits, after sending SIGTERM to a process
// group, before it sends SIGKILL, when Options.KillGrace is zero.
const DefaultKillGrace = 2 * time.Second

// DefaultMaxOutput is how many bytes of each output stream (stdout and stderr
// apart) Run keeps when Options.MaxOutput is zero: 1 MiB. A stream longer than
// the cap keeps its first half and its last half, with a marker between them
// that says how many bytes were left out, so the start of the output (what the
// command was doing) and its end (how it finished, the error) both survive.
const DefaultMaxOutput = 1 << 20

// outputDrain is how long Run waits, after the process group has ended, for
// every writer of the output pipes to close them. A process that escaped the
// group (a daemon that called setsid) may still hold a pipe open; Run then
// takes what is waiting in the pipe, stops reading instead of waiting for
// that process, and marks the stream as not read to its end
// (Result.StdoutUnread). Output already written is never lost to this delay.
const outputDrain = 250 * time.Millisecond

// Options bound one run. The zero value runs with the inherited environment,
// in the current directory, with no time limit and the default caps.
type Options struct {
	// Env is the child's whole environment, as "KEY=value" entries. Nil
	// inherits os.Environ(); an empty non-nil slice gives an empty environment.
	Env []string
	// Dir is the child's working directory; "" is the current one.
	Dir string
	// Timeout ends the run after this long, as a canceled ctx does, and sets
	// Result.TimedOut. Zero means no limit beyond ctx.
	Timeout time.Duration
	// KillGrace is how long the process group has, after SIGTERM, to exit
	// before SIGKILL. Zero means DefaultKillGrace.
	KillGrace time.Duration
	// MaxOutput caps the bytes kept per stream. Zero means DefaultMaxOutput;
	// a negative value keeps everything.
	MaxOutput int
	// OnLine, if set, receives each line of output as it arrives, with the
	// stream it came from ("stdout" or "stderr"), for progress reports. Both
	// '\n' and '\r' end a line (a progress bar redrawn with '\r' is seen as
	// it moves); empty lines are skipped; a last line without an end is
	// delivered when the stream closes; a line longer than 64 KiB comes in
	// pieces. Calls never overlap, but they hold up reading the output:
	// OnLine must not block long. Lines are seen before the cap applies.
	// On Linux OnLine runs in Run's goroutine, and a panic in it reaches
	// Run's caller once the call's process group has been killed; elsewhere
	// it runs in a goroutine of Run's, and a panic ends the program.
	OnLine func(stream, line string)
}

// Result is what one run produced. A non-zero exit is a Result, not an error.
type Result struct {
	// Stdout and Stderr are the output, capped as Options.MaxOutput says.
	// Where bytes were left out, a line "[... cobramcp: N bytes of stdout
	// left out ...]" stands in their place, and the kept parts are cut at
	// UTF-8 sequence boundaries.
	Stdout, Stderr string
	// ExitCode is the process's exit code, or -1 when a signal ended it.
	ExitCode int
	// Duration is the wall time from the start of the process until Run
	// had collected its output and ended its process group.
	Duration time.Duration
	// TimedOut reports that Options.Timeout ended the run.
	TimedOut bool
	// Canceled reports that ctx was done before the process exited (the
	// client went away, the server shut down, ctx's own deadline passed).
	Canceled bool
	// Signal names the signal that ended the process ("terminated",
	// "killed"), or is "" when it exited by itself.
	Signal string
	// StdoutOmitted and StderrOmitted count the bytes left out of Stdout and
	// Stderr by the cap, including the few bytes of a UTF-8 sequence cut in
	// two at either end of the gap.
	StdoutOmitted, StderrOmitted int64
	// StdoutUnread and StderrUnread report that Run stopped reading the
	// stream while a process that had left the command's process group
	// (setsid) still held it open: whatever that process wrote afterwards
	// is missing, and a line "[... cobramcp: stopped reading stdout ...]"
	// at the end of the stream says so. What was already waiting in the
	// pipe was read.
	StdoutUnread, StderrUnread bool
}

// Run runs the program at path with the arguments argv (not including the
// program name: the child's argv[0] is path) and returns what it printed and
// how it ended. A path without a separator is looked up in PATH.
//
// The process runs without a shell, with stdin from the null device, in a
// process group of its own. When ctx is done or Options.Timeout passes, Run
// sends SIGTERM to the whole group and, if any member is left after
// Options.KillGrace, SIGKILL. When the process exits by itself, whatever it
// left behind in its group (a background child) is ended the same way, so no
// descendant outlives the call, unless it left the group (setsid). On Linux
// the whole group is also killed if this process dies, even by SIGKILL: the
// process by the parent-death signal, the rest by the guard, a small process
// started with the first Run that outlives this one (see guard). Output is
// read as it comes and capped per stream (Options.MaxOutput), so memory stays
// bounded whatever the command prints.
//
// The error is non-nil only when the process could not be started (not
// found, not executable, ctx already done); the Result is then nil.
func Run(ctx context.Context, path string, argv []string, opts Options) (*Result, error) {
	return run(ctx, path, argv, opts, collect)
}

// collectFunc reads a started child's output until it and its group have
// ended, ending the group on a timeout or a canceled ctx; the error says
// that waiting for the child failed.
type collectFunc func(ctx context.Context, p *proc, guard *guard, opts *Options, grace time.Duration, stdout, stderr *capture) (*Result, error)

// run is Run with the way of collecting the child's output and exit
// (collect, or collectWithGoroutines where the system needs it).
func run(ctx context.Context, path string, argv []string, opts Options, collect collectFunc) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("exec: not starting %s: %w", path, err)
	}
	grace := opts.KillGrace
	if grace <= 0 {
		grace = DefaultKillGrace
	}
	limit := opts.MaxOutput
	if limit == 0 {
		limit = DefaultMaxOutput
	}

	var lineMu sync.Mutex
	stdout := newCapture("stdout", limit, opts.OnLine, &lineMu)
	stderr := newCapture("stderr", limit, opts.OnLine, &lineMu)

	sp, err := prepare(path, argv, &opts)
	if err != nil {
		return nil, fmt.Errorf("exec: starting %s: %w", path, err)
	}
	// The starter forks every child, from a thread that outlives them all
	// (see starter).
	began := time.Now()
	p, guard, err := start(sp)
	if err != nil {
		return nil, fmt.Errorf("exec: starting %s: %w", path, err)
	}
	res, waitErr := collect(ctx, p, guard, &opts, grace, stdout, stderr)
	res.Duration = time.Since(began)
	res.Stdout, res.StdoutOmitted = stdout.result()
	res.Stderr, res.StderrOmitted = stderr.result()
	res.StdoutUnread, res.StderrUnread = stdout.unread, stderr.unread
	if waitErr != nil {
		// Waiting failed; with files as stdout and stderr there is no
		// reason left, but say so if it happens.
		res.Stderr += fmt.Sprintf("\n[... cobramcp: waiting for %s: %v ...]\n", path, waitErr)
	}
	return res, nil
}

// group is the process group of one run; its id is the leader's pid, and it
// stays valid after the leader has been reaped, as long as a member lives.
type group struct {
	pgid   int
	proc   *proc
	grace  time.Duration
	termAt time.Time // when SIGTERM was sent; zero: not yet
	killed bool
}

// terminate sends SIGTERM to the group, once.
func (g *group) terminate() {
	if g.termAt.IsZero() {
		g.termAt = time.Now()
		_ = signalGroup(g.pgid, g.proc, false) // errors: the group is gone, or not ours to signal
	}
}

// kill sends SIGKILL to the group.
func (g *group) kill() {
	g.killed = true
	_ = signalGroup(g.pgid, g.proc, true)
}

// endRest ends what is left of the group after the leader has exited: SIGTERM
// (unless sent already), then SIGKILL if members remain when the grace since
// SIGTERM is up.
func (g *group) endRest() {
	if !groupLive(g.pgid) {
		return
	}
	g.terminate()
	deadline := g.termAt.Add(g.grace)
	for poll := time.Millisecond; groupLive(g.pgid); poll = min(2*poll, 50*time.Millisecond) {
		left := time.Until(deadline)
		if left <= 0 {
			g.kill()
			return
		}
		time.Sleep(min(poll, left))
	}
}
