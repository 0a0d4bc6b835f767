package audit

import (
	"encoding/json"
	"errors"
	"fmt"
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

// Exit returns a pointer to code, for Record.ExitCode.
func Exit(code int) *int { return &code }

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

// bufferSize is how many records may wait to be written before Record
// drops (and counts) them.
const bufferSize = 4096

// Log writes records as JSON lines. Its methods are safe for concurrent
// use; a nil *Log records nothing.
type Log struct {
	w      io.Writer
	closer io.Closer // nil for stderr
	logger *slog.Logger

	mu      sync.RWMutex // guards closed against Record's send
	closed  bool
	ch      chan Record
	done    chan struct{}
	dropped atomic.Int64 // records lost since the last mark
}

// Open opens path for appending (creating it with mode 0600) and returns a
// Log writing to it; "-" means standard error. Write failures are reported
// to logger (nil: discarded).
func Open(path string, logger *slog.Logger) (*Log, error) {
	if path == "" {
		return nil, errors.New("audit: no file named")
	}
	if path == "-" {
		return New(os.Stderr, logger), nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("audit log: %w", err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("audit log %s: not a regular file", path)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		if err := f.Chmod(0o600); err != nil {
			f.Close()
			return nil, fmt.Errorf("audit log %s has mode %#o, readable or writable by others, and could not be made 0600: %w", path, perm, err)
		}
		if logger != nil {
			logger.Warn("audit log was readable or writable by others: its mode is now 0600", "file", path, "was", fmt.Sprintf("%#o", perm))
		}
	}
	l := New(f, logger)
	l.closer = f
	return l, nil
}

// New returns a Log writing to w, which it does not close.
func New(w io.Writer, logger *slog.Logger) *Log {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	l := &Log{w: w, logger: logger, ch: make(chan Record, bufferSize), done: make(chan struct{})}
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
	if l.closer != nil {
		return l.closer.Close()
	}
	return nil
}

func (l *Log) write() {
	defer close(l.done)
	failing := false
	var buf []byte
	for r := range l.ch {
		buf = buf[:0]
		if n := l.dropped.Swap(0); n > 0 {
			b, _ := json.Marshal(mark{Time: time.Now().UTC(), Dropped: n, Why: "the audit buffer was full or the log could not be written"})
			buf = append(append(buf, b...), '\n')
		}
		r.Time = r.Time.UTC()
		b, err := json.Marshal(line{Record: r, DurationMS: ms(r.Duration), WaitedMS: ms(r.Waited)})
		if err != nil { // cannot happen with these types; counted all the same
			l.dropped.Add(1)
			continue
		}
		buf = append(append(buf, b...), '\n')
		if _, err := l.w.Write(buf); err != nil {
			lost := int64(1)
			if len(buf) > len(b)+1 { // the mark was lost with it
				var m mark
				_ = json.Unmarshal(buf[:len(buf)-len(b)-1], &m)
				lost += m.Dropped
			}
			l.dropped.Add(lost)
			if !failing {
				l.logger.Error("cannot write the audit log; records are counted and a mark will say how many were lost", "err", err)
			}
			failing = true
			continue
		}
		if failing {
			l.logger.Info("the audit log is written again")
			failing = false
		}
	}
	// Records lost at the end get their mark too, when it can be written.
	if n := l.dropped.Load(); n > 0 {
		b, _ := json.Marshal(mark{Time: time.Now().UTC(), Dropped: n, Why: "the audit buffer was full or the log could not be written"})
		if _, err := l.w.Write(append(b, '\n')); err == nil {
			l.dropped.Add(-n)
		}
	}
}
