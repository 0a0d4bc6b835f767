package clientcfg

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"
)

// The TOML editor works on lines: a server is the table [KEY.NAME] (and
// any sub-table [KEY.NAME.x]), a run of lines from its header to the next
// header. Adding appends a new table at the end; replacing rewrites the
// table's lines in place; removing cuts them out. Every other line stays
// byte for byte. go-toml/v2 keeps no comments when it writes, so it is
// used only to read: to reject a file that does not parse, and to check
// that the edited file means the original plus exactly the change.

type tomlLine struct {
	start, end int      // byte range, the newline included
	header     []string // the keys of a [table] or [[array]] header, nil otherwise
	blank      bool     // empty or only a comment
	cont       bool     // starts inside a multi-line string or array
}

func parseTOML(src []byte) (map[string]any, error) {
	m := map[string]any{}
	if err := toml.Unmarshal(src, &m); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return nil, fmt.Errorf("not valid TOML: line %d, column %d: %s", row, col, de.Error())
		}
		if line := tomlErrorLine(src, err); line > 0 {
			return nil, fmt.Errorf("not valid TOML: line %d: %w", line, err)
		}
		return nil, fmt.Errorf("not valid TOML: %w", err)
	}
	return m, nil
}

// tomlErrorLine finds the line of an error go-toml reports without a
// position (a table or key defined twice, "toml: table a already
// exists"): the first line at which the file's beginning fails with the
// same message. go-toml decodes as it parses, so every longer beginning
// fails the same way, and a binary search finds it. 0 when none does.
func tomlErrorLine(src []byte, err error) int {
	var ends []int // the end of each line, its newline included
	for i, c := range src {
		if c == '\n' {
			ends = append(ends, i+1)
		}
	}
	if len(ends) == 0 || ends[len(ends)-1] != len(src) {
		ends = append(ends, len(src)) // a last line without a newline
	}
	fails := func(n int) bool {
		m := map[string]any{}
		e := toml.Unmarshal(src[:ends[n]], &m)
		return e != nil && e.Error() == err.Error()
	}
	n := sort.Search(len(ends), fails)
	if n == len(ends) {
		return 0
	}
	return n + 1
}

// scanTOML splits src into lines and finds the table headers, skipping
// lines inside multi-line strings and multi-line arrays.
func scanTOML(src []byte) []tomlLine {
	var lines []tomlLine
	var (
		inML  string // the closing delimiter of an open multi-line string
		depth int    // open [ and { of a value
	)
	for start := 0; start < len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start + 1
		}
		text := string(src[start:end])
		l := tomlLine{start: start, end: end, cont: inML != "" || depth > 0}
		if inML == "" && depth == 0 {
			trim := strings.TrimSpace(text)
			l.blank = trim == "" || strings.HasPrefix(trim, "#")
			if strings.HasPrefix(trim, "[") {
				l.header = parseHeader(trim)
			}
		}
		if l.header == nil {
			inML, depth = scanLine(text, inML, depth)
		}
		lines = append(lines, l)
		start = end
	}
	return lines
}

// scanLine reads one line from state (inML: "" or the delimiter of an
// open multi-line string; depth: open brackets and braces of a value) and
// returns the state at its end.
func scanLine(s, inML string, depth int) (string, int) {
	i := 0
	if inML != "" {
		j := closeML(s, 0, inML)
		if j < 0 {
			return inML, depth
		}
		i = j
	}
	for i < len(s) {
		switch {
		case s[i] == '#':
			return "", depth
		case strings.HasPrefix(s[i:], `"""`) || strings.HasPrefix(s[i:], `'''`):
			d := s[i : i+3]
			j := closeML(s, i+3, d)
			if j < 0 {
				return d, depth
			}
			i = j
		case s[i] == '"' || s[i] == '\'':
			i = skipQuoted(s, i)
		case s[i] == '[' || s[i] == '{':
			depth++
			i++
		case s[i] == ']' || s[i] == '}':
			depth = max(depth-1, 0)
			i++
		default:
			i++
		}
	}
	return "", depth
}

