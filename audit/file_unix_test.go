//go:build unix

package audit

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// openWithin is Open, failed if it takes more than 10 s (a hang).
func openWithin(t *testing.T, path string) (*Log, error) {
	t.Helper()
	type opened struct {
		l   *Log
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		l, err := Open(path, nil)
		ch <- opened{l, err}
	}()
	select {
	case o := <-ch:
		return o.l, o.err
	case <-time.After(10 * time.Second):
		t.Fatalf("Open(%s) hangs", path)
		return nil, nil
	}
}

// TestOpenRefusesPaths (issue 34.7): a symbolic link at the path (to a
// file of the server's user or not), a named pipe (with or without a
// reader), a directory, a device, and a file with another name are
// refused at once with an error naming the path; the file a link points
// to is neither written to nor changed in mode.
func TestOpenRefusesPaths(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "victim")
	if err := os.WriteFile(target, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.audit")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.audit")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.audit")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	fifoRead := filepath.Join(dir, "fifo-read.audit")
	if err := syscall.Mkfifo(fifoRead, 0o600); err != nil {
		t.Fatal(err)
	}
	reader, err := os.OpenFile(fifoRead, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	linked := filepath.Join(dir, "linked.audit")
	if err := os.Link(target, linked); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, says string }{
		{link, "is a symbolic link"},
		{dangling, "is a symbolic link"},
		{fifo, "is a named pipe (FIFO)"},
		{fifoRead, "is a named pipe (FIFO)"},
		{dir, "is a directory"},
		{"/dev/null", "is a device"},
		{linked, "has 2 hard links"},
	} {
		l, err := openWithin(t, c.path)
		if err == nil {
			l.Close()
			t.Errorf("Open(%s) succeeded", c.path)
			continue
		}
		if !strings.Contains(err.Error(), "audit log "+c.path+": ") || !strings.Contains(err.Error(), c.says) {
			t.Errorf("Open(%s): %v; want the path named and %q", c.path, err, c.says)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); err == nil {
		t.Error("a dangling link's target was created")
	}
	if b, _ := os.ReadFile(target); string(b) != "precious\n" {
		t.Errorf("the link's target was written: %q", b)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o644 {
		t.Errorf("the link's target's mode is now %v", fi.Mode().Perm())
	}
}

// TestOpenRefusesAnotherUsersFile: a file at the path owned by another
// user is refused, and neither written to nor changed in mode (as root,
// the server could write it; CI runs as root).
func TestOpenRefusesAnotherUsersFile(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to make a file another user's")
	}
	p := filepath.Join(t.TempDir(), "theirs.audit")
	if err := os.WriteFile(p, []byte("theirs\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(p, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	l, err := Open(p, nil)
	if err == nil {
		l.Close()
		t.Fatal("another user's file was opened")
	}
	if !strings.Contains(err.Error(), "audit log "+p+": is owned by user 65534, not by this server's user 0") {
		t.Errorf("err %v", err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o644 {
		t.Errorf("its mode is now %v", fi.Mode().Perm())
	}
	if b, _ := os.ReadFile(p); string(b) != "theirs\n" {
		t.Errorf("it was written: %q", b)
	}
}

// jsonLines splits b into lines and decodes each, failing on a line that
// is not one JSON object.
func jsonLines(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	if len(b) > 0 && b[len(b)-1] != '\n' {
		t.Errorf("the log ends without a newline: %q", b[max(0, len(b)-80):])
	}
	var out []map[string]any
	for _, l := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		if len(l) == 0 && len(b) == 0 {
			break
		}
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Errorf("a line is not JSON: %q: %v", l, err)
			continue
		}
		out = append(out, m)
	}
	return out
}

// TestTornWrite (issue 34.7): a process whose file size limit (RLIMIT_FSIZE)
// cuts a record short leaves no torn line: every line of the log is one
// JSON object, and once the limit is raised the mark of the records lost
// is a line of its own, with every record accounted for.
func TestTornWrite(t *testing.T) {
	if os.Getenv("AUDIT_TORN_CHILD") != "" {
		tornChild()
		return
	}
	p := filepath.Join(t.TempDir(), "calls.audit")
	cmd := exec.Command(os.Args[0], "-test.run=^TestTornWrite$", "-test.count=1")
	cmd.Env = append(os.Environ(), "AUDIT_TORN_CHILD="+p)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child: %v\n%s", err, out)
	}
	b, _ := os.ReadFile(p)
	lines := jsonLines(t, b)
	records, dropped, marks := 0, 0, 0
	for _, m := range lines {
		if d, ok := m["dropped"].(float64); ok {
			dropped += int(d)
			marks++
		} else {
			records++
		}
	}
	if records+dropped != tornRecords || marks != 1 || dropped == 0 {
		t.Errorf("%d records written, %d dropped in %d marks; want all %d accounted for by one mark:\n%s", records, dropped, marks, tornRecords, b)
	}
	if !strings.Contains(string(out), "file too large") {
		t.Errorf("the child did not meet its file size limit:\n%s", out)
	}
}

const tornRecords = 40

// tornChild writes records under a file size limit that cuts one short,
// then raises the limit and writes more.
func tornChild() {
	p := os.Getenv("AUDIT_TORN_CHILD")
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		panic(err)
	}
	low := lim
	low.Cur = 1000
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &low); err != nil {
		panic(err)
	}
	var logs bytes.Buffer
	l, err := Open(p, slogTo(&logs))
	if err != nil {
		panic(err)
	}
	for i := range tornRecords - 5 {
		l.Record(Record{Tool: "mycli_echo", Argv: []string{"echo", strings.Repeat("x", i)}})
	}
	if err := l.ask(false); err != nil {
		panic(err)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		panic(err)
	}
	for range 5 {
		l.Record(Record{Tool: "mycli_version"})
	}
	l.Close()
	os.Stdout.WriteString(logs.String())
}

