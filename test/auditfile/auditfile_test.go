package auditfile_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cobramcp/cobramcp/test/auditfile"
)

// fatalTB records a fatal failure and ends the goroutine that met it, as
// testing.T does.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Fatal(args ...any) { f.msg = fmt.Sprint(args...); runtime.Goexit() }

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// fatal runs f with a fatalTB and returns its fatal message ("" if none).
func fatal(t *testing.T, f func(testing.TB)) string {
	tb := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() { defer close(done); f(tb) }()
	<-done
	return tb.msg
}

func TestLines(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "calls.audit")
	if l := auditfile.Lines(t, p); l != nil {
		t.Errorf("a missing file: %v, want nil", l)
	}
	if err := os.WriteFile(p, []byte(`{"tool":"a"}`+"\n\n"+`{"tool":"b","exitCode":1}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if l := auditfile.Lines(t, p); len(l) != 2 || l[0]["tool"] != "a" || l[1]["tool"] != "b" || l[1]["exitCode"] != 1.0 {
		t.Errorf("Lines = %v", l)
	}
	if l := auditfile.WaitLines(t, p, 2); len(l) != 2 {
		t.Errorf("WaitLines = %v", l)
	}
	if err := os.WriteFile(p, []byte(`{"tool":"a"}`+"\n"+`{"tool":`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if msg := fatal(t, func(tb testing.TB) { auditfile.Lines(tb, p) }); !strings.Contains(msg, "a line is not JSON") {
		t.Errorf("a line cut short: %q, want a failure", msg)
	}
	if msg := fatal(t, func(tb testing.TB) { auditfile.Lines(tb, dir) }); msg == "" {
		t.Error("a directory read as an audit log")
	}
}