// closeML returns the index after the delimiter d closing a multi-line
// string that continues at s[i:], or -1.
func closeML(s string, i int, d string) int {
	for i < len(s) {
		if d == `"""` && s[i] == '\\' {
			i += 2
			continue
		}
		if strings.HasPrefix(s[i:], d) {
			j := i + 3
			for k := 0; k < 2 && j < len(s) && s[j] == d[0]; k++ {
				j++ // up to two quotes may end the content
			}
			return j
		}
		i++
	}
	return -1
}

var bareKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+`) })

// parseHeader returns the keys of a [a.b."c"] or [[a.b]] header line, or
// nil when the line is not one.
func parseHeader(line string) []string {
	s := strings.TrimPrefix(line, "[")
	array := strings.HasPrefix(s, "[")
	if array {
		s = s[1:]
	}
	keys, s := parseKeys(s)
	if keys == nil {
		return nil
	}
	closing := "]"
	if array {
		closing = "]]"
	}
	if !strings.HasPrefix(s, closing) {
		return nil
	}
	if rest := strings.TrimSpace(s[len(closing):]); rest != "" && !strings.HasPrefix(rest, "#") {
		return nil
	}
	return keys
}

// parseKeys reads the dotted key a."b".'c' at the start of s: its parts,
// and what follows it with the blanks after it skipped. The parts are nil
// when s does not start with a key.
func parseKeys(s string) ([]string, string) {
	var keys []string
	for {
		s = strings.TrimLeft(s, " \t")
		var k string
		switch {
		case strings.HasPrefix(s, `"`):
			end := 1
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(s) {
				return nil, s
			}
			var m map[string]string
			if toml.Unmarshal([]byte("k = "+s[:end+1]), &m) != nil {
				return nil, s
			}
			k, s = m["k"], s[end+1:]
		case strings.HasPrefix(s, `'`):
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return nil, s
			}
			k, s = s[1:end+1], s[end+2:]
		default:
			k = bareKey().FindString(s)
			if k == "" {
				return nil, s
			}
			s = s[len(k):]
		}
		keys = append(keys, k)
		s = strings.TrimLeft(s, " \t")
		if !strings.HasPrefix(s, ".") {
			return keys, s
		}
		s = s[1:]
	}
}

// tomlKey writes k bare when it can be, quoted otherwise.
func tomlKey(k string) string {
	if k != "" && bareKey().FindString(k) == k {
		return k
	}
	return tomlString(k)
}

// tomlString writes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlBlock is the table written for s, in the form of the Codex docs:
// command, args, and env as an inline table.
func tomlBlock(key []string, name string, s Server, nl string) string {
	var hdr []string
	for _, k := range append(slices.Clone(key), name) {
		hdr = append(hdr, tomlKey(k))
	}
	var b strings.Builder
	b.WriteString("[" + strings.Join(hdr, ".") + "]" + nl)
	if s.Type != "" {
		b.WriteString("type = " + tomlString(s.Type) + nl)
	}
	b.WriteString("command = " + tomlString(s.Command) + nl)
	args := make([]string, len(s.Args))
	for i, a := range s.Args {
		args[i] = tomlString(a)
	}
	b.WriteString("args = [" + strings.Join(args, ", ") + "]" + nl)
	if len(s.Env) > 0 {
		keys := make([]string, 0, len(s.Env))
		for k := range s.Env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var kv []string
		for _, k := range keys {
			kv = append(kv, tomlKey(k)+" = "+tomlString(s.Env[k]))
		}
		b.WriteString("env = { " + strings.Join(kv, ", ") + " }" + nl)
	}
	return b.String()
}

