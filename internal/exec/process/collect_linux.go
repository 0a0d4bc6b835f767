package process

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// collect reads the child's output until it and its group have ended, ends
// the group on a timeout or a canceled ctx, and reaps the child.
//
// On Linux all of it happens in the goroutine of Run: one epoll instance of
// the call's own holds the two pipes and the child's pidfd, and Run waits
// for it in Go's poller (an epoll instance is readable when one of its
// descriptors is ready), with a read deadline for the next timer (the
// timeout, SIGKILL after the grace, the end of the drain) and a
// context.AfterFunc that moves the deadline to now when ctx is done. A call
// thus costs one goroutine, which wakes when there is something to do,
// instead of one per stream, one for the exit and the hand-offs between
// them. Without a pidfd (an old kernel) it is collectWithGoroutines.
func collect(ctx context.Context, p *proc, guard *guard, opts *Options, grace time.Duration, stdout, stderr *capture) (*Result, error) {
	if p.pidfd < 0 {
		return collectWithGoroutines(ctx, p, guard, opts, grace, stdout, stderr)
	}
	polls := &theStarter().polls
	ep, err := polls.get(p)
	if err != nil {
		return collectWithGoroutines(ctx, p, guard, opts, grace, stdout, stderr)
	}
	defer polls.put(ep)
	c := &call{
		ep:      ep,
		proc:    p,
		guard:   guard,
		g:       &group{pgid: p.pid, proc: p, grace: grace},
		res:     &Result{},
		streams: [2]stream{{fd: p.outR, c: stdout}, {fd: p.errR, c: stderr}},
	}
	p.outR, p.errR = -1, -1 // the streams own them now
	if opts.Timeout > 0 {
		c.timeoutAt = time.Now().Add(opts.Timeout)
	}
	stop := context.AfterFunc(ctx, func() {
		c.canceled.Store(true)
		ep.wake()
	})
	defer stop()
	finished := false
	defer func() {
		if !finished { // OnLine panicked
			c.abandon()
		}
	}()
	res, err := c.loop()
	finished = true
	return res, err
}

// abandon ends the call at once, when OnLine panicked: SIGKILL to the
// group (unless it has ended already: its id may be another group's by
// now), the child reaped, the pipes closed (without OnLine) and the guard
// told. The panic goes on.
func (c *call) abandon() {
	if !c.rested {
		c.g.kill()
	}
	if !c.exited {
		c.exited = true
		c.proc.reap(false)
	}
	for i := range c.streams {
		if s := &c.streams[i]; s.fd >= 0 {
			c.ep.remove(s.fd)
			rawClose(s.fd)
			s.fd = -1
		}
	}
	if !c.rested {
		c.rested = true
		c.guard.forget(c.proc.slot)
	}
}

// call is the state of one run in collect.
type call struct {
	ep      *callPoll
	proc    *proc
	guard   *guard
	g       *group
	res     *Result
	streams [2]stream
	buf     []byte // the read buffer, shared by the streams

	canceled  atomic.Bool // set by ctx's AfterFunc
	timeoutAt time.Time   // zero: no timeout

	exited  bool
	waitErr error
	ending  bool      // the group was told to end (timeout, cancel) before the exit
	killAt  time.Time // while ending: when SIGKILL follows SIGTERM

	// After the exit: the rest of the group is ended (see group.endRest,
	// which this does without blocking the reads), then the pipes drain.
	rested    bool
	restPoll  time.Duration
	restCheck time.Time // next look at the group, while !rested
	drainAt   time.Time // once rested: stop reading at this time
}

// stream is one output pipe of a call.
type stream struct {
	fd int // -1: read to its end, or stopped
	c  *capture
}

// loop runs the call to its end.
func (c *call) loop() (*Result, error) {
	for {
		if c.step(time.Now()) {
			return c.res, c.waitErr
		}
		var cancel *atomic.Bool // a cancel not yet seen by step
		if !c.exited && !c.ending {
			cancel = &c.canceled
		}
		n, err := c.ep.wait(c.nextTimer(), cancel)
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			// Not expected of a descriptor in the poller; do not spin.
			time.Sleep(time.Millisecond)
		}
		for _, e := range c.ep.events[:n] {
			switch e.Fd {
			case int32(c.streams[0].fd):
				c.read(&c.streams[0], readBudget)
			case int32(c.streams[1].fd):
				c.read(&c.streams[1], readBudget)
			case int32(c.proc.pidfd):
				c.reaped()
			}
		}
	}
}

// readBudget bounds what one stream is read in one round of the loop, so
// that a flood on one stream does not hold up the other or the timers.
const readBudget = 256 << 10

