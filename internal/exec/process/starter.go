package process

import "sync"

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
//   - The parent-death signal (Linux, see lockThreadForever). Linux sends it
//     when the thread that forked the child exits, and Go ends a thread when
//     a goroutine locked to it returns. The starter's goroutine is locked to
//     its thread for good and never returns, so the thread that forks every
//     child lives as long as the process, while the goroutines of the Runs
//     are free to move between threads as the scheduler likes (a Run that
//     locked its own thread until its child was reaped, as before, cost a
//     thread hand-off each time it woke up, and one thread per running
//     call).
//
// Run prepares all it can before the hand-off (the path, the argv, the
// environment: see prepare), so the starter's thread does only the start.
// The starter is made on the first Run: a program that never runs a
// command pays nothing for it.
type starter struct {
	reqs  chan *startReq
	guard *guard // nil: none (see guard)
	sp    *spawner
	polls callPolls // the epoll instances of ended calls (Linux)
}

// startReq is one start asked of the starter; done is closed when proc,
// guard and err are set.
type startReq struct {
	spec  *spec
	proc  *proc
	guard *guard // to tell when the child's group has been ended
	err   error
	done  chan struct{}
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
	s.sp = newSpawner()
	for r := range s.reqs {
		s.guard.revive()
		r.proc, r.err = s.sp.spawn(r.spec)
		if r.err == nil {
			r.proc.slot = s.guard.watch(r.proc.pid) // the child leads its group
			r.guard = s.guard
		}
		close(r.done)
	}
}

// start starts sp through the starter with stdin from the null device and
// stdout and stderr on pipes of their own (see spawn), and returns the
// child and the guard to tell when the child's group has been ended.
func start(sp *spec) (*proc, *guard, error) {
	r := &startReq{spec: sp, done: make(chan struct{})}
	theStarter().reqs <- r
	<-r.done
	return r.proc, r.guard, r.err
}