// tomlBlocks returns the line ranges [from, to) of the tables of server
// name: each header with its lines, less the blank and comment lines
// before the next header (they belong to it).
func tomlBlocks(lines []tomlLine, key []string, name string) [][2]int {
	prefix := append(slices.Clone(key), name)
	var blocks [][2]int
	for i, l := range lines {
		if l.header == nil || len(l.header) < len(prefix) || !slices.Equal(l.header[:len(prefix)], prefix) {
			continue
		}
		j := i + 1
		for j < len(lines) && lines[j].header == nil {
			j++
		}
		for j > i+1 && lines[j-1].blank {
			j--
		}
		blocks = append(blocks, [2]int{i, j})
	}
	return blocks
}

func newline(src []byte) string {
	if bytes.Contains(src, []byte("\r\n")) {
		return "\r\n"
	}
	return "\n"
}

// tomlEdit replaces the tables of name with block ("" removes them; a
// server with no table gets block appended at the end).
func tomlEdit(src []byte, key []string, name, block string) ([]byte, bool, error) {
	doc, err := parseTOML(src)
	if err != nil {
		return nil, false, err
	}
	lines := scanTOML(src)
	blocks := tomlBlocks(lines, key, name)
	if len(blocks) == 0 && lookup(doc, key, name) != nil {
		return nil, false, fmt.Errorf("server %q is written as an inline table or dotted keys, not as a [%s] table; edit it by hand",
			name, strings.Join(append(slices.Clone(key), name), "."))
	}
	nl := newline(src)
	var out []byte
	if len(blocks) == 0 {
		if block == "" {
			return src, false, nil
		}
		if err := tomlAppendable(doc, key); err != nil {
			return nil, false, err
		}
		out = slices.Clone(src)
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, nl...)
		}
		if len(lines) > 0 {
			out = append(out, nl...) // one blank line, which Remove takes away again
		}
		out = append(out, block...)
		if _, err := parseTOML(out); err != nil {
			// The one way a parsed file refuses a new table at its end.
			return nil, false, fmt.Errorf("%q is written as an inline table, which a [%s] table cannot extend; edit the file by hand",
				strings.Join(key, "."), strings.Join(append(slices.Clone(key), name), "."))
		}
	} else {
		keep := make([]bool, len(lines))
		for i := range keep {
			keep[i] = true
		}
		for _, b := range blocks {
			for i := b[0]; i < b[1]; i++ {
				keep[i] = false
			}
			// Drop the blank line that separated the table from what came
			// before, when what follows is a blank line or the end.
			if block == "" || b != blocks[0] {
				if b[0] > 0 && isSpace(src[lines[b[0]-1].start:lines[b[0]-1].end]) && keep[b[0]-1] &&
					(b[1] == len(lines) || isSpace(src[lines[b[1]].start:lines[b[1]].end])) {
					keep[b[0]-1] = false
				}
				// A table that opened the file leaves no blank first line.
				if b[0] == 0 && b[1] < len(lines) && isSpace(src[lines[b[1]].start:lines[b[1]].end]) {
					keep[b[1]] = false
				}
			}
		}
		if block != "" {
			// The server's own header line stays as it was, with its
			// comment and spacing.
			if h := lines[blocks[0][0]]; len(h.header) == len(key)+1 {
				_, body, _ := strings.Cut(block, nl)
				hdr := strings.TrimRight(string(src[h.start:h.end]), "\r\n")
				block = hdr + nl + body
			}
		}
		for i, l := range lines {
			if block != "" && i == blocks[0][0] {
				out = append(out, block...)
			}
			if keep[i] {
				out = append(out, src[l.start:l.end]...)
			}
		}
		if block != "" && blocks[0][1] == len(lines) && len(src) > 0 && src[len(src)-1] != '\n' {
			out = bytes.TrimSuffix(out, []byte(nl)) // the file had no final newline
		}
	}
	var entry map[string]any
	if block != "" {
		b, err := parseTOML([]byte(block))
		if err != nil {
			return nil, false, fmt.Errorf("internal error: the new table does not parse: %w", err)
		}
		entry, _ = lookup(b, key, name).(map[string]any)
	}
	return out, len(blocks) > 0, checkTOML(doc, out, key, name, entry)
}

