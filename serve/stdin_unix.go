//go:build unix

package serve

import (
	"io"
	"os"
	"syscall"
	"time"
)

// pollable returns a reader of in that waits for input in Go's poller
// rather than in a read system call, when in is an *os.File on a pipe or a
// socket in blocking mode (how a client hands a server its stdin), and
// the function that undoes it; otherwise in itself.
//
// A read blocked in the kernel keeps a thread, and the scheduler's
// processor with it, in a system call for as long as the client is quiet:
// the runtime's monitor then keeps polling, and every call that wakes the
// server pays for a thread hand-off. Waiting in the poller leaves the
// whole process asleep between calls. It also lets Stdio end its read when
// ctx is done (a read deadline), instead of leaving a goroutine blocked
// until the next line.
//
// The non-blocking mode belongs to the open file, which in shares with
// its duplicate; the duplicate is read, and undo restores the mode.
func pollable(in io.Reader) (r io.Reader, stop func(), undo func()) {
	nop := func() {}
	f, ok := in.(*os.File)
	if !ok {
		return in, nop, nop
	}
	info, err := f.Stat()
	if err != nil || info.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return in, nop, nop // a terminal, a file: left as they are
	}
	raw, err := f.SyscallConn()
	if err != nil {
		return in, nop, nop
	}
	fd := -1
	if raw.Control(func(u uintptr) { fd = int(u) }) != nil || fd < 0 {
		return in, nop, nop
	}
	if nonblocking(fd) {
		return in, nop, nop // already read through the poller
	}
	syscall.ForkLock.RLock() // no child may inherit the duplicate
	dup, err := syscall.Dup(fd)
	if err == nil {
		syscall.CloseOnExec(dup)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return in, nop, nop
	}
	if err := syscall.SetNonblock(dup, true); err != nil {
		syscall.Close(dup)
		return in, nop, nop
	}
	p := os.NewFile(uintptr(dup), f.Name()) // non-blocking: in the poller
	stop = func() { _ = p.SetReadDeadline(time.Unix(1, 0)) }
	undo = func() {
		stop()
		_ = p.Close()
		_ = syscall.SetNonblock(fd, false)
	}
	return p, stop, undo
}

// nonblocking reports whether the open file of fd is in non-blocking mode.
func nonblocking(fd int) bool {
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
	return errno == 0 && flags&syscall.O_NONBLOCK != 0
}
