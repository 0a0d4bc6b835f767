//go:build unix

package process

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// signalGroup sends SIGTERM (kill false) or SIGKILL (kill true) to every
// process in the group pgid. It works after the leader has been reaped, as
// long as any member lives. A group already gone is not an error.
func signalGroup(pgid int, _ *proc, kill bool) error {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	if err := syscall.Kill(-pgid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// drain reads what is waiting in the pipe f, without waiting for more, at
// most max bytes, handing each piece to write. It reports whether it reached
// the end of the stream (every writer gone); false means a writer is left,
// or max was reached. f's read deadline is cleared first.
func drain(f *os.File, buf []byte, max int, write func([]byte)) (eof bool) {
	if f.SetReadDeadline(time.Time{}) != nil {
		return false
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	for read := 0; read < max; {
		var n int
		var rerr error
		err := rc.Read(func(fd uintptr) bool {
			n, rerr = syscall.Read(int(fd), buf[:min(len(buf), max-read)])
			return true // done, whatever the result: never wait for the pipe
		})
		switch {
		case err != nil:
			return false
		case n > 0:
			write(buf[:n])
			read += n
		case n == 0 && rerr == nil:
			return true
		case errors.Is(rerr, syscall.EINTR):
		default:
			return false // EAGAIN: the pipe is empty, and a writer holds it
		}
	}
	return false
}
