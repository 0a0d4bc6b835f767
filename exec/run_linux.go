package exec

import (
	"bytes"
	"os"
	osexec "os/exec"
	"runtime"
	"strconv"
	"syscall"
	"unsafe"
)

// dieWithParent has the child killed (SIGKILL) when this process dies, even
// by SIGKILL, when nothing is left to end its group: Linux's parent-death
// signal (PR_SET_PDEATHSIG). Only the child gets it: its own children, the
// rest of the group, outlive this process unless the child ends them.
//
// Linux sends the signal when the thread that started the child exits, not
// the process; Go ends a thread when a goroutine locked to it returns. Every
// child is therefore started by the starter, whose goroutine is locked to
// its thread for good (lockThreadForever) and never returns, so no other
// goroutine can end that thread under a running child.
func dieWithParent(attr *syscall.SysProcAttr) {
	attr.Pdeathsig = syscall.SIGKILL
}

// lockThreadForever locks the calling goroutine to its thread, for the
// parent-death signal (see dieWithParent); the caller never unlocks it.
func lockThreadForever() {
	runtime.LockOSThread()
}

// groupLive reports whether the process group pgid has a member that is not a
// zombie. Zombies count as gone: an orphan is reparented to init, and an init
// that does not reap (as in some containers) would otherwise keep the group
// alive forever.
func groupLive(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	dir, err := os.Open("/proc")
	if err != nil {
		return true
	}
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return true
	}
	for _, name := range names {
		if name[0] < '0' || name[0] > '9' {
			continue
		}
		stat, err := os.ReadFile("/proc/" + name + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		state, pgrp, ok := parseStat(stat)
		if ok && pgrp == pgid && state != 'Z' && state != 'X' {
			return true
		}
	}
	return false
}

// parseStat reads the state and the process group from a /proc/<pid>/stat
// line: "pid (comm) state ppid pgrp ...", where comm may hold spaces and ')'.
func parseStat(stat []byte) (state byte, pgrp int, ok bool) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, false
	}
	fields := bytes.Fields(stat[i+1:])
	if len(fields) < 3 || len(fields[0]) != 1 {
		return 0, 0, false
	}
	pgrp, err := strconv.Atoi(string(fields[2]))
	if err != nil {
		return 0, 0, false
	}
	return fields[0][0], pgrp, true
}

// outputPipe makes a pipe for one output stream of a child: the read end is
// non-blocking and pollable (Run reads it with deadlines); the write end,
// which only the child uses, stays blocking and out of the poller (os.Pipe
// would register it, only for the start to take it out again). Both ends
// are close-on-exec.
func outputPipe() (r, w *os.File, err error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	if err := syscall.SetNonblock(p[0], true); err != nil {
		syscall.Close(p[0])
		syscall.Close(p[1])
		return nil, nil, os.NewSyscallError("setnonblock", err)
	}
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), nil
}

// waiter returns the wait for cmd's process, to call once it has started:
// cmd.Wait, after the process has exited. Go's own wait blocks a thread in
// waitid until then, one per running call; here the goroutine waits in the
// poller on a pidfd of the process (readable once it has exited) and Wait
// then reaps at once. Without a pidfd (an old kernel) it is cmd.Wait
// alone.
func waiter(cmd *osexec.Cmd) func() error {
	fd := -1
	cmd.SysProcAttr.PidFD = &fd // os keeps a copy of its own; this one is ours
	return func() error {
		if fd >= 0 {
			awaitExit(fd)
		}
		return cmd.Wait()
	}
}

// awaitExit returns once the process of the pidfd fd has exited (or when
// that cannot be told, leaving the wait to the caller), and closes fd.
func awaitExit(fd int) {
	if syscall.SetNonblock(fd, true) != nil {
		syscall.Close(fd)
		return
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Read(func(fd uintptr) bool {
		const pPIDFD = 3 // P_PIDFD
		// siginfo_t: 128 bytes; si_pid follows three int32s, at the start
		// of a union aligned as a pointer.
		var info [32]int32
		pid := 3
		if unsafe.Sizeof(uintptr(0)) == 8 {
			pid = 4
		}
		for {
			_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pPIDFD, fd, uintptr(unsafe.Pointer(&info)),
				syscall.WEXITED|syscall.WNOHANG|syscall.WNOWAIT, 0, 0)
			switch {
			case e == syscall.EINTR:
				continue
			case e != 0:
				return true // cannot tell: Wait will
			}
			return info[pid] != 0 // 0: not exited yet; wait for the pidfd
		}
	})
}
