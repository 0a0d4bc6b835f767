package process

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// pattern returns n bytes of a-z, repeating, so any slice of it can be
// recomputed from its offset.
func pattern(n int) []byte {
	p := make([]byte, n)
	for i := range p {
		p[i] = 'a' + byte(i%26)
	}
	return p
}

// feed writes in into c in chunks of size chunk (0: all at once).
func feed(c *capture, in []byte, chunk int) {
	if chunk <= 0 {
		c.Write(in)
		return
	}
	for len(in) > 0 {
		k := min(chunk, len(in))
		c.Write(in[:k])
		in = in[k:]
	}
}

func TestCaptureCap(t *testing.T) {
	tests := []struct {
		name  string
		max   int
		n     int // bytes of pattern written
		chunk int
	}{
		{"empty", 10, 0, 0},
		{"under cap", 10, 5, 0},
		{"exactly cap", 10, 10, 1},
		{"one over cap", 10, 11, 0},
		{"one over cap bytewise", 10, 11, 1},
		{"odd cap", 11, 100, 3},
		{"cap of one", 1, 100, 7},
		{"tail wraps many times", 64, 10000, 5},
		{"chunk larger than tail", 64, 10000, 1000},
		{"chunk equal to tail", 64, 10000, 32},
		{"no cap", -1, 10000, 333},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := pattern(tt.n)
			c := newCapture("stdout", tt.max, nil, nil)
			feed(c, in, tt.chunk)
			got, omitted := c.result()

			if tt.max < 0 || tt.n <= tt.max {
				if got != string(in) || omitted != 0 {
					t.Fatalf("result() = %q, %d; want the input whole, 0", got, omitted)
				}
				return
			}
			head, tail := tt.max/2, tt.max-tt.max/2
			wantOmitted := int64(tt.n - tt.max)
			want := string(in[:head]) +
				fmt.Sprintf("\n[... cobramcp: %d bytes of stdout left out ...]\n", wantOmitted) +
				string(in[tt.n-tail:])
			if got != want || omitted != wantOmitted {
				t.Fatalf("result() = %q, %d; want %q, %d", got, omitted, want, wantOmitted)
			}
		})
	}
}

func TestCaptureUTF8Cuts(t *testing.T) {
	tests := []struct {
		name  string
		r     string // the rune repeated
		count int
		max   int
	}{
		{"2-byte runes, cut mid-rune", "é", 1000, 11},
		{"3-byte runes, cut mid-rune", "€", 1000, 100},
		{"3-byte runes, head on boundary", "€", 1000, 12},
		{"4-byte runes", "😀", 1000, 101},
		{"4-byte runes, cap smaller than a rune", "😀", 1000, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := strings.Repeat(tt.r, tt.count)
			for _, chunk := range []int{0, 1, 5} {
				c := newCapture("stderr", tt.max, nil, nil)
				feed(c, []byte(in), chunk)
				got, omitted := c.result()
				if !utf8.ValidString(got) {
					t.Fatalf("chunk %d: result not valid UTF-8: %q", chunk, got)
				}
				size := len(tt.r)
				headRunes := (tt.max / 2) / size
				tailRunes := (tt.max - tt.max/2) / size
				wantOmitted := int64(len(in) - (headRunes+tailRunes)*size)
				want := strings.Repeat(tt.r, headRunes) +
					fmt.Sprintf("\n[... cobramcp: %d bytes of stderr left out ...]\n", wantOmitted) +
					strings.Repeat(tt.r, tailRunes)
				if got != want || omitted != wantOmitted {
					t.Fatalf("chunk %d: result() = %q, %d; want %q, %d", chunk, got, omitted, want, wantOmitted)
				}
			}
		})
	}
}

func TestTrimPartial(t *testing.T) {
	tests := []struct {
		name       string
		in         string
		end, start string // trimPartialEnd(in), trimPartialStart(in)
	}{
		{"ascii", "abc", "abc", "abc"},
		{"empty", "", "", ""},
		{"whole runes", "a€b", "a€b", "a€b"},
		{"cut 3-byte rune", "a\xe2\x82", "a", "a\xe2\x82"},
		{"cut 4-byte rune after 1", "ab\xf0", "ab", "ab\xf0"},
		{"continuations at start", "\x82\xacz", "\x82\xacz", "z"},
		{"invalid bytes kept beyond a rune's length", "\x80\x80\x80\x80z", "\x80\x80\x80\x80z", "\x80z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(trimPartialEnd([]byte(tt.in))); got != tt.end {
				t.Errorf("trimPartialEnd(%q) = %q, want %q", tt.in, got, tt.end)
			}
			if got := string(trimPartialStart([]byte(tt.in))); got != tt.start {
				t.Errorf("trimPartialStart(%q) = %q, want %q", tt.in, got, tt.start)
			}
		})
	}
}

