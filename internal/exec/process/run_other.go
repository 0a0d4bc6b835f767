//go:build !unix

package process

import (
	"os"
	osexec "os/exec"
)

// On systems without process groups (Windows), Run ends only the process it
// started, with no grace: there is no SIGTERM to send.

func setGroup(*osexec.Cmd) {}

func signalGroup(_ int, p *proc, _ bool) error {
	if err := p.cmd.Process.Kill(); err != nil && err != os.ErrProcessDone {
		return err
	}
	return nil
}

func groupLive(int) bool { return false }

func lockThreadForever() {}

func exitSignal(*os.ProcessState) string { return "" }

// drain reads nothing: reading stopped by closing f (pipes have no
// deadlines here).
func drain(*os.File, []byte, int, func([]byte)) bool { return false }
