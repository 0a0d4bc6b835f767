package exec

import (
	"os"
	osexec "os/exec"
	"strconv"
	"syscall"
)

// guardScript is the program of the guard (see guard): it keeps the set of
// the process groups of running calls, told "+PGID" when one starts and
// "-PGID" when it has been ended, and when its stdin reaches its end (this
// process is gone, killed or exited) it sends SIGKILL to every group left.
// After a normal exit the set is empty and it ends nothing. It ignores the
// terminal's SIGHUP and SIGINT: this process decides when calls end.
const guardScript = `trap '' HUP INT
g=' '
while read -r l; do
	case $l in
	+*) g="$g${l#+} " ;;
	-*) p=" ${l#-} "; case $g in *"$p"*) g="${g%%"$p"*} ${g#*"$p"}" ;; esac ;;
	esac
done
for p in $g; do kill -s KILL -- "-$p" 2>/dev/null; done
`

// guardShell is the shell that runs guardScript; without it there is no
// guard. guardName is the guard's argv[0], which names it in ps.
const (
	guardShell = "/bin/sh"
	guardName  = "cobramcp-guard"
)

// guard ends the calls' process groups when this process dies, even by
// SIGKILL: the parent-death signal (dieWithParent) reaches only each call's
// own process, and its children, re-parented to init, would live on. The
// guard is one small process (a POSIX shell running guardScript), started
// with the first call, outside this process's group so that the terminal's
// signals leave it alone, and told the group of each call as it starts
// and ends, over a pipe whose end it takes for this process's death.
//
// Limits: a system without /bin/sh has no guard (a killed server then
// leaves a call's children running, as other systems do); a process that
// left the call's group (setsid) is not ended; and a message the guard
// could not take at once (it is stopped, its pipe full) is dropped rather
// than holding up the call.
type guard struct {
	w *os.File // the write end of the guard's stdin
}

// startGuard starts the guard; nil when it cannot be started. Only the
// starter calls it, so that the pipe's write end is made and kept under
// the starter's rule (no other child forked meanwhile holds it).
func startGuard() *guard {
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	defer r.Close()
	cmd := osexec.Command(guardShell, "-c", guardScript)
	cmd.Args[0] = guardName
	cmd.Stdin = r
	// Its own group, no parent-death signal: it must outlive this process.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil
	}
	go func() { _ = cmd.Wait() }() // reaped if it ends before this process
	return &guard{w: w}
}

// watch tells the guard that the group pgid belongs to a running call.
func (g *guard) watch(pgid int) { g.send('+', pgid) }

// forget tells the guard that the group pgid has been ended.
func (g *guard) forget(pgid int) { g.send('-', pgid) }

// send writes one line to the guard, without waiting: a guard that cannot
// take it now loses it.
func (g *guard) send(op byte, pgid int) {
	if g == nil {
		return
	}
	var buf [24]byte
	line := strconv.AppendInt(append(buf[:0], op), int64(pgid), 10)
	line = append(line, '\n')
	rc, err := g.w.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Write(func(fd uintptr) bool {
		for {
			_, err := syscall.Write(int(fd), line)
			if err != syscall.EINTR {
				return true // written, or lost (EAGAIN, EPIPE): never wait
			}
		}
	})
}
