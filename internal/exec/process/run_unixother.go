//go:build unix && !linux

package process

import (
	"os"
	osexec "os/exec"
	"syscall"
)

// groupLive reports whether the process group pgid has a member. A zombie
// member counts as alive here; the caller's grace period bounds the wait.
func groupLive(pgid int) bool {
	return syscall.Kill(-pgid, 0) == nil
}

// setGroup makes the child the leader of a new process group whose id is
// its pid. Only Linux has a parent-death signal, so here a call's process
// outlives a server killed by SIGKILL.
func setGroup(cmd *osexec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// lockThreadForever does nothing: there is no parent-death signal here.
func lockThreadForever() {}

// exitSignal names the signal that ended the process, or "".
func exitSignal(ps *os.ProcessState) string {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}
