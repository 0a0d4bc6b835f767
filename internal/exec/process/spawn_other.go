//go:build !linux

package process

import (
	"context"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"time"
)

// spec is one start: here the os/exec command itself.
type spec struct{ cmd *osexec.Cmd }

// prepare makes the command; os/exec resolves path and the environment.
func prepare(path string, argv []string, opts *Options) (*spec, error) {
	cmd := osexec.Command(path, argv...)
	cmd.Env = opts.Env
	cmd.Dir = opts.Dir
	setGroup(cmd)
	return &spec{cmd: cmd}, nil
}

// spawner starts children; here os/exec does all.
type spawner struct{}

func newSpawner() *spawner { return &spawner{} }

// proc is a started child and the read ends of its output pipes.
type proc struct {
	cmd        *osexec.Cmd
	pid        int
	outR, errR *os.File
	slot       int // in the guard (see guard.watch)
}

// spawn starts s with stdout and stderr on pipes of their own; this
// process keeps only the read ends. Only the starter calls it.
func (*spawner) spawn(s *spec) (*proc, error) {
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("stdout pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("stderr pipe: %w", err)
	}
	s.cmd.Stdout, s.cmd.Stderr = outW, errW
	err = s.cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, err
	}
	return &proc{cmd: s.cmd, pid: s.cmd.Process.Pid, outR: outR, errR: errR, slot: -1}, nil
}

// wait waits for the child to exit; it returns the exit code (-1 when a
// signal ended the child) and the signal's name.
func (p *proc) wait() (code int, signal string, err error) {
	err = p.cmd.Wait()
	var exitErr *osexec.ExitError
	if errors.As(err, &exitErr) {
		err = nil
	}
	return p.cmd.ProcessState.ExitCode(), exitSignal(p.cmd.ProcessState), err
}

// files returns the read ends of the child's output pipes.
func (p *proc) files() (outR, errR *os.File) { return p.outR, p.errR }

// collect reads the child's output until it and its group have ended
// (collectWithGoroutines: there is no one wait for the pipes and the exit
// here).
func collect(ctx context.Context, p *proc, guard *guard, opts *Options, grace time.Duration, stdout, stderr *capture) (*Result, error) {
	return collectWithGoroutines(ctx, p, guard, opts, grace, stdout, stderr)
}

// callPolls is empty here: there are no epoll instances to keep.
type callPolls struct{}
