package process

import (
	"syscall"
	"unsafe"
)

// The calls below never block (the descriptors are non-blocking, the
// epoll waits do not wait, the process waited for has exited), so they go
// straight to the kernel: syscall.Syscall tells the scheduler first that
// the thread may block, and wakes the runtime's monitor thread when it
// sleeps, some microseconds of this process's CPU a call each time.

// rawRead is read(2) on a non-blocking descriptor.
func rawRead(fd int, p []byte) (int, syscall.Errno) {
	if len(p) == 0 {
		return 0, 0
	}
	n, _, e := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	return int(n), e
}

// rawClose is close(2) of a pipe end or a pidfd (never a blocking close).
func rawClose(fd int) {
	syscall.RawSyscall(syscall.SYS_CLOSE, uintptr(fd), 0, 0)
}

// rawEpollPoll is epoll_wait(2) with a timeout of zero: the ready events,
// without waiting.
func rawEpollPoll(epfd int, events []syscall.EpollEvent) (int, syscall.Errno) {
	n, _, e := syscall.RawSyscall6(syscall.SYS_EPOLL_PWAIT, uintptr(epfd), uintptr(unsafe.Pointer(&events[0])), uintptr(len(events)), 0, 0, 0)
	return int(n), e
}

// rawEpollCtl is epoll_ctl(2).
func rawEpollCtl(epfd, op, fd int, ev *syscall.EpollEvent) syscall.Errno {
	_, _, e := syscall.RawSyscall6(syscall.SYS_EPOLL_CTL, uintptr(epfd), uintptr(op), uintptr(fd), uintptr(unsafe.Pointer(ev)), 0, 0)
	return e
}

// rawWait4 is wait4(2) of a process known to have exited.
func rawWait4(pid int, ws *syscall.WaitStatus) syscall.Errno {
	_, _, e := syscall.RawSyscall6(syscall.SYS_WAIT4, uintptr(pid), uintptr(unsafe.Pointer(ws)), 0, 0, 0, 0)
	return e
}

// rawPwrite is pwrite(2) of a few bytes to a file in memory or the page
// cache. Where a pointer has 32 bits, the offset takes two arguments,
// aligned differently on each system: there it is syscall.Pwrite.
func rawPwrite(fd int, p []byte, off int64) syscall.Errno {
	if unsafe.Sizeof(uintptr(0)) < 8 {
		_, err := syscall.Pwrite(fd, p, off)
		if e, ok := err.(syscall.Errno); ok {
			return e
		}
		return 0
	}
	_, _, e := syscall.RawSyscall6(syscall.SYS_PWRITE64, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)), uintptr(off), 0, 0)
	return e
}

// rawSetNonblock sets O_NONBLOCK on a pipe's read end or an epoll
// instance, whose only other status flag is their access mode (which
// F_SETFL ignores).
func rawSetNonblock(fd int) syscall.Errno {
	_, _, e := syscall.RawSyscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETFL, syscall.O_NONBLOCK)
	return e
}

// rawEpollCreate is epoll_create1(EPOLL_CLOEXEC).
func rawEpollCreate() (int, syscall.Errno) {
	fd, _, e := syscall.RawSyscall(syscall.SYS_EPOLL_CREATE1, syscall.EPOLL_CLOEXEC, 0, 0)
	return int(fd), e
}
