package process

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// readChunk is the largest size of one read from a child's pipe;
// firstReadChunk the first. A stream's read buffer starts small (most
// commands print little, and every call's buffers are garbage afterwards)
// and doubles each time a read fills it, up to readChunk.
const (
	readChunk      = 32 << 10
	firstReadChunk = 2 << 10
)

// maxLine bounds the partial line held back for Options.OnLine; a longer line is
// handed over in pieces of at most this many bytes.
const maxLine = 64 << 10

// capture collects one output stream of a child process within a byte budget.
// While the stream fits in max bytes it is kept whole; past that, capture keeps
// the first max/2 bytes (the head) and the last max-max/2 bytes (the tail, in a
// ring buffer) and counts what falls in between. Memory stays at max bytes plus
// one partial line for OnLine, whatever the child prints.
type capture struct {
	name    string // "stdout" or "stderr", for the marker and OnLine
	limited bool   // false: keep everything
	headMax int
	tailMax int

	all   strings.Builder // without a limit: everything, handed over uncopied
	head  []byte
	ring  []byte // the tail; a ring once len(ring) == tailMax
	pos   int    // next write position in ring once it is full
	total int64  // bytes seen

	onLine func(stream, line string)
	lineMu *sync.Mutex // shared by the streams of one run: OnLine calls never overlap
	line   []byte      // the partial line not yet handed to onLine

	unread bool // reading stopped while a writer still held the pipe open
}

// newCapture returns a capture for the stream name keeping at most max bytes
// (max < 0: no limit). onLine may be nil; mu serializes its calls.
func newCapture(name string, max int, onLine func(stream, line string), mu *sync.Mutex) *capture {
	c := &capture{name: name, limited: max >= 0, onLine: onLine, lineMu: mu}
	if c.limited {
		c.headMax = max / 2
		c.tailMax = max - c.headMax
	}
	return c
}

// Write records p. It never fails.
func (c *capture) Write(p []byte) (int, error) {
	n := len(p)
	c.total += int64(n)
	if c.onLine != nil {
		c.lines(p)
	}
	if !c.limited {
		c.all.Write(p)
		return n, nil
	}
	if room := c.headMax - len(c.head); room > 0 {
		k := min(room, len(p))
		if len(c.head)+k > cap(c.head) {
			// Double, but never past headMax: the head's final size is known.
			grown := make([]byte, len(c.head), min(c.headMax, max(2*cap(c.head), len(c.head)+k, 512)))
			copy(grown, c.head)
			c.head = grown
		}
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 || c.tailMax == 0 {
		return n, nil
	}
	if c.ring == nil {
		c.ring = make([]byte, 0, c.tailMax)
	}
	if room := c.tailMax - len(c.ring); room > 0 {
		k := min(room, len(p))
		c.ring = append(c.ring, p[:k]...)
		p = p[k:]
	}
	if len(p) >= c.tailMax {
		// p alone fills the tail: keep its end.
		copy(c.ring, p[len(p)-c.tailMax:])
		c.pos = 0
		return n, nil
	}
	for len(p) > 0 {
		k := copy(c.ring[c.pos:], p)
		p = p[k:]
		c.pos = (c.pos + k) % c.tailMax
	}
	return n, nil
}

// tail returns the tail bytes in stream order, as two parts.
func (c *capture) tail() (first, second []byte) {
	if len(c.ring) < c.tailMax || c.pos == 0 {
		return c.ring, nil
	}
	return c.ring[c.pos:], c.ring[:c.pos]
}

// result returns the kept output and the number of bytes left out. When bytes
// were left out, the head is cut back and the tail cut forward to whole UTF-8
// sequences (the cut bytes count as left out), and a marker stating the count
// stands between them.
//
// When reading stopped early (unread), a last line says so.
func (c *capture) result() (string, int64) {
	s, omitted := c.kept()
	if c.unread {
		if s != "" && !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		s += fmt.Sprintf("[... cobramcp: stopped reading %s: a process that left the command's process group still holds it open; what it writes from now on is not included ...]\n", c.name)
	}
	return s, omitted
}

// kept returns the kept output, with the marker of the bytes left out if
// any, and their number.
func (c *capture) kept() (string, int64) {
	if !c.limited {
		return c.all.String(), 0
	}
	head := c.head
	t1, t2 := c.tail()
	var b strings.Builder
	if int64(len(head)+len(t1)+len(t2)) == c.total {
		b.Grow(len(head) + len(t1) + len(t2))
		b.Write(head)
		b.Write(t1)
		b.Write(t2)
		return b.String(), 0
	}
	head = trimPartialEnd(head)
	// A cut sequence's continuation bytes may straddle the ring's seam.
	if len(t1) < utf8.UTFMax && len(t2) > 0 {
		joined := append(append(make([]byte, 0, utf8.UTFMax*2), t1...), t2[:min(len(t2), utf8.UTFMax)]...)
		skip := len(joined) - len(trimPartialStart(joined))
		if skip >= len(t1) {
			t1, t2 = nil, t2[skip-len(t1):]
		} else {
			t1 = t1[skip:]
		}
	} else {
		t1 = trimPartialStart(t1)
	}
	omitted := c.total - int64(len(head)) - int64(len(t1)) - int64(len(t2))
	marker := fmt.Sprintf("\n[... cobramcp: %d bytes of %s left out ...]\n", omitted, c.name)
	b.Grow(len(head) + len(marker) + len(t1) + len(t2))
	b.Write(head)
	b.WriteString(marker)
	b.Write(t1)
	b.Write(t2)
	return b.String(), omitted
}

// trimPartialEnd drops an incomplete UTF-8 sequence at the end of p.
func trimPartialEnd(p []byte) []byte {
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:]) {
				return p[:i]
			}
			return p
		}
	}
	return p
}

