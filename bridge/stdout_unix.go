//go:build unix

package bridge

import (
	"fmt"
	"os"
	"syscall"
)

// protectStdout duplicates descriptor 1 for the protocol's exclusive use and
// points descriptor 1 (and os.Stdout) at stderr.
func protectStdout() (*os.File, error) {
	fd, err := syscall.Dup(int(os.Stdout.Fd()))
	if err != nil {
		return nil, fmt.Errorf("duplicating stdout: %w", err)
	}
	syscall.CloseOnExec(fd)
	if err := dup2(int(os.Stderr.Fd()), 1); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("pointing stdout at stderr: %w", err)
	}
	os.Stdout = os.NewFile(1, "/dev/stdout")
	return os.NewFile(uintptr(fd), "mcp-protocol"), nil
}