// tomlAppendable reports an error when a table for a new server cannot
// go under key: a value along key is not a table (an array of tables, a
// string).
func tomlAppendable(doc map[string]any, key []string) error {
	obj := doc
	for i, k := range key {
		v, ok := obj[k]
		if !ok {
			return nil
		}
		next, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%q is not a table; edit the file by hand", strings.Join(key[:i+1], "."))
		}
		obj = next
	}
	return nil
}

// tomlSet adds the server's table, or updates the one that is there in
// place (tomlMerge).
func tomlSet(src []byte, key []string, name string, s Server) ([]byte, bool, updated, error) {
	doc, err := parseTOML(src)
	if err != nil {
		return nil, false, updated{}, err
	}
	lines := scanTOML(src)
	if old, ok := lookup(doc, key, name).(map[string]any); ok && len(tomlBlocks(lines, key, name)) > 0 {
		if remoteEntry(old) {
			return nil, false, updated{}, remoteError(name)
		}
		out, u, err := tomlMerge(src, lines, key, name, s, old)
		if err != nil {
			return nil, false, updated{}, err
		}
		return out, true, u, checkTOML(doc, out, key, name, mergedEntry(TOML, old, s))
	}
	out, found, err := tomlEdit(src, key, name, tomlBlock(key, name, s, newline(src)))
	return out, found, updated{}, err
}

func tomlRemove(src []byte, key []string, name string) ([]byte, bool, error) {
	return tomlEdit(src, key, name, "")
}

func lookup(doc map[string]any, key []string, name string) any {
	obj := doc
	for _, k := range key {
		next, ok := obj[k].(map[string]any)
		if !ok {
			return nil
		}
		obj = next
	}
	return obj[name]
}

// checkTOML verifies that out parses and means doc with only the server
// name set to entry (removed when entry is nil).
func checkTOML(doc map[string]any, out []byte, key []string, name string, entry map[string]any) error {
	got, err := parseTOML(out)
	if err != nil {
		return fmt.Errorf("internal error: the edited file does not parse (%v); nothing was written", err)
	}
	var e any
	if entry != nil {
		e = entry
	}
	applyEdit(doc, key, name, e)
	dropEmpty(got, key)
	if !reflect.DeepEqual(doc, got) {
		return errors.New("the edit would change more than the server's table (is the table defined in pieces?); nothing was written")
	}
	return nil
}

func tomlList(src []byte, key []string) ([]Entry, error) {
	doc, err := parseTOML(src)
	if err != nil {
		return nil, err
	}
	obj := doc
	for _, k := range key {
		next, ok := obj[k].(map[string]any)
		if !ok {
			return nil, nil
		}
		obj = next
	}
	// File order for the servers written as tables, then the others.
	var names []string
	seen := map[string]bool{}
	for _, l := range scanTOML(src) {
		if len(l.header) > len(key) && slices.Equal(l.header[:len(key)], key) {
			if n := l.header[len(key)]; !seen[n] {
				if _, ok := obj[n]; ok {
					seen[n] = true
					names = append(names, n)
				}
			}
		}
	}
	var rest []string
	for n := range obj {
		if !seen[n] {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	var entries []Entry
	for _, n := range append(names, rest...) {
		b, err := json.Marshal(obj[n])
		if err != nil {
			return nil, fmt.Errorf("server %q: %w", n, err)
		}
		e := Entry{Name: n}
		if err := decodeServer(b, &e.Server); err != nil {
			return nil, fmt.Errorf("server %q: %w", n, err)
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// skipQuoted returns the index just past the one-line TOML string that
// starts at s[i] (a basic "..." string with backslash escapes, or a literal
// '...' string), or len(s)+1 when it is not closed on the line.
func skipQuoted(s string, i int) int {
	q := s[i]
	i++
	for i < len(s) && s[i] != q {
		if q == '"' && s[i] == '\\' {
			i++
		}
		i++
	}
	return i + 1
}
