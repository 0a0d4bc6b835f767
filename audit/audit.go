package audit

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Record is one tool call, served or refused.
type Record struct {
	Time    time.Time `json:"time"`
	Subject string    `json:"subject"` // the caller's identity (the token's sub); "" without one
	Client  string    `json:"client"`  // the MCP client's name, from its initialize
	Session string    `json:"session"` // the MCP session ID; "" on stdio
	Tool    string    `json:"tool"`
	// Argv is the command line run, or that would have run, without the
	// program, every pinned value replaced by "***"; nil when the call was
	// refused before one was made.
	Argv []string `json:"argv"`
	// ExitCode is the command's exit code when it ran (see Exit); nil when
	// the call was refused.
	ExitCode *int `json:"exitCode,omitempty"`
	// Refused says why nothing ran; "" when the command ran.
	Refused string `json:"refused,omitempty"`
	// Duration is the call's time, waiting for a slot included.
	Duration time.Duration `json:"-"`
	// Waited is the part of Duration spent waiting for a call slot.
	Waited time.Duration `json:"-"`
	// OutputBytes is the bytes of stdout and stderr the call returned.
	OutputBytes int `json:"outputBytes"`
}

// line is a Record as written: the durations in milliseconds.
type line struct {
	Record
	DurationMS float64 `json:"durationMs"`
	WaitedMS   float64 `json:"waitedMs,omitempty"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// mark is the line that says records were lost.
type mark struct {
	Time    time.Time `json:"time"`
	Dropped int64     `json:"dropped"`
	Why     string    `json:"why"`
}

// reopenedMark is the line that starts a file opened again because the one
// written to was moved or deleted under the server.
type reopenedMark struct {
	Time     time.Time `json:"time"`
	Reopened string    `json:"reopened"` // the path
	Why      string    `json:"why"`
	// MayBeMissing counts the lines written to the old file since it was
	// last seen at the path: they are in the moved file, or were lost
	// with it if it was deleted.
	MayBeMissing int64 `json:"mayBeMissing"`
}

// bufferSize is how many records may wait to be written before Record
// drops (and counts) them.
const bufferSize = 4096

// Log writes records as JSON lines. Its methods are safe for concurrent
// use; a nil *Log records nothing.
type Log struct {
	w      io.Writer
	file   *file // the file of Open, reopened at its path; nil for New and "-"
	logger *slog.Logger

	mu      sync.RWMutex // guards closed against Record's send
	closed  bool
	ch      chan Record
	reopen  chan request // Reopen's requests, answered by the writer
	done    chan struct{}
	dropped atomic.Int64 // records lost since the last mark
	// torn is the writer's: a write was cut short and what it wrote could
	// not be taken back, so the next write starts a new line.
	torn bool
}

// Open opens path for appending and returns a Log writing to it; "-" means
// standard error. Write failures are reported to logger (nil: discarded).
//
// The file is opened without following a symbolic link and without
// waiting for a reader of a named pipe. It must be a regular file with
// one name, owned by the server's user: anything else (a symbolic link, a
// named pipe, a device, a directory, a file of another user or with other
// hard links) is refused with an error naming the path, before anything
// is written. A file Open creates has mode 0600; an existing one of the
// server's user that others may read or write is tightened to 0600 (and
// the log says so).
//
// The Log goes on writing where the file is: Reopen opens the path again
// (after logrotate moved it: SIGHUP's convention), and a file moved or
// deleted under it is noticed before the next line and the path opened
// again, with a line saying how many lines may be missing.
func Open(path string, logger *slog.Logger) (*Log, error) {
	if path == "" {
		return nil, errors.New("audit: no file named")
	}
	if path == "-" {
		return New(os.Stderr, logger), nil
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	f, err := openFile(path, logger)
	if err != nil {
		return nil, err
	}
	return start(f.f, f, logger), nil
}

// New returns a Log writing to w, which it does not close.
func New(w io.Writer, logger *slog.Logger) *Log {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return start(w, nil, logger)
}

func start(w io.Writer, f *file, logger *slog.Logger) *Log {
	l := &Log{w: w, file: f, logger: logger, ch: make(chan Record, bufferSize), reopen: make(chan request), done: make(chan struct{})}
	go l.write()
	return l
}

// Record queues r to be written, without waiting: when 4096 records wait
// already, r is counted as dropped, and the next line written says so.
func (l *Log) Record(r Record) {
	if l == nil {
		return
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.closed {
		l.dropped.Add(1)
		return
	}
	select {
	case l.ch <- r:
	default:
		l.dropped.Add(1)
	}
}

// Reopen closes the file and opens its path again, with Open's checks,
// once the records queued before it are written: what a server does on
// SIGHUP, after logrotate moved the file away. When the path cannot be
// opened (refused, or an error), the Log goes on writing to the file it
// had, and Reopen returns why. A Log of New, or of "-", has nothing to
// reopen.
func (l *Log) Reopen() error {
	if l == nil || l.file == nil {
		return nil
	}
	return l.ask(true)
}

// request is a Reopen (or, without reopen, only a wait for the records
// queued to be written), answered by the writer.
type request struct {
	reopen bool
	answer chan error
}

// ask sends the writer a request once the records queued are written,
// and returns its answer.
func (l *Log) ask(reopen bool) error {
	l.mu.RLock()
	if l.closed {
		l.mu.RUnlock()
		return errors.New("audit: the log is closed")
	}
	l.mu.RUnlock()
	r := request{reopen: reopen, answer: make(chan error, 1)}
	select {
	case l.reopen <- r:
		return <-r.answer
	case <-l.done:
		return errors.New("audit: the log is closed")
	}
}

// Close writes the records queued, then closes the file. Records after
// Close are dropped.
func (l *Log) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	close(l.ch)
	l.mu.Unlock()
	<-l.done
	if n := l.dropped.Load(); n > 0 {
		l.logger.Error("audit records dropped", "count", n)
	}
	if l.file != nil {
		return l.file.f.Close()
	}
	return nil
}

const whyDropped = "the audit buffer was full or the log could not be written"

func (l *Log) write() {
	defer close(l.done)
	var w writer
	for {
		select {
		case r, ok := <-l.ch:
			if !ok {
				l.closing()
				return
			}
			w.record(l, r)
		case req := <-l.reopen:
			// The records queued before the request first.
			for n := len(l.ch); n > 0; n-- {
				r, ok := <-l.ch
				if !ok {
					break
				}
				w.record(l, r)
			}
			var err error
			if req.reopen {
				err = l.reopenFile()
			}
			req.answer <- err
		}
	}
}

// writer is the state of the writer goroutine between records.
type writer struct {
	failing bool // a write failed, and was logged
	buf     []byte
}

// record writes r, after the mark of the records lost before it.
func (w *writer) record(l *Log, r Record) {
	if l.file != nil {
		l.followPath()
	}
	buf := w.buf[:0]
	if n := l.dropped.Swap(0); n > 0 {
		b, _ := json.Marshal(mark{Time: time.Now().UTC(), Dropped: n, Why: whyDropped})
		buf = append(append(buf, b...), '\n')
	}
	r.Time = r.Time.UTC()
	b, err := json.Marshal(line{Record: r, DurationMS: ms(r.Duration), WaitedMS: ms(r.Waited)})
	if err != nil { // cannot happen with these types; counted all the same
		l.dropped.Add(1)
		return
	}
	buf = append(append(buf, b...), '\n')
	w.buf = buf
	if err := l.put(buf); err != nil {
		lost := int64(1)
		if len(buf) > len(b)+1 { // the mark was lost with it
			var m mark
			_ = json.Unmarshal(buf[:len(buf)-len(b)-1], &m)
			lost += m.Dropped
		}
		l.dropped.Add(lost)
		if !w.failing {
			l.logger.Error("cannot write the audit log; records are counted and a mark will say how many were lost", "err", err)
		}
		w.failing = true
		return
	}
	if l.file != nil {
		l.file.sinceSeen++
	}
	if w.failing {
		l.logger.Info("the audit log is written again")
		w.failing = false
	}
}

// closing writes the mark of the records lost at the end, when it can.
func (l *Log) closing() {
	if n := l.dropped.Load(); n > 0 {
		b, _ := json.Marshal(mark{Time: time.Now().UTC(), Dropped: n, Why: whyDropped})
		if l.put(append(b, '\n')) == nil {
			l.dropped.Add(-n)
		}
	}
}

// put writes buf, whole lines, so that every line of the log stays one
// JSON value: a write cut short (a full disk, a file size limit) is taken
// back by truncating the file to where it began, or, where that cannot be
// done, the next write starts on a new line.
func (l *Log) put(buf []byte) error {
	if l.torn {
		buf = append([]byte{'\n'}, buf...)
	}
	n, err := l.w.Write(buf)
	if err == nil {
		l.torn = false
		return nil
	}
	if n > 0 && !(l.file != nil && l.file.takeBack(n)) {
		l.torn = buf[n-1] != '\n'
	}
	return err
}

// followPath opens the path again when the file written to is no longer
// there (moved or deleted), and writes the line that says so.
func (l *Log) followPath() {
	f := l.file
	if f.inPlace() {
		f.sinceSeen = 0
		return
	}
	missing := f.sinceSeen
	if err := l.reopenFile(); err != nil {
		return // reopenFile logged why; the old file is written to
	}
	b, _ := json.Marshal(reopenedMark{Time: time.Now().UTC(), Reopened: f.path, Why: "the audit log's file was moved or deleted under the server: its path was opened again", MayBeMissing: missing})
	if err := l.put(append(b, '\n')); err != nil {
		l.logger.Error("cannot write the audit log", "err", err)
	}
	l.logger.Warn("the audit log's file was moved or deleted; its path is opened again", "file", f.path, "mayBeMissing", missing)
}

// reopenFile opens the path again and writes there from now on; on an
// error it keeps the file it had, logs why once for a run of failures, and
// returns it.
func (l *Log) reopenFile() error {
	f := l.file
	nf, err := openFile(f.path, l.logger)
	if err != nil {
		if !f.reopenFailing {
			l.logger.Error("cannot open the audit log again; writing on to the file it had", "err", err)
		}
		f.reopenFailing = true
		return err
	}
	if err := f.f.Close(); err != nil {
		l.logger.Warn("closing the audit log's previous file", "err", err)
	}
	f.f, f.id, f.sinceSeen, f.reopenFailing = nf.f, nf.id, 0, false
	l.w, l.torn = nf.f, false
	return nil
}
