//go:build unix

package auditfile

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
)

// Reopened is what a server logs when SIGHUP has made it open its audit
// log again.
const Reopened = "SIGHUP: the audit log is opened again"

// Rotate does to the audit log at path what logrotate does: it renames
// the file to rotated, then sends SIGHUP to the server p (logrotate's
// postrotate), and waits up to 20s until the server's log has said n
// times in all that it opened the file again.
func Rotate(t testing.TB, p *os.Process, path, rotated string, log fmt.Stringer, n int) {
	t.Helper()
	if err := os.Rename(path, rotated); err != nil {
		t.Fatal(err)
	}
	if err := p.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return strings.Count(log.String(), Reopened) == n },
		func() string { return fmt.Sprintf("the reopening not logged %d times:\n%s", n, log) })
}
