//go:build unix

package auditfile_test

import (
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/cobramcp/cobramcp/test/auditfile"
	"github.com/cobramcp/cobramcp/test/proctest"
)

// TestRotate rotates a file under this test's own process, which logs the
// reopening on SIGHUP as a server does.
func TestRotate(t *testing.T) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	log := &proctest.Buffer{}
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-hup:
				log.Write([]byte("level=INFO msg=\"" + auditfile.Reopened + "\"\n"))
			case <-done:
				return
			}
		}
	}()
	p := filepath.Join(t.TempDir(), "calls.audit")
	if err := os.WriteFile(p, []byte(`{"tool":"a"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	self, err := os.FindProcess(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	auditfile.Rotate(t, self, p, p+".1", log, 1)
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Errorf("the path after the rename: %v", err)
	}
	if l := auditfile.Lines(t, p+".1"); len(l) != 1 || l[0]["tool"] != "a" {
		t.Errorf("the rotated file: %v", l)
	}
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	auditfile.Rotate(t, self, p, p+".2", log, 2)
	if _, err := os.Stat(p + ".2"); err != nil {
		t.Errorf("the second rotation: %v", err)
	}
}