func TestCaptureLines(t *testing.T) {
	long := strings.Repeat("x", 2*maxLine+10)
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"lines", "one\ntwo\n", []string{"one", "two"}},
		{"last line without end", "one\ntwo", []string{"one", "two"}},
		{"crlf and empty lines", "one\r\n\n\ntwo\r\n", []string{"one", "two"}},
		{"progress with carriage returns", "10%\r20%\r100%\ndone\n", []string{"10%", "20%", "100%", "done"}},
		{"overlong line in pieces", long + "\nz\n", []string{long[:maxLine], long[maxLine : 2*maxLine], long[2*maxLine:], "z"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, chunk := range []int{0, 1, 3, 4096} {
				var got []string
				c := newCapture("stdout", 16, func(stream, line string) {
					if stream != "stdout" {
						t.Errorf("stream = %q, want stdout", stream)
					}
					got = append(got, line)
				}, &sync.Mutex{})
				feed(c, []byte(tt.in), chunk)
				c.flush()
				if !slices.Equal(got, tt.want) {
					t.Fatalf("chunk %d: lines = %q, want %q", chunk, brief(got), brief(tt.want))
				}
			}
		})
	}
}

// brief shortens long lines for failure messages.
func brief(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if len(l) > 40 {
			l = fmt.Sprintf("%s...(%d bytes)", l[:20], len(l))
		}
		out[i] = l
	}
	return out
}

func TestCaptureLinesKeepRunesWhole(t *testing.T) {
	// A line longer than maxLine made of 3-byte runes: no piece may split one.
	long := strings.Repeat("€", maxLine) // 3*maxLine bytes
	var got []string
	c := newCapture("stdout", -1, func(_, line string) { got = append(got, line) }, &sync.Mutex{})
	feed(c, []byte(long), 1000)
	c.flush()
	if len(got) < 3 {
		t.Fatalf("got %d pieces, want at least 3", len(got))
	}
	for i, piece := range got {
		if !utf8.ValidString(piece) || len(piece) > maxLine {
			t.Fatalf("piece %d: %d bytes, valid UTF-8 %v", i, len(piece), utf8.ValidString(piece))
		}
	}
	if strings.Join(got, "") != long {
		t.Fatal("pieces do not join back into the line")
	}
}

// TestCaptureMatchesReference compares capture, fed in chunks of every size,
// with the cap applied to the whole input at once, over mixed-width runes so
// the cuts (and the tail ring's seam) fall at every offset within a rune.
func TestCaptureMatchesReference(t *testing.T) {
	in := []byte(strings.Repeat("a€é😀b", 40))
	for max := 1; max <= 24; max++ {
		for n := 0; n <= len(in); n += 7 {
			want, wantOmitted := referenceCap(in[:n], max)
			for _, chunk := range []int{1, 2, 3, 5, 11, 64} {
				c := newCapture("stdout", max, nil, nil)
				feed(c, in[:n], chunk)
				got, omitted := c.result()
				if got != want || omitted != wantOmitted {
					t.Fatalf("max %d, %d bytes in chunks of %d: result() = %q, %d; want %q, %d",
						max, n, chunk, got, omitted, want, wantOmitted)
				}
			}
		}
	}
}

// referenceCap is the cap as a plain function of the whole input.
func referenceCap(in []byte, max int) (string, int64) {
	if len(in) <= max {
		return string(in), 0
	}
	head := trimPartialEnd(in[:max/2])
	tail := trimPartialStart(in[len(in)-(max-max/2):])
	omitted := int64(len(in) - len(head) - len(tail))
	return string(head) + fmt.Sprintf("\n[... cobramcp: %d bytes of stdout left out ...]\n", omitted) + string(tail), omitted
}
