//go:build unix && !linux

package exec

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

// dieWithParent does nothing: only Linux has a parent-death signal, so here
// a call's process outlives a server killed by SIGKILL.
func dieWithParent(*syscall.SysProcAttr) {}

// lockThreadForever does nothing: see dieWithParent.
func lockThreadForever() {}

// waiter returns the wait for cmd's process: cmd.Wait.
func waiter(cmd *osexec.Cmd) func() error { return cmd.Wait }

// outputPipe makes a pipe for one output stream of a child (see the Linux
// version).
func outputPipe() (r, w *os.File, err error) { return os.Pipe() }