// step moves the call on after events, at time now; it reports whether the
// call is over.
func (c *call) step(now time.Time) bool {
	if !c.exited {
		if !c.ending {
			switch {
			case c.canceled.Load():
				c.res.Canceled = true
			case !c.timeoutAt.IsZero() && !now.Before(c.timeoutAt):
				c.res.TimedOut = true
			default:
				return false
			}
			// The process may have exited just as ctx was done: then it was
			// not ended by us.
			if exitedNow(c.proc.pidfd) {
				c.res.Canceled, c.res.TimedOut = false, false
				c.reaped()
				return c.step(now)
			}
			c.ending = true
			c.g.terminate()
			c.killAt = c.g.termAt.Add(c.g.grace)
		}
		if !c.g.killed && !now.Before(c.killAt) {
			c.g.kill()
		}
		return false
	}
	if !c.rested {
		if !c.restCheck.IsZero() && now.Before(c.restCheck) {
			return false
		}
		if groupLive(c.g.pgid) {
			// As group.endRest, with the sleeps turned into timers of the
			// loop, so the pipes are read meanwhile.
			c.g.terminate()
			deadline := c.g.termAt.Add(c.g.grace)
			if now.Before(deadline) {
				c.restPoll = max(time.Millisecond, min(2*c.restPoll, 50*time.Millisecond))
				c.restCheck = now.Add(min(c.restPoll, deadline.Sub(now)))
				return false
			}
			c.g.kill()
		}
		c.rested = true
		c.guard.forget(c.proc.slot)
		c.drainAt = now.Add(outputDrain)
	}
	if c.streams[0].fd < 0 && c.streams[1].fd < 0 {
		return true
	}
	if now.Before(c.drainAt) {
		return false
	}
	// A writer outside the group holds a pipe: take what waits in it, then
	// stop.
	for i := range c.streams {
		s := &c.streams[i]
		if s.fd >= 0 && !c.read(s, drainMax) {
			s.c.unread = true
			c.closeStream(s)
		}
	}
	return true
}

// nextTimer is when the loop must look again without an event; zero: no
// timer.
func (c *call) nextTimer() time.Time {
	switch {
	case !c.exited && !c.ending:
		return c.timeoutAt
	case !c.exited && !c.g.killed:
		return c.killAt
	case !c.exited:
		return time.Time{}
	case !c.rested:
		return c.restCheck
	default:
		return c.drainAt
	}
}

// reaped reaps the child, whose pidfd said it exited.
func (c *call) reaped() {
	if c.exited {
		return
	}
	c.exited = true
	c.ep.remove(c.proc.pidfd)
	c.res.ExitCode, c.res.Signal, c.waitErr = c.proc.reap(true)
}

// read reads s until the pipe is empty, at most budget bytes; it reports
// whether s reached its end (every writer gone) and is closed.
func (c *call) read(s *stream, budget int) (eof bool) {
	if s.fd < 0 {
		return true
	}
	if c.buf == nil {
		c.buf = make([]byte, firstReadChunk)
	}
	for read := 0; read < budget; {
		n, err := rawRead(s.fd, c.buf[:min(len(c.buf), budget-read)])
		switch {
		case err == 0 && n > 0:
			s.c.Write(c.buf[:n])
			read += n
			if n == len(c.buf) && len(c.buf) < readChunk {
				c.buf = make([]byte, 2*len(c.buf))
			}
		case err == 0: // n == 0
			c.closeStream(s)
			return true
		case err == syscall.EINTR:
		case err == syscall.EAGAIN:
			return false
		default:
			s.c.Write(fmt.Appendf(nil, "\n[... cobramcp: reading %s: %v ...]\n", s.c.name, err))
			c.closeStream(s)
			return true
		}
	}
	return false
}

// closeStream closes s's pipe and hands the last partial line to OnLine.
func (c *call) closeStream(s *stream) {
	c.ep.remove(s.fd)
	rawClose(s.fd)
	s.fd = -1
	s.c.flush()
}

// exitedNow reports whether the process of the pidfd fd has exited, without
// waiting and without reaping it.
func exitedNow(fd int) bool {
	if fd < 0 {
		return false
	}
	info, ok := waitidNoHang(fd)
	return ok && info
}

// callPoll is the epoll instance of one call, itself in Go's poller.
type callPoll struct {
	fd     int
	f      *os.File // fd, in the poller
	rc     syscall.RawConn
	events [3]syscall.EpollEvent // what the last wait found
	held   int                   // descriptors in the instance

	deadline      time.Time // the read deadline set last
	deadlineKnown bool      // false: wake may have moved it since
}