// trimPartialStart drops the continuation bytes of a UTF-8 sequence whose
// start was cut off the front of p.
func trimPartialStart(p []byte) []byte {
	i := 0
	for i < len(p) && i < utf8.UTFMax-1 && !utf8.RuneStart(p[i]) {
		i++
	}
	return p[i:]
}

// lines hands each line of p, completed by what came before, to onLine. Both
// '\n' and '\r' end a line, so a progress bar redrawn with '\r' is seen as it
// moves; empty lines are skipped; a line longer than maxLine goes in pieces.
func (c *capture) lines(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexAny(p, "\r\n")
		if i < 0 {
			c.line = append(c.line, p...)
			c.line = c.emitPieces(c.line, false)
			return
		}
		if len(c.line) > 0 {
			c.line = append(c.line, p[:i]...)
			c.line = c.emitPieces(c.line, true)
		} else {
			c.emitPieces(p[:i], true)
		}
		p = p[i+1:]
	}
}

// emitPieces hands line to onLine in pieces of at most maxLine bytes, cut at
// UTF-8 sequence boundaries. Unless all is set, it keeps back a last piece
// that still fits, moved to the front of line, and returns it.
func (c *capture) emitPieces(line []byte, all bool) []byte {
	rest := line
	for len(rest) > maxLine {
		cut := len(trimPartialEnd(rest[:maxLine]))
		if cut == 0 {
			cut = maxLine
		}
		c.emit(rest[:cut])
		rest = rest[cut:]
	}
	if all {
		c.emit(rest)
		return line[:0]
	}
	if len(rest) == len(line) {
		return line
	}
	n := copy(line, rest)
	return line[:n]
}

// flush hands the last partial line, if any, to onLine.
func (c *capture) flush() {
	if c.onLine != nil && len(c.line) > 0 {
		c.emit(c.line)
		c.line = c.line[:0]
	}
}

func (c *capture) emit(line []byte) {
	if len(line) == 0 {
		return
	}
	c.lineMu.Lock()
	defer c.lineMu.Unlock()
	c.onLine(c.name, string(line))
}

// drainMax bounds what readFrom takes from a pipe once stopReading was
// called, so that a writer that never stops cannot hold Run: the largest
// pipe buffer Linux gives by default (fs.pipe-max-size), so a full pipe is
// read whole.
const drainMax = 1 << 20

// readFrom reads f into c until EOF or until stopReading makes reads fail,
// then closes f. After stopReading it still takes what is waiting in the
// pipe (a reader held up by OnLine or by a busy machine loses nothing), and
// sets c.unread when a writer is left that may write more.
func (c *capture) readFrom(f *os.File) {
	defer f.Close()
	buf := make([]byte, firstReadChunk)
	for {
		n, err := f.Read(buf)
		if n > 0 {
			c.Write(buf[:n])
			if n == len(buf) && len(buf) < readChunk {
				buf = make([]byte, 2*len(buf))
			}
		}
		if err == nil {
			continue
		}
		switch {
		case errors.Is(err, io.EOF):
			// Every writer closed the pipe: all was read.
		case errors.Is(err, os.ErrDeadlineExceeded):
			// stopReading, after the process group ended.
			c.unread = !drain(f, buf, drainMax, func(p []byte) { c.Write(p) })
		case errors.Is(err, os.ErrClosed):
			// stopReading, where pipes have no deadlines.
			c.unread = true
		default:
			c.Write(fmt.Appendf(nil, "\n[... cobramcp: reading %s: %v ...]\n", c.name, err))
		}
		break
	}
	c.flush()
}

// stopReading makes a blocked readFrom on f return: a read deadline in the
// past where the pipe supports it, else closing f under the reader.
func stopReading(f *os.File) {
	if err := f.SetReadDeadline(time.Now()); err != nil {
		f.Close()
	}
}
