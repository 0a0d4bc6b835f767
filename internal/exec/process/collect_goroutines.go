package process

import (
	"context"
	"time"
)

// collectWithGoroutines is collect with a goroutine per stream and one
// waiting for the exit: the way where the system gives no single wait for
// all three (see collect).
func collectWithGoroutines(ctx context.Context, p *proc, guard *guard, opts *Options, grace time.Duration, stdout, stderr *capture) (*Result, error) {
	outR, errR := p.files()

	// Each reader says when it is done; Run waits for both below.
	read := make(chan struct{}, 2)
	go func() { stdout.readFrom(outR); read <- struct{}{} }()
	go func() { stderr.readFrom(errR); read <- struct{}{} }()

	type exit struct {
		code   int
		signal string
		err    error
	}
	waited := make(chan exit, 1)
	go func() {
		var e exit
		e.code, e.signal, e.err = p.wait()
		waited <- e
	}()

	var timeout <-chan time.Time
	if opts.Timeout > 0 {
		t := time.NewTimer(opts.Timeout)
		defer t.Stop()
		timeout = t.C
	}

	res := &Result{}
	g := &group{pgid: p.pid, proc: p, grace: grace}
	var ended exit
	exited := false
	select {
	case ended = <-waited:
		exited = true
	case <-ctx.Done():
		res.Canceled = true
	case <-timeout:
		res.TimedOut = true
	}
	if !exited {
		// The process may have exited just as ctx was done: then it was not
		// ended by us.
		select {
		case ended = <-waited:
			exited = true
			res.Canceled, res.TimedOut = false, false
		default:
		}
	}
	if !exited {
		g.terminate()
		t := time.NewTimer(grace)
		select {
		case ended = <-waited:
		case <-t.C:
			g.kill()
			ended = <-waited
		}
		t.Stop()
	}
	g.endRest()
	guard.forget(p.slot)

	t := time.NewTimer(outputDrain)
	for left := 2; left > 0; left-- {
		select {
		case <-read:
		case <-t.C:
			stopReading(outR)
			stopReading(errR)
			for ; left > 0; left-- {
				<-read
			}
		}
	}
	t.Stop()

	res.ExitCode, res.Signal = ended.code, ended.signal
	return res, ended.err
}
