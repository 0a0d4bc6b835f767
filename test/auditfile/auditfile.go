package auditfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"testing"
	"time"
)

// Lines reads the JSON lines of the audit log at path, failing t on a line
// that is not JSON or a file that cannot be read; nil while the file is
// missing.
func Lines(t testing.TB, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, l := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatalf("%s: a line is not JSON: %q", path, l)
		}
		out = append(out, m)
	}
	return out
}

// WaitLines waits up to 20s until the audit log at path has n lines, and
// returns them.
func WaitLines(t testing.TB, path string, n int) []map[string]any {
	t.Helper()
	var lines []map[string]any
	waitFor(t, func() bool { lines = Lines(t, path); return len(lines) == n },
		func() string { return fmt.Sprintf("%s has %d lines, want %d", path, len(lines), n) })
	return lines
}

// waitFor polls cond every 20ms for up to 20s, failing t with what()
// if it never holds.
func waitFor(t testing.TB, cond func() bool, what func() string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal(what())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