// callPolls keeps the epoll instances of ended calls for the next ones:
// an instance costs some microseconds to make and to put in the poller, and
// one left empty by its call is as good as new.
type callPolls struct {
	mu   sync.Mutex
	free []*callPoll
}

// maxFreeCallPolls bounds the instances kept: as many as calls usually run
// at once.
const maxFreeCallPolls = 64

// get returns an epoll instance holding p's pipes and pidfd.
func (cp *callPolls) get(p *proc) (*callPoll, error) {
	cp.mu.Lock()
	var ep *callPoll
	if n := len(cp.free); n > 0 {
		ep = cp.free[n-1]
		cp.free = cp.free[:n-1]
	}
	cp.mu.Unlock()
	if ep == nil {
		var err error
		if ep, err = newCallPoll(); err != nil {
			return nil, err
		}
	}
	for _, x := range [...]int{p.outR, p.errR, p.pidfd} {
		ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(x)}
		if e := rawEpollCtl(ep.fd, syscall.EPOLL_CTL_ADD, x, &ev); e != 0 {
			ep.f.Close() // with what it holds
			return nil, os.NewSyscallError("epoll_ctl", e)
		}
		ep.held++
	}
	// A wake meant for the instance's last call may still come: it is
	// taken as a spurious one.
	ep.deadlineKnown = false
	return ep, nil
}

// put takes back ep after its call: kept if empty, else closed.
func (cp *callPolls) put(ep *callPoll) {
	if ep.held == 0 {
		cp.mu.Lock()
		keep := len(cp.free) < maxFreeCallPolls
		if keep {
			cp.free = append(cp.free, ep)
		}
		cp.mu.Unlock()
		if keep {
			return
		}
	}
	ep.f.Close()
}

// newCallPoll makes an empty epoll instance, in the poller. It is made
// outside the starter: a child forked meanwhile holds a copy of it until it
// execs, which keeps none of the descriptors in it open.
func newCallPoll() (*callPoll, error) {
	fd, e := rawEpollCreate()
	if e != 0 {
		return nil, os.NewSyscallError("epoll_create1", e)
	}
	// Non-blocking, so that os.NewFile puts it in the poller.
	if e := rawSetNonblock(fd); e != 0 {
		rawClose(fd)
		return nil, os.NewSyscallError("fcntl", e)
	}
	ep := &callPoll{fd: fd, f: os.NewFile(uintptr(fd), "epoll")}
	if err := ep.f.SetReadDeadline(time.Time{}); err != nil {
		ep.f.Close() // not in the poller: it cannot be waited for
		return nil, err
	}
	var err error
	if ep.rc, err = ep.f.SyscallConn(); err != nil {
		ep.f.Close()
		return nil, err
	}
	ep.deadlineKnown = true
	return ep, nil
}

// wait returns the number of ready descriptors in ep.events, waiting for
// one in the poller until the deadline next (zero: none) if none is ready
// now. It returns early with os.ErrDeadlineExceeded after a wake. If
// cancel is set after wait moved the deadline, it does not wait: the wake
// that comes with it may have been undone.
func (ep *callPoll) wait(next time.Time, cancel *atomic.Bool) (int, error) {
	if !ep.deadlineKnown || !next.Equal(ep.deadline) {
		if err := ep.f.SetReadDeadline(next); err != nil {
			return 0, err
		}
		ep.deadline, ep.deadlineKnown = next, true
		if cancel != nil && cancel.Load() {
			return 0, nil
		}
	}
	n := 0
	err := ep.rc.Read(func(fd uintptr) bool {
		for {
			k, e := rawEpollPoll(int(fd), ep.events[:])
			switch {
			case e == syscall.EINTR:
				continue
			case e != 0:
				return true
			}
			n = k
			return k > 0
		}
	})
	if err != nil {
		ep.deadlineKnown = false
	}
	return n, err
}

// wake makes a wait return now, from any goroutine.
func (ep *callPoll) wake() {
	_ = ep.f.SetReadDeadline(time.Unix(1, 0))
}

// remove takes fd out of the instance, before fd is closed: a child forked
// meanwhile may hold a copy of fd until it execs, and keep it in.
func (ep *callPoll) remove(fd int) {
	if fd >= 0 {
		var ev syscall.EpollEvent // not read, but kernels before 2.6.9 want it
		if rawEpollCtl(ep.fd, syscall.EPOLL_CTL_DEL, fd, &ev) == 0 {
			ep.held--
		}
	}
}
