//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package clientcfg

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNamedPipeRefused checks that List, Set and Remove refuse a named
// pipe (a symbolic link to one too) instead of blocking on it until a
// writer comes.
func TestNamedPipeRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "mcp.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fifo, link} {
		f := File{Path: path, Format: JSON, Key: []string{"mcpServers"}}
		ops := map[string]func() error{
			"List":   func() error { _, err := f.List(); return err },
			"Set":    func() error { _, err := f.Set("mycli", testServer, false); return err },
			"Remove": func() error { _, err := f.Remove("mycli", false); return err },
		}
		for name, op := range ops {
			t.Run(filepath.Base(path)+"/"+name, func(t *testing.T) {
				done := make(chan error, 1)
				go func() { done <- op() }()
				select {
				case err := <-done:
					if err == nil || !strings.Contains(err.Error(), "named pipe") || !strings.Contains(err.Error(), dir) {
						t.Errorf("err = %v, want one naming %s as a named pipe", err, path)
					}
				case <-time.After(5 * time.Second):
					// Unblock the reader so that the test ends.
					if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
						w.Close()
					}
					t.Fatalf("%s blocked reading a named pipe", name)
				}
			})
		}
	}
}
