package clientcfg

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// tomlStmt is one key = value of a table: lines [first, end), the value
// possibly running over several lines.
type tomlStmt struct {
	first, end int
	keys       []string
}

// tomlStatements returns the key = value statements of lines [from, to).
func tomlStatements(src []byte, lines []tomlLine, from, to int) []tomlStmt {
	var out []tomlStmt
	for i := from; i < to; i++ {
		l := lines[i]
		if l.header != nil || l.blank || l.cont {
			continue
		}
		j := i + 1
		for j < to && lines[j].cont {
			j++
		}
		keys, rest := parseKeys(strings.TrimLeft(string(src[l.start:l.end]), " \t"))
		if keys != nil && strings.HasPrefix(rest, "=") {
			out = append(out, tomlStmt{first: i, end: j, keys: keys})
		}
		i = j - 1
	}
	return out
}

func findStmt(stmts []tomlStmt, keys ...string) (tomlStmt, bool) {
	for i := len(stmts) - 1; i >= 0; i-- {
		if slices.Equal(stmts[i].keys, keys) {
			return stmts[i], true
		}
	}
	return tomlStmt{}, false
}

// splitComment splits the text of a value (which may run over several
// lines) into the value and the comment after it on its last line, the
// blanks before the comment included.
func splitComment(s string) (string, string) {
	depth := 0
	for i := 0; i < len(s); {
		switch {
		case s[i] == '#':
			if depth == 0 {
				j := i
				for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
					j--
				}
				return s[:j], s[j:]
			}
			k := strings.IndexByte(s[i:], '\n')
			if k < 0 {
				return s, ""
			}
			i += k
		case strings.HasPrefix(s[i:], `"""`) || strings.HasPrefix(s[i:], `'''`):
			j := closeML(s, i+3, s[i:i+3])
			if j < 0 {
				return s, ""
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
	return s, ""
}

// tomlLineEdits collects changes to src's lines: statements whose value
// is replaced and lines inserted after a line.
type tomlLineEdits struct {
	src     []byte
	lines   []tomlLine
	nl      string
	replace map[int]string // first line of a statement -> its new text
	skip    map[int]bool   // the other lines of a replaced statement
	insert  map[int][]string
}

// setValue gives statement st the value val, keeping its key as written,
// the spacing around "=" and the comment after the value.
func (e *tomlLineEdits) setValue(st tomlStmt, val string) {
	text := string(e.src[e.lines[st.first].start:e.lines[st.end-1].end])
	body := strings.TrimRight(text, "\r\n")
	eol := text[len(body):]
	_, rest := parseKeys(strings.TrimLeft(body, " \t"))
	after := strings.TrimPrefix(rest, "=")
	v := strings.TrimLeft(after, " \t")
	prefix := body[:len(body)-len(v)]
	_, comment := splitComment(v)
	e.replace[st.first] = prefix + val + comment + eol
	for i := st.first + 1; i < st.end; i++ {
		e.skip[i] = true
	}
}

// indentOf is the leading blanks of statement st.
func (e *tomlLineEdits) indentOf(st tomlStmt) string {
	l := string(e.src[e.lines[st.first].start:e.lines[st.first].end])
	return l[:len(l)-len(strings.TrimLeft(l, " \t"))]
}

// add inserts line (without its newline) after line i.
func (e *tomlLineEdits) add(i int, line string) {
	e.insert[i] = append(e.insert[i], line)
}

func (e *tomlLineEdits) apply() []byte {
	var out []byte
	for i, l := range e.lines {
		if r, ok := e.replace[i]; ok {
			out = append(out, r...)
		} else if !e.skip[i] {
			out = append(out, e.src[l.start:l.end]...)
		}
		for _, ins := range e.insert[i] {
			if len(out) > 0 && out[len(out)-1] != '\n' {
				// The file had no final newline: it still has none.
				out = append(out, e.nl+ins...)
				continue
			}
			out = append(out, ins+e.nl...)
		}
	}
	return out
}

func tomlArray(a []string) string {
	q := make([]string, len(a))
	for i, x := range a {
		q[i] = tomlString(x)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func tomlInline(env map[string]string) string {
	var kv []string
	for _, k := range slices.Sorted(maps.Keys(env)) {
		kv = append(kv, tomlKey(k)+" = "+tomlString(env[k]))
	}
	return "{ " + strings.Join(kv, ", ") + " }"
}

// mergeInline returns the inline table value (the text after "env =")
// with the variables of env set: the others stay, in their order, as
// written; new ones go at the end.
func mergeInline(value string, env map[string]string) (string, error) {
	var p unstable.Parser
	p.Reset([]byte("env = " + value))
	if !p.NextExpression() {
		return "", fmt.Errorf("env does not parse: %v", p.Error())
	}
	v := p.Expression().Value()
	if v.Kind != unstable.InlineTable {
		return "", fmt.Errorf("env is a %s, not a table", v.Kind)
	}
	var kv []string
	seen := map[string]bool{}
	it := v.Children()
	for it.Next() {
		n := it.Node()
		if n.Kind != unstable.KeyValue {
			return "", fmt.Errorf("env holds comments")
		}
		ki := n.Key()
		var parts []string
		var raw []string
		for ki.Next() {
			parts = append(parts, string(ki.Node().Data))
			raw = append(raw, string(p.Raw(ki.Node().Raw)))
		}
		if len(parts) != 1 {
			return "", fmt.Errorf("env has dotted keys")
		}
		k := parts[0]
		seen[k] = true
		if x, ok := env[k]; ok {
			kv = append(kv, raw[0]+" = "+tomlString(x))
			continue
		}
		val := n.Value()
		if val.Kind == unstable.Array || val.Kind == unstable.InlineTable {
			return "", fmt.Errorf("env.%s is not a string", k)
		}
		kv = append(kv, raw[0]+" = "+string(p.Raw(val.Raw)))
	}
	for _, k := range slices.Sorted(maps.Keys(env)) {
		if !seen[k] {
			kv = append(kv, tomlKey(k)+" = "+tomlString(env[k]))
		}
	}
	return "{ " + strings.Join(kv, ", ") + " }", nil
}

// tomlMerge updates the server's [KEY.NAME] table in place: the
// statements Set writes get their new values, those missing are added at
// the end of the table, a member that switches old off is switched on, and
// every other line stays. It returns the new file and what it did.
func tomlMerge(src []byte, lines []tomlLine, key []string, name string, s Server, old map[string]any) ([]byte, updated, error) {
	prefix := append(slices.Clone(key), name)
	envPrefix := append(slices.Clone(prefix), "env")
	blocks := tomlBlocks(lines, key, name)
	main, sub := -1, -1
	var order []string
	for _, b := range blocks {
		h := lines[b[0]].header
		switch {
		case slices.Equal(h, prefix) && main < 0:
			main = b[0]
		case slices.Equal(h, envPrefix) && sub < 0:
			sub = b[0]
		}
	}
	if main < 0 {
		return nil, updated{}, fmt.Errorf("server %q has no [%s] table of its own; edit it by hand", name, strings.Join(prefix, "."))
	}
	end := func(first int) int {
		for _, b := range blocks {
			if b[0] == first {
				return b[1]
			}
		}
		return first + 1
	}
	e := &tomlLineEdits{src: src, lines: lines, nl: newline(src),
		replace: map[int]string{}, skip: map[int]bool{}, insert: map[int][]string{}}
	stmts := tomlStatements(src, lines, main+1, end(main))
	for _, st := range stmts {
		order = append(order, st.keys[0])
	}
	for _, b := range blocks {
		if h := lines[b[0]].header; len(h) > len(prefix) {
			order = append(order, h[len(prefix)])
		}
	}
	last, indent := main, ""
	if n := len(stmts); n > 0 {
		last, indent = stmts[n-1].end-1, e.indentOf(stmts[n-1])
	}
	set := func(k, val string) {
		if st, ok := findStmt(stmts, k); ok {
			e.setValue(st, val)
			return
		}
		e.add(last, indent+tomlKey(k)+" = "+val)
	}
	if s.Type != "" {
		set("type", tomlString(s.Type))
	}
	set("command", tomlString(s.Command))
	set("args", tomlArray(s.Args))
	if sw, off := switchedOff(TOML, old); off {
		set(sw.name, strconv.FormatBool(sw.on))
	}
	if len(s.Env) > 0 {
		var dotted []tomlStmt
		for _, st := range stmts {
			if len(st.keys) == 2 && st.keys[0] == "env" {
				dotted = append(dotted, st)
			}
		}
		switch st, inline := findStmt(stmts, "env"); {
		case inline:
			text := string(src[lines[st.first].start:lines[st.end-1].end])
			_, rest := parseKeys(strings.TrimLeft(text, " \t"))
			v, _ := splitComment(strings.TrimSpace(strings.TrimPrefix(rest, "=")))
			merged, err := mergeInline(strings.TrimSpace(v), s.Env)
			if err != nil {
				return nil, updated{}, fmt.Errorf("server %q: %w; edit it by hand", name, err)
			}
			e.setValue(st, merged)
		case sub >= 0:
			es := tomlStatements(src, lines, sub+1, end(sub))
			at, ind := sub, ""
			if n := len(es); n > 0 {
				at, ind = es[n-1].end-1, e.indentOf(es[n-1])
			}
			for _, k := range slices.Sorted(maps.Keys(s.Env)) {
				if st, ok := findStmt(es, k); ok {
					e.setValue(st, tomlString(s.Env[k]))
				} else {
					e.add(at, ind+tomlKey(k)+" = "+tomlString(s.Env[k]))
				}
			}
		case len(dotted) > 0:
			at := dotted[len(dotted)-1]
			ind := e.indentOf(at)
			for _, k := range slices.Sorted(maps.Keys(s.Env)) {
				if st, ok := findStmt(dotted, "env", k); ok {
					e.setValue(st, tomlString(s.Env[k]))
				} else {
					e.add(at.end-1, ind+"env."+tomlKey(k)+" = "+tomlString(s.Env[k]))
				}
			}
		default:
			e.add(last, indent+"env = "+tomlInline(s.Env))
		}
	}
	return e.apply(), updatedEntry(TOML, order, old, s), nil
}
