//go:build unix

package exec

import (
	"errors"
	"os"
	osexec "os/exec"
	"syscall"
)

// setGroup makes the child the leader of a new process group whose id is its pid.
func setGroup(cmd *osexec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends SIGTERM (kill false) or SIGKILL (kill true) to every
// process in the group pgid. It works after the leader has been reaped, as
// long as any member lives. A group already gone is not an error.
func signalGroup(pgid int, _ *os.Process, kill bool) error {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	if err := syscall.Kill(-pgid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// exitSignal names the signal that ended the process, or "".
func exitSignal(ps *os.ProcessState) string {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}
