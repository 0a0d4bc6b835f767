package process

import (
	"os"
	osexec "os/exec"
	"strconv"
	"sync"
	"syscall"
)

// guardScript is the program of the guard (see guard). It waits for the
// end of its stdin, a pipe whose write end only this process holds (this
// process is gone, killed or exited), then reads the guard's file on fd 3,
// one line per slot, and sends SIGKILL to the process group of every slot
// that holds one. After a normal exit every slot is empty and it ends
// nothing. It ignores the terminal's SIGHUP and SIGINT: this process
// decides when calls end.
const guardScript = `trap '' HUP INT
while read -r l; do :; done
while read -r p; do
	case $p in ''|*[!0-9]*) ;; *) kill -s KILL -- "-$p" 2>/dev/null ;; esac
done <&3
`

// guardShell is the shell that runs guardScript; without it there is no
// guard. guardName is the guard's argv[0], which names it in ps.
const (
	guardShell = "/bin/sh"
	guardName  = "cobramcp-guard"
)

// slotSize is the size of one slot of the guard's file: a process group id,
// right-aligned in spaces, and a newline; all spaces when the slot is free.
// Linux's pids have at most 7 digits.
const slotSize = 16

// guard ends the calls' process groups when this process dies, even by
// SIGKILL: the parent-death signal (see lockThreadForever) reaches only each
// call's own process, and its children, re-parented to init, would live on.
// The guard is one small process (a POSIX shell running guardScript),
// started with the first call, outside this process's group so that the
// terminal's signals leave it alone. It sleeps until this process is gone:
// the groups of the running calls are in a file the two share (deleted at
// once, so it has no name), one slot per running call, written with one
// pwrite when a call starts (watch) and one when its group has ended
// (forget). A call costs the guard nothing, and never waits for it.
//
// A guard that ends while this process lives (someone killed it) is started
// again, on the same file, before the next call starts (revive).
//
// Limits: a system without /bin/sh has no guard (a killed server then
// leaves a call's children running, as other systems do); a process that
// left the call's group (setsid) is not ended; between a guard's end and
// the next call's start, the running calls are guarded by the
// parent-death signal alone.
type guard struct {
	w     *os.File // the write end of the guard's stdin, never written
	state *os.File // the slots, fd 3 of the guard
	fd    int      // state's descriptor
	// inMemory: state is in /dev/shm, where a write never waits for a
	// disk, and may be a raw system call (see rawPwrite).
	inMemory bool
	exited   chan struct{} // closed when the guard has ended

	mu    sync.Mutex
	free  []int // slots free for reuse
	slots int   // slots made
}

// startGuard starts the guard; nil when it cannot be started. Only the
// starter calls it, so that the pipe's write end is made and kept under
// the starter's rule (no other child forked meanwhile holds it).
func startGuard() *guard {
	state, inMemory, err := guardFile()
	if err != nil {
		return nil
	}
	g := &guard{state: state, fd: int(state.Fd()), inMemory: inMemory}
	if !g.spawn() {
		state.Close()
		return nil
	}
	return g
}

// spawn starts the guard's process on g's file, with a new pipe for its
// stdin, and reports whether it could.
func (g *guard) spawn() bool {
	r, w, err := os.Pipe()
	if err != nil {
		return false
	}
	defer r.Close()
	cmd := osexec.Command(guardShell, "-c", guardScript)
	cmd.Args[0] = guardName
	cmd.Stdin = r
	cmd.ExtraFiles = []*os.File{g.state}
	// Its own group, no parent-death signal: it must outlive this process.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		return false
	}
	exited := make(chan struct{})
	go func() { // reaped if it ends before this process
		_ = cmd.Wait()
		close(exited)
	}()
	g.w, g.exited = w, exited
	return true
}

// revive starts the guard's process again if it has ended while this
// process lives (someone killed it), on the same file: the calls already
// running stay guarded. Only the starter calls it, before a start.
func (g *guard) revive() {
	if g == nil {
		return
	}
	select {
	case <-g.exited:
	default:
		return // running
	}
	old := g.w
	if g.spawn() {
		old.Close()
	}
}

// guardFile makes the guard's file, without a name: in memory (/dev/shm)
// where there is one, else in the temporary directory.
func guardFile() (f *os.File, inMemory bool, err error) {
	for _, dir := range []string{"/dev/shm", os.TempDir()} {
		if f, err = os.CreateTemp(dir, guardName+"-*"); err != nil {
			continue
		}
		if err = os.Remove(f.Name()); err != nil {
			f.Close()
			continue
		}
		return f, dir == "/dev/shm", nil
	}
	return nil, false, err
}

// watch tells the guard that the group pgid belongs to a running call, and
// returns the slot to forget it by (-1: no guard).
func (g *guard) watch(pgid int) int {
	if g == nil {
		return -1
	}
	g.mu.Lock()
	slot := g.slots
	if n := len(g.free); n > 0 {
		slot = g.free[n-1]
		g.free = g.free[:n-1]
	} else {
		g.slots++
	}
	g.mu.Unlock()
	g.write(slot, pgid)
	return slot
}

// forget tells the guard that the group in slot has been ended.
func (g *guard) forget(slot int) {
	if g == nil || slot < 0 {
		return
	}
	g.write(slot, 0)
	g.mu.Lock()
	g.free = append(g.free, slot)
	g.mu.Unlock()
}

// write fills slot with pgid, or empties it (pgid 0). A write that fails
// (the disk is full) leaves that call unguarded rather than holding it up.
func (g *guard) write(slot, pgid int) {
	var line [slotSize]byte
	for i := range line {
		line[i] = ' '
	}
	line[slotSize-1] = '\n'
	if pgid > 0 {
		var digits [20]byte
		d := strconv.AppendInt(digits[:0], int64(pgid), 10)
		copy(line[slotSize-1-len(d):], d)
	}
	if g.inMemory {
		rawPwrite(g.fd, line[:], int64(slot)*slotSize)
	} else {
		_, _ = g.state.WriteAt(line[:], int64(slot)*slotSize)
	}
}