func slogTo(w *bytes.Buffer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }

// TestReopen (issue 34.7): logrotate's way, the file renamed and then
// Reopen (SIGHUP): the records before are in the renamed file, those
// after in a new file at the path, mode 0600, with no mark (nothing was
// at risk).
func TestReopen(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "calls.audit")
	l, err := Open(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.Record(Record{Tool: "before"})
	if err := l.ask(false); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(p, p+".1"); err != nil {
		t.Fatal(err)
	}
	if err := l.Reopen(); err != nil {
		t.Fatal(err)
	}
	l.Record(Record{Tool: "after"})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	old, _ := os.ReadFile(p + ".1")
	cur, _ := os.ReadFile(p)
	if o, c := jsonLines(t, old), jsonLines(t, cur); len(o) != 1 || o[0]["tool"] != "before" || len(c) != 1 || c[0]["tool"] != "after" {
		t.Errorf("rotated %s\ncurrent %s", old, cur)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the new file: %v %v", fi, err)
	}
}

// TestReopenRefused: a symbolic link planted at the path after it moved is
// not followed by Reopen: it fails naming the path, and the log goes on
// writing to the file it had.
func TestReopenRefused(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "calls.audit")
	l, err := Open(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	os.Rename(p, p+".1")
	target := filepath.Join(dir, "victim")
	os.WriteFile(target, nil, 0o644)
	os.Symlink(target, p)
	if err := l.Reopen(); err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
		t.Errorf("Reopen over a link: %v", err)
	}
	l.Record(Record{Tool: "kept"})
	l.Close()
	if b, _ := os.ReadFile(target); len(b) != 0 {
		t.Errorf("the link's target was written: %s", b)
	}
	if b, _ := os.ReadFile(p + ".1"); !strings.Contains(string(b), `"tool":"kept"`) {
		t.Errorf("the record was not written to the file the log had: %q", b)
	}
}

// TestFileMovedOrDeleted (issue 34.7): a file moved or deleted under the
// log, without a Reopen, is noticed before the next record: the path is
// opened again, and the new file starts with a line saying how many lines
// may be missing.
func TestFileMovedOrDeleted(t *testing.T) {
	for _, how := range []string{"moved", "deleted"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "calls.audit")
			l, err := Open(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			l.Record(Record{Tool: "a"})
			l.Record(Record{Tool: "b"})
			if err := l.ask(false); err != nil {
				t.Fatal(err)
			}
			if how == "moved" {
				err = os.Rename(p, p+".1")
			} else {
				err = os.Remove(p)
			}
			if err != nil {
				t.Fatal(err)
			}
			l.Record(Record{Tool: "c"})
			l.Close()
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			lines := jsonLines(t, b)
			if len(lines) != 2 || lines[0]["reopened"] != p || lines[0]["mayBeMissing"] != 1.0 || lines[1]["tool"] != "c" {
				t.Errorf("the new file:\n%s", b)
			}
		})
	}
}

// shortWriter writes part of a write once, then fails it: a full disk.
type shortWriter struct {
	buf  bytes.Buffer
	cuts int
}

func (w *shortWriter) Write(p []byte) (int, error) {
	if w.cuts > 0 {
		w.cuts--
		n := len(p) / 2
		w.buf.Write(p[:n])
		return n, syscall.ENOSPC
	}
	return w.buf.Write(p)
}

// TestShortWriteNewLine: a writer that cannot take back a write cut short
// (New's) gets the next record on a line of its own, the mark of the lost
// record a line of its own.
func TestShortWriteNewLine(t *testing.T) {
	w := &shortWriter{cuts: 1}
	l := New(w, nil)
	l.Record(Record{Tool: "cut"})
	l.Record(Record{Tool: "next"})
	l.Close()
	parts := strings.Split(strings.TrimSuffix(w.buf.String(), "\n"), "\n")
	if len(parts) != 3 || !strings.HasPrefix(parts[0], `{"time"`) || json.Valid([]byte(parts[0])) {
		t.Fatalf("lines %q; want the cut fragment alone on its line", parts)
	}
	var m, r map[string]any
	if json.Unmarshal([]byte(parts[1]), &m) != nil || m["dropped"] != 1.0 || json.Unmarshal([]byte(parts[2]), &r) != nil || r["tool"] != "next" {
		t.Errorf("lines %q; want the mark, then the next record, each a line", parts)
	}
}
