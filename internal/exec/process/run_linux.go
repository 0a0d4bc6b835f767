package process

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"unsafe"
)

// lockThreadForever locks the calling goroutine to its thread, for the
// parent-death signal; the caller never unlocks it.
//
// Every child is killed (SIGKILL) when this process dies, even by SIGKILL,
// when nothing is left to end its group: Linux's parent-death signal
// (PR_SET_PDEATHSIG, see spawn). Only the child gets it: its own children,
// the rest of the group, outlive this process unless the child ends them
// (the guard ends them). Linux sends the signal when the thread that
// started the child exits, not the process; Go ends a thread when a
// goroutine locked to it returns. Every child is therefore started by the
// starter, whose goroutine is locked to its thread for good and never
// returns, so no other goroutine can end that thread under a running child.
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
		exited, ok := waitidNoHang(int(fd))
		return exited || !ok // not ok: cannot tell; the caller's wait will
	})
}

// waitidNoHang asks whether the process of the pidfd fd has exited, without
// waiting and without reaping it; ok is false when that cannot be told.
func waitidNoHang(fd int) (exited, ok bool) {
	const pPIDFD = 3 // P_PIDFD
	// siginfo_t: 128 bytes; si_pid follows three int32s, at the start of a
	// union aligned as a pointer.
	var info [32]int32
	pid := 3
	if unsafe.Sizeof(uintptr(0)) == 8 {
		pid = 4
	}
	for {
		_, _, e := syscall.RawSyscall6(syscall.SYS_WAITID, pPIDFD, uintptr(fd), uintptr(unsafe.Pointer(&info)),
			syscall.WEXITED|syscall.WNOHANG|syscall.WNOWAIT, 0, 0)
		switch {
		case e == syscall.EINTR:
			continue
		case e != 0:
			return false, false
		}
		return info[pid] != 0, true // 0: not exited yet
	}
}
