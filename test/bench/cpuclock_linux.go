package main

import (
	"syscall"
	"time"
	"unsafe"
)

// processCPUClock is the CPU time of process pid, all its threads (those
// ended too), to the nanosecond: the process's CPU-time clock, which Linux
// lets clock_gettime read for any process (MAKE_PROCESS_CPUCLOCK(pid,
// CPUCLOCK_SCHED)). /proc/PID/stat gives the same sum cut to clock ticks
// (10 ms): some 36 ticks a round of 300 calls, so that a tick either way
// moved a round's CPU per call by 3 %.
func processCPUClock(pid int) (time.Duration, bool) {
	const cpuclockSched = 2
	clock := int32(^uint32(pid)<<3) | cpuclockSched
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, uintptr(clock), uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
