package exec

import (
	"fmt"
	"os"
	osexec "os/exec"
	"sync"
)

// The starter starts every child of every Run in the process, one at a
// time, from one goroutine that lives as long as the process. One place
// for all starts gives two guarantees at the cost of a hand-off to that
// goroutine per start:
//
//   - Descriptor hygiene. A start is one step, from making the output pipes
//     to closing this process's copies of their write ends, so no child of
//     another Run is forked in between: such a child would hold this Run's
//     write ends until it exec'd (they are close-on-exec), which on a loaded
//     machine can outlast outputDrain, and a stream read whole would then be
//     marked as not read to its end (Result.StdoutUnread). This guards the
//     descriptors Run makes, as syscall.ForkLock guards descriptors made
//     without close-on-exec.
//   - The parent-death signal (dieWithParent, Linux). Linux sends it when
//     the thread that forked the child exits, and Go ends a thread when a
//     goroutine locked to it returns. The starter's goroutine is locked to
//     its thread for good and never returns, so the thread that forks every
//     child lives as long as the process, while the goroutines of the Runs
//     are free to move between threads as the scheduler likes (a Run that
//     locked its own thread until its child was reaped, as before, cost a
//     thread hand-off each time it woke up, and one thread per running
//     call).
//
// The starter is made on the first Run: a program that never runs a
// command pays nothing for it.
type starter struct {
	reqs  chan *startReq
	guard *guard // nil: none (see guard)
}

// startReq is one start asked of the starter; done is closed when outR,
// errR, guard and err are set.
type startReq struct {
	cmd        *osexec.Cmd
	outR, errR *os.File
	guard      *guard // to tell when the child's group has been ended
	err        error
	done       chan struct{}
}

// theStarter is the process's starter, made on first use.
var theStarter = sync.OnceValue(func() *starter {
	s := &starter{reqs: make(chan *startReq)}
	go s.loop()
	return s
})

// loop serves the starts, forever, from a goroutine locked to its thread
// where the parent-death signal needs it (lockThreadForever). It starts the
// guard first, which then hears of each child's group.
func (s *starter) loop() {
	lockThreadForever()
	s.guard = startGuard()
	for r := range s.reqs {
		r.outR, r.errR, r.err = startPiped(r.cmd)
		if r.err == nil {
			s.guard.watch(r.cmd.Process.Pid) // the child leads its group
			r.guard = s.guard
		}
		close(r.done)
	}
}

// start starts cmd through the starter with stdout and stderr on pipes of
// its own and returns their read ends (see startPiped), and the guard to
// tell when the child's group has been ended.
func start(cmd *osexec.Cmd) (outR, errR *os.File, g *guard, err error) {
	r := &startReq{cmd: cmd, done: make(chan struct{})}
	theStarter().reqs <- r
	<-r.done
	return r.outR, r.errR, r.guard, r.err
}

// startPiped starts cmd with stdout and stderr on pipes of its own and returns
// their read ends; this process keeps no write end. Pipes of our own rather
// than cmd.StdoutPipe: the read ends stay ours to abandon when a process
// outside the group keeps a write end open. Only the starter calls it.
func startPiped(cmd *osexec.Cmd) (outR, errR *os.File, err error) {
	outR, outW, err := outputPipe()
	if err != nil {
		return nil, nil, fmt.Errorf("stdout pipe: %w", err)
	}
	errR, errW, err := outputPipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, nil, fmt.Errorf("stderr pipe: %w", err)
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	// The child holds its own copies of the write ends; ours must go, or the
	// readers would never see EOF.
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, nil, err
	}
	return outR, errR, nil
}
