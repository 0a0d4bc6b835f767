//go:build unix

package bridge_test

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestToolsOutputIntoNonRegularFile: -o naming a device or a named pipe
// writes into it. The atomic rename used for regular files replaced such a
// file with a regular one: `mcp tools -o /dev/null` turned the machine's
// /dev/null into a regular file (and every later process reading /dev/null
// read the export). A named pipe stands in for /dev/null here, so that a
// regression cannot damage the machine running the test.
func TestToolsOutputIntoNonRegularFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo) // blocks until the writer opens it
		if err != nil {
			got <- "open: " + err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	ts := newFake()
	want := runMCP(ts, "", "tools", "-o", "-")
	if want.err != nil {
		t.Fatal(want.err)
	}
	r := runMCP(ts, "", "tools", "-o", fifo)
	if r.err != nil {
		t.Fatalf("tools -o %s: %v", fifo, r.err)
	}
	// Checked before waiting for the reader: had the pipe been renamed
	// over, its reader would wait for a writer forever.
	fi, err := os.Lstat(fifo)
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("%s is no longer a named pipe: %v %v", fifo, fi.Mode(), err)
	}
	if s := <-got; s != want.stdout {
		t.Errorf("the pipe's reader got %d bytes %.80q; want the export (%d bytes)", len(s), s, len(want.stdout))
	}
	if r := runMCP(ts, "", "tools", "-o", t.TempDir()); r.err == nil {
		t.Error("tools -o DIRECTORY succeeded; want an error")
	}
}
