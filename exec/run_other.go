//go:build !unix

package exec

import (
	"os"
	osexec "os/exec"
)

// On systems without process groups (Windows), Run ends only the process it
// started, with no grace: there is no SIGTERM to send.

func setGroup(*osexec.Cmd) {}

func signalGroup(_ int, p *os.Process, _ bool) error {
	if err := p.Kill(); err != nil && err != os.ErrProcessDone {
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

func waiter(cmd *osexec.Cmd) func() error { return cmd.Wait }

func outputPipe() (r, w *os.File, err error) { return os.Pipe() }
