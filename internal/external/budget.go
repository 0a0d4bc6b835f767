package external

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Defaults of the reflection's budget (Options).
const (
	// DefaultTimeout bounds a whole reflection: gh, the largest CLI of the
	// corpus (191 commands, 685 processes), takes 12 to 15 s cold on an
	// idle 2-core machine and up to 84 s on one loaded four times over.
	DefaultTimeout = 5 * time.Minute
	// DefaultMaxCommands bounds the commands a reflection reads (gh has
	// 191, docker 179, kubectl 110).
	DefaultMaxCommands = 1000
	// DefaultMaxProcesses bounds the processes a reflection starts (gh
	// takes 685, docker 551).
	DefaultMaxProcesses = 4000
	// DefaultMaxTimeouts is how many processes may fail to finish in
	// time, each tried again with twice the time, before the reflection
	// stops: a CLI whose helps hang would otherwise cost 15 s a command.
	DefaultMaxTimeouts = 3
	// DefaultProgressInterval is how often a reflection logs its progress.
	DefaultProgressInterval = 5 * time.Second
)

// The limits a LimitError names.
const (
	LimitTime      = "time"
	LimitCommands  = "commands"
	LimitProcesses = "processes"
	LimitTimeouts  = "timeouts"
)

// A LimitError is the error of a reflection stopped by one of its limits
// (Options.Timeout, MaxCommands, MaxProcesses, MaxTimeouts): it names the
// limit, its value, and the cobramcp flag that raises it.
type LimitError struct {
	Binary string
	// Limit is LimitTime, LimitCommands, LimitProcesses or LimitTimeouts.
	Limit string
	// Max is the limit's value (a time.Duration for LimitTime, a count
	// otherwise).
	Max any
	// Flag is the option of cobramcp that raises the limit
	// ("--max-commands").
	Flag string
	// Detail says what was going on ("the last: `gh help repo` did not
	// finish within 5s").
	Detail string
	// Commands and Processes are the commands read and the processes
	// started before the reflection stopped; Elapsed the time it took.
	Commands, Processes int64
	Elapsed             time.Duration
}

func (e *LimitError) Error() string {
	var what string
	switch e.Limit {
	case LimitTime:
		what = fmt.Sprintf("took longer than %v, the limit of a whole reflection", e.Max)
	case LimitCommands:
		what = fmt.Sprintf("has more than %v commands, the limit of the commands read (the tree may have no end: sub-commands made up on demand)", e.Max)
	case LimitProcesses:
		what = fmt.Sprintf("needed more than %v processes, the limit of the processes a reflection starts", e.Max)
	case LimitTimeouts:
		what = fmt.Sprintf("left %v processes unanswered in time, each tried again with twice the time, the limit of timeouts (--probe-timeout gives each more time)", e.Max)
	default:
		what = fmt.Sprintf("reached the limit %s (%v)", e.Limit, e.Max)
	}
	s := fmt.Sprintf("reflecting %s: stopped after %v, %d commands read and %d processes: the binary %s; %s raises the limit",
		e.Binary, e.Elapsed.Round(time.Millisecond), e.Commands, e.Processes, what, e.Flag)
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	return s
}

// stop ends the reflection with err (the first stop wins).
func (d *discoverer) stop(err *LimitError) {
	err.Binary = d.bin
	d.cancel(err)
}

// limitOf returns the *LimitError that stopped the reflection in ctx, or
// nil.
func limitOf(ctx context.Context) *LimitError {
	var le *LimitError
	if errors.As(context.Cause(ctx), &le) {
		return le
	}
	return nil
}

// countCommand counts one more command found, and stops the reflection
// past MaxCommands.
func (d *discoverer) countCommand() bool {
	if n := d.found.Add(1); n > int64(d.opts.MaxCommands) {
		d.stop(&LimitError{Limit: LimitCommands, Max: d.opts.MaxCommands, Flag: "--max-commands"})
		return false
	}
	return true
}

// countProcess counts one more process about to start, and stops the
// reflection past MaxProcesses.
func (d *discoverer) countProcess() bool {
	if n := d.processes.Add(1); n > int64(d.opts.MaxProcesses) {
		d.processes.Add(-1)
		d.stop(&LimitError{Limit: LimitProcesses, Max: d.opts.MaxProcesses, Flag: "--max-processes"})
		return false
	}
	return true
}

// countTimeout counts one more process that did not finish in time (tried
// again), and stops the reflection at MaxTimeouts.
func (d *discoverer) countTimeout(err error) {
	if n := d.timeouts.Add(1); n >= int64(d.opts.MaxTimeouts) {
		d.stop(&LimitError{Limit: LimitTimeouts, Max: d.opts.MaxTimeouts, Flag: "--max-timeouts", Detail: "the last: " + err.Error()})
	}
}

// progress logs, every interval until done is closed, how many commands
// have been read, how many are left to read, how many processes have been
// started and the time elapsed.
func (d *discoverer) progress(interval time.Duration, start time.Time, done <-chan struct{}) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			read := d.read.Load()
			d.opts.Logger.Info("reflecting", "binary", d.bin, "commands_read", read, "commands_left", max(d.found.Load()-read, 0),
				"processes", d.processes.Load(), "elapsed", time.Since(start).Round(time.Second).String())
		}
	}
}
