package clientcfg

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
)

// The JSON editor works on the hujson syntax tree, which holds every byte
// of the file (comments, whitespace, trailing commas). It touches only the
// member it adds, replaces or removes, and the whitespace right around it,
// so that adding a server and removing it again gives back the same bytes.

// jsonStyle is the layout of a file, copied into what is added.
type jsonStyle struct {
	nl     string // "\n" or "\r\n"
	unit   string // one level of indentation
	colon  string // what follows a member's colon
	pretty bool   // false for a file written on one line
}

func parseJSON(src []byte) (hujson.Value, *hujson.Object, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		src = []byte("{}\n")
	}
	v, err := hujson.Parse(src)
	if err != nil {
		return v, nil, fmt.Errorf("not valid JSON: %s", strings.TrimPrefix(err.Error(), "hujson: "))
	}
	root, ok := v.Value.(*hujson.Object)
	if !ok {
		return v, nil, errors.New("the top level is not a JSON object")
	}
	return v, root, nil
}

func detectStyle(src []byte, root *hujson.Object) jsonStyle {
	st := jsonStyle{nl: "\n", unit: "  ", colon: " ", pretty: true}
	if bytes.Contains(src, []byte("\r\n")) {
		st.nl = "\r\n"
	}
	if len(root.Members) == 0 {
		return st
	}
	if unit, ok := findUnit(root, ""); ok {
		st.unit = unit
	}
	return objStyle(root, st)
}

// objStyle is the style of what is added to obj: its own layout when it
// has members (a file whose root starts `{"mcpServers": {` on one line
// can hold objects laid out one member a line), else parent's.
func objStyle(obj *hujson.Object, parent jsonStyle) jsonStyle {
	st := parent
	if len(obj.Members) == 0 {
		return st
	}
	m := obj.Members[0]
	if !bytes.ContainsRune(m.Name.BeforeExtra, '\n') {
		st.pretty = false
		st.colon = ""
		if isSpace(m.Value.BeforeExtra) {
			st.colon = string(m.Value.BeforeExtra)
		}
		return st
	}
	st.pretty = true
	if isSpace(m.Value.BeforeExtra) && !bytes.ContainsRune(m.Value.BeforeExtra, '\n') {
		st.colon = string(m.Value.BeforeExtra)
	}
	return st
}

// findUnit returns one level of indentation: what the first member on a
// line of its own adds to the indentation of the line its object starts
// on (line).
func findUnit(obj *hujson.Object, line string) (string, bool) {
	for _, m := range obj.Members {
		ind, ok := lineIndent(m.Name.BeforeExtra)
		if ok {
			if len(ind) > len(line) && strings.HasPrefix(ind, line) {
				return ind[len(line):], true
			}
		} else {
			ind = line // on its object's line
		}
		if child, ok := m.Value.Value.(*hujson.Object); ok {
			if u, ok := findUnit(child, ind); ok {
				return u, true
			}
		}
	}
	return "", false
}

// lineIndent returns the indentation of the line that extra ends on: the
// blanks after its last newline, up to a /* comment that may start the
// line ("\n  /* note */ " is indented "  "). false when extra holds no
// newline.
func lineIndent(extra []byte) (string, bool) {
	i := bytes.LastIndexByte(extra, '\n')
	if i < 0 {
		return "", false
	}
	rest := extra[i+1:]
	ind := rest[:len(rest)-len(bytes.TrimLeft(rest, " \t"))]
	return string(ind), true
}

func isSpace(b []byte) bool { return len(bytes.Trim(b, " \t\r\n")) == 0 }

// splitSameLine splits the extra after a value into the part that stays
// on the value's line when it holds a comment (" // note") and the rest.
// The first part is empty when the line holds no comment.
func splitSameLine(extra []byte) (same, rest []byte) {
	n := 0
	for n < len(extra) {
		switch {
		case extra[n] == '\n':
			if hasComment(extra[:n]) {
				end := n
				if end > 0 && extra[end-1] == '\r' {
					end--
				}
				return extra[:end], extra[end:]
			}
			return nil, extra
		case bytes.HasPrefix(extra[n:], []byte("//")):
			i := bytes.IndexByte(extra[n:], '\n')
			if i < 0 {
				return nil, extra
			}
			n += i
		case bytes.HasPrefix(extra[n:], []byte("/*")):
			i := bytes.Index(extra[n+2:], []byte("*/"))
			if i < 0 {
				return nil, extra
			}
			n += 2 + i + 2
		default:
			n++
		}
	}
	return nil, extra
}

// endsInLineComment reports whether extra ends inside a // comment, so
// that whatever follows must start on a new line.
func endsInLineComment(extra []byte) bool {
	for n := 0; n < len(extra); {
		switch {
		case bytes.HasPrefix(extra[n:], []byte("//")):
			i := bytes.IndexByte(extra[n:], '\n')
			if i < 0 {
				return true
			}
			n += i + 1
		case bytes.HasPrefix(extra[n:], []byte("/*")):
			i := bytes.Index(extra[n+2:], []byte("*/"))
			if i < 0 {
				return false
			}
			n += 2 + i + 2
		default:
			n++
		}
	}
	return false
}

// afterComment joins a same-line comment and the extra that follows it,
// with a line break between when the comment would otherwise swallow
// what follows.
func afterComment(same, rest []byte, nl string) []byte {
	if endsInLineComment(same) && !bytes.HasPrefix(bytes.TrimLeft(rest, " \t"), []byte("\n")) && !bytes.HasPrefix(bytes.TrimLeft(rest, " \t"), []byte("\r\n")) {
		return cat(same, []byte(nl), rest)
	}
	return cat(same, rest)
}

func hasComment(b []byte) bool {
	return bytes.Contains(b, []byte("//")) || bytes.Contains(b, []byte("/*"))
}

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	if out == nil {
		return []byte{}
	}
	return out
}

// render returns v as a hujson value laid out for a member whose line
// starts with indent.
func render(v any, indent string, st jsonStyle) (hujson.Value, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if st.pretty {
		enc.SetIndent(indent, st.unit)
	}
	if err := enc.Encode(v); err != nil {
		return hujson.Value{}, err
	}
	b := bytes.TrimRight(buf.Bytes(), "\n")
	if !st.pretty && st.colon != "" {
		b = spaceJSON(b)
	}
	if st.nl != "\n" {
		b = bytes.ReplaceAll(b, []byte("\n"), []byte(st.nl))
	}
	val, err := hujson.Parse(b)
	if err != nil {
		return val, err
	}
	val.BeforeExtra = []byte(st.colon)
	return val, nil
}

// spaceJSON puts a space after each comma and colon of compact JSON, as
// in a file written on one line with spaces ({"a": 1, "b": 2}).
func spaceJSON(b []byte) []byte {
	var out []byte
	inStr := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		out = append(out, c)
		switch {
		case inStr && c == '\\' && i+1 < len(b):
			i++
			out = append(out, b[i])
		case c == '"':
			inStr = !inStr
		case !inStr && (c == ',' || c == ':'):
			out = append(out, ' ')
		}
	}
	return out
}

// findMembers returns the indexes of the members named name.
func findMembers(obj *hujson.Object, name string) []int {
	var idx []int
	for i, m := range obj.Members {
		if lit, ok := m.Name.Value.(hujson.Literal); ok && lit.String() == name {
			idx = append(idx, i)
		}
	}
	return idx
}

// memberIndent is the indentation of obj's members: that of its last
// member, else parent's plus one unit.
func memberIndent(obj *hujson.Object, parent string, st jsonStyle) string {
	for i := len(obj.Members) - 1; i >= 0; i-- {
		if ind, ok := lineIndent(obj.Members[i].Name.BeforeExtra); ok {
			return ind
		}
	}
	return parent + st.unit
}

// appendMember adds a member at the end of obj. The comment that followed
// the last member on its line stays on that line; the trailing-comma
// style of the object is kept.
func appendMember(obj *hujson.Object, name string, val hujson.Value, indent, closeIndent string, st jsonStyle) {
	m := hujson.ObjectMember{Name: hujson.Value{Value: hujson.String(name)}, Value: val}
	if !st.pretty {
		same, rest := splitSameLine(obj.AfterExtra)
		if n := len(obj.Members); n > 0 && len(same) == 0 && hasComment(obj.AfterExtra) && !bytes.ContainsRune(obj.AfterExtra, '\n') {
			// A comment between the last member and the closing brace on
			// the same line ({"a": 1 /* note */}) is about that member: it
			// stays right after it, and the new member comes after it.
			note := bytes.TrimRight(obj.AfterExtra, " \t")
			obj.AfterExtra = cat(obj.AfterExtra[len(note):])
			sep := compactSep(obj, st)
			if last := &obj.Members[n-1].Value; last.AfterExtra == nil {
				last.AfterExtra = cat(note) // {"a": 1 /* note */, "new": 2}
				m.Name.BeforeExtra = cat(sep)
			} else { // {"a": 1, /* note */ "new": 2,}
				if len(sep) == 0 {
					sep = []byte(" ")
				}
				m.Name.BeforeExtra = cat(note, sep)
				m.Value.AfterExtra = []byte{}
			}
			obj.Members = append(obj.Members, m)
			return
		}
		if n := len(obj.Members); n > 0 && len(same) > 0 {
			// A comment after the last member stays on its line; the new
			// member starts the next one, indented as the closing brace.
			ind, _ := lineIndent(rest)
			m.Name.BeforeExtra = cat(same, []byte(st.nl+ind))
			obj.AfterExtra = cat(rest)
		} else {
			m.Name.BeforeExtra = compactSep(obj, st)
		}
		if n := len(obj.Members); n > 0 && obj.Members[n-1].Value.AfterExtra != nil {
			m.Value.AfterExtra = []byte{} // a trailing comma stays last
		}
		obj.Members = append(obj.Members, m)
		return
	}
	if len(obj.Members) == 0 {
		// A comment on the opening brace's line stays there; comments on
		// lines of their own stay below the new member, before the
		// closing brace, where removeMember finds them again.
		same, rest := splitSameLine(obj.AfterExtra)
		if len(same) == 0 && !bytes.ContainsRune(obj.AfterExtra, '\n') {
			same = bytes.TrimRight(obj.AfterExtra, " \t") // { /* note */ }
			rest = obj.AfterExtra[len(same):]
		}
		m.Name.BeforeExtra = cat(same, []byte(st.nl+indent))
		obj.AfterExtra = []byte(st.nl + closeIndent)
		if hasComment(rest) {
			obj.AfterExtra = cat(rest)
		}
		obj.Members = append(obj.Members, m)
		return
	}
	last := obj.Members[len(obj.Members)-1]
	same, rest := splitSameLine(obj.AfterExtra)
	m.Name.BeforeExtra = cat(same, []byte(st.nl+indent))
	obj.AfterExtra = cat(rest)
	if last.Value.AfterExtra != nil {
		m.Value.AfterExtra = []byte{}
	}
	obj.Members = append(obj.Members, m)
}

// compactSep is what goes between the comma and a member added to obj,
// an object laid out on one line: what the other members have, else a
// space when the file puts one after its colons ({"a": 1, "b": 2}).
func compactSep(obj *hujson.Object, st jsonStyle) []byte {
	if n := len(obj.Members); n > 1 && isSpace(obj.Members[n-1].Name.BeforeExtra) {
		return cat(obj.Members[n-1].Name.BeforeExtra)
	}
	if len(obj.Members) > 0 && st.colon != "" {
		return []byte(" ")
	}
	return nil
}

// removeMember removes member i of obj, the inverse of appendMember for
// the last member. A comment on the previous member's line is kept (a
// comment before the member on the same line included); the comments
// before the member on lines of their own go with it.
func removeMember(obj *hujson.Object, i int, nl string) {
	m := obj.Members[i]
	same, _ := splitSameLine(m.Name.BeforeExtra)
	if hasComment(m.Name.BeforeExtra) && !bytes.ContainsRune(m.Name.BeforeExtra, '\n') {
		// {"a": 1, /* note */ "m": 2}: on one line, the comment stays
		// with what precedes it.
		same = bytes.TrimRight(m.Name.BeforeExtra, " \t")
	}
	last := i == len(obj.Members)-1
	switch {
	case !last:
		next := &obj.Members[i+1]
		next.Name.BeforeExtra = afterComment(same, next.Name.BeforeExtra, nl)
	case i > 0:
		prev := &obj.Members[i-1]
		if m.Value.AfterExtra == nil { // no trailing comma
			obj.AfterExtra = afterComment(cat(prev.Value.AfterExtra, same), obj.AfterExtra, nl)
			prev.Value.AfterExtra = nil
		} else {
			obj.AfterExtra = afterComment(same, obj.AfterExtra, nl)
			if prev.Value.AfterExtra == nil {
				prev.Value.AfterExtra = []byte{}
			}
		}
	default: // the only member; comments on lines of their own go with it
		rest := obj.AfterExtra
		if len(same) == 0 && isSpace(rest) {
			rest = nil
		}
		obj.AfterExtra = afterComment(same, rest, nl)
	}
	obj.Members = append(obj.Members[:i:i], obj.Members[i+1:]...)
}

// entryValue is what is written for s: only the fields a stdio entry
// has, in the order the clients' docs show them.
func entryValue(s Server) any {
	return struct {
		Type    string            `json:"type,omitempty"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env,omitempty"`
	}{s.Type, s.Command, nonNil(s.Args), s.Env}
}

func nonNil(a []string) []string {
	if a == nil {
		return []string{}
	}
	return a
}

func jsonSet(src []byte, key []string, name string, s Server) ([]byte, bool, updated, error) {
	v, root, err := parseJSON(src)
	if err != nil {
		return nil, false, updated{}, err
	}
	st := detectStyle(src, root)
	obj, indent := root, ""
	for i, k := range key {
		idx := findMembers(obj, k)
		if len(idx) == 0 {
			// Create the rest of the path with the entry inside.
			var val any = entryValue(s)
			val = map[string]any{name: val}
			for j := len(key) - 1; j > i; j-- {
				val = map[string]any{key[j]: val}
			}
			mi := memberIndent(obj, indent, st)
			rv, err := render(val, mi, st)
			if err != nil {
				return nil, false, updated{}, err
			}
			appendMember(obj, k, rv, mi, indent, st)
			out := v.Pack()
			return out, false, updated{}, checkJSON(src, out, key, name, mergedEntry(JSON, nil, s))
		}
		m := &obj.Members[idx[len(idx)-1]]
		next, ok := m.Value.Value.(*hujson.Object)
		if !ok {
			return nil, false, updated{}, fmt.Errorf("%q is not a JSON object", strings.Join(key[:i+1], "."))
		}
		if ind, ok := lineIndent(m.Name.BeforeExtra); ok {
			indent = ind
		} // else the member is on its object's line
		obj = next
		st = objStyle(obj, st)
	}
	mi := memberIndent(obj, indent, st)
	idx := findMembers(obj, name)
	if len(idx) == 0 {
		rv, err := render(entryValue(s), mi, st)
		if err != nil {
			return nil, false, updated{}, err
		}
		appendMember(obj, name, rv, mi, indent, st)
		out := v.Pack()
		return out, false, updated{}, checkJSON(src, out, key, name, mergedEntry(JSON, nil, s))
	}
	// The entry is there: the last of duplicate keys is the one that
	// counts; it is updated and the others go. They go first, and the
	// file without them is edited as any other: removing one can move
	// the next one's line (and so the layout the update follows), and a
	// second Set must find nothing to change.
	if len(idx) > 1 {
		last := obj.Members[idx[len(idx)-1]].Value
		if remoteEntry(decodeEntry(last)) {
			return nil, false, updated{}, remoteError(name)
		}
		for j := len(idx) - 2; j >= 0; j-- {
			removeMember(obj, idx[j], st.nl)
		}
		out, _, u, err := jsonSet(v.Pack(), key, name, s)
		if err != nil {
			return nil, false, updated{}, err
		}
		return out, true, u, checkJSON(src, out, key, name, mergedEntry(JSON, decodeEntry(last), s))
	}
	m := &obj.Members[idx[0]]
	if ind, ok := lineIndent(m.Name.BeforeExtra); ok {
		mi = ind
	}
	var u updated
	want := mergedEntry(JSON, nil, s)
	if ent, ok := m.Value.Value.(*hujson.Object); ok {
		old := decodeEntry(m.Value)
		if remoteEntry(old) {
			return nil, false, updated{}, remoteError(name)
		}
		if err := mergeJSON(src, ent, s, old, mi, st); err != nil {
			return nil, false, updated{}, err
		}
		var order []string
		for _, em := range ent.Members {
			if lit, ok := em.Name.Value.(hujson.Literal); ok {
				order = append(order, lit.String())
			}
		}
		u = updatedEntry(JSON, order, old, s)
		want = mergedEntry(JSON, old, s)
	} else { // not an object: nothing to keep
		rv, err := render(entryValue(s), mi, st)
		if err != nil {
			return nil, false, updated{}, err
		}
		m.Value.Value = rv.Value
	}
	out := v.Pack()
	return out, true, u, checkJSON(src, out, key, name, want)
}

// decodeEntry decodes an entry's value, nil when it is not an object.
func decodeEntry(v hujson.Value) map[string]any {
	c := v.Clone()
	c.Standardize()
	d := json.NewDecoder(bytes.NewReader(c.Pack()))
	d.UseNumber()
	var m map[string]any
	if d.Decode(&m) != nil {
		return nil
	}
	return m
}

// mergeJSON updates the members of ent that Set writes, in place, and
// adds those missing at its end; a member that switches old off is
// switched on. ent's member lines start with indent (the entry's own
// line, for its first-level members' parent).
func mergeJSON(src []byte, ent *hujson.Object, s Server, old map[string]any, indent string, st jsonStyle) error {
	est := objStyle(ent, st) // an entry written on one line stays on one line
	if s.Type != "" {
		if err := setJSONMember(ent, "type", s.Type, indent, est); err != nil {
			return err
		}
	}
	if err := setJSONMember(ent, "command", s.Command, indent, est); err != nil {
		return err
	}
	if err := setJSONMember(ent, "args", nonNil(s.Args), indent, est); err != nil {
		return err
	}
	if sw, off := switchedOff(JSON, old); off {
		if err := setJSONMember(ent, sw.name, sw.on, indent, est); err != nil {
			return err
		}
	}
	if len(s.Env) == 0 {
		return nil
	}
	if idx := findMembers(ent, "env"); len(idx) > 0 {
		em := &ent.Members[idx[len(idx)-1]]
		if env, ok := em.Value.Value.(*hujson.Object); ok {
			envIndent := memberIndent(ent, indent, est)
			if ind, ok := lineIndent(em.Name.BeforeExtra); ok {
				envIndent = ind
			}
			nst := objStyle(env, est)
			for _, k := range slices.Sorted(maps.Keys(s.Env)) {
				if err := setJSONMember(env, k, s.Env[k], envIndent, nst); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return setJSONMember(ent, "env", s.Env, indent, est)
}

// setJSONMember sets the member name of obj (whose own line starts with
// indent) to val: in place when it is there, keeping its comments, else
// at the end.
func setJSONMember(obj *hujson.Object, name string, val any, indent string, st jsonStyle) error {
	mi := memberIndent(obj, indent, st)
	idx := findMembers(obj, name)
	if len(idx) > 0 {
		m := &obj.Members[idx[len(idx)-1]]
		if ind, ok := lineIndent(m.Name.BeforeExtra); ok {
			mi = ind
		}
		rv, err := render(val, mi, st)
		if err != nil {
			return err
		}
		m.Value.Value = rv.Value
		return nil
	}
	rv, err := render(val, mi, st)
	if err != nil {
		return err
	}
	appendMember(obj, name, rv, mi, indent, st)
	return nil
}

func jsonRemove(src []byte, key []string, name string) ([]byte, bool, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return src, false, nil
	}
	v, root, err := parseJSON(src)
	if err != nil {
		return nil, false, err
	}
	st := detectStyle(src, root)
	path := []*hujson.Object{root}
	obj := root
	for i, k := range key {
		idx := findMembers(obj, k)
		if len(idx) == 0 {
			return src, false, nil
		}
		next, ok := obj.Members[idx[len(idx)-1]].Value.Value.(*hujson.Object)
		if !ok {
			return nil, false, fmt.Errorf("%q is not a JSON object", strings.Join(key[:i+1], "."))
		}
		obj = next
		path = append(path, obj)
	}
	idx := findMembers(obj, name)
	if len(idx) == 0 {
		return src, false, nil
	}
	for j := len(idx) - 1; j >= 0; j-- {
		removeMember(obj, idx[j], st.nl)
	}
	// A container left empty (and holding no comment) is removed too, so
	// that enable then disable gives back the file as it was; not one of
	// duplicate keys, where the one before would then count.
	for i := len(key) - 1; i >= 0; i-- {
		c := path[i+1]
		parent := path[i]
		idx := findMembers(parent, key[i])
		if len(c.Members) > 0 || !isSpace(c.AfterExtra) || len(idx) > 1 || commentOnLine(parent, idx[0]) {
			break
		}
		removeMember(parent, idx[0], st.nl)
	}
	out := v.Pack()
	return out, true, checkJSON(src, out, key, name, nil)
}

// commentOnLine reports whether a comment follows member i of obj on its
// line ("mcpServers": {} // none yet): the member was in the file before
// Set, which never writes one, and the comment is about it, so a
// container emptied by Remove stays with its comment.
func commentOnLine(obj *hujson.Object, i int) bool {
	m := obj.Members[i]
	if hasComment(m.Value.AfterExtra) {
		return true
	}
	after := obj.AfterExtra
	if i+1 < len(obj.Members) {
		after = obj.Members[i+1].Name.BeforeExtra
	}
	same, _ := splitSameLine(after)
	return len(same) > 0
}

func jsonList(src []byte, key []string) ([]Entry, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, nil
	}
	_, root, err := parseJSON(src)
	if err != nil {
		return nil, err
	}
	obj := root
	for i, k := range key {
		idx := findMembers(obj, k)
		if len(idx) == 0 {
			return nil, nil
		}
		next, ok := obj.Members[idx[len(idx)-1]].Value.Value.(*hujson.Object)
		if !ok {
			return nil, fmt.Errorf("%q is not a JSON object", strings.Join(key[:i+1], "."))
		}
		obj = next
	}
	var entries []Entry
	for _, m := range obj.Members {
		lit, _ := m.Name.Value.(hujson.Literal)
		val := m.Value.Clone()
		val.Standardize()
		e := Entry{Name: lit.String()}
		if err := decodeServer(val.Pack(), &e.Server); err != nil {
			return nil, fmt.Errorf("server %q: %w", e.Name, err)
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// decodeServer reads an entry as the clients write it, tolerating the
// other names clients use for a remote server's URL. Member names match
// exactly, as the clients read them ("Args" is not "args"; encoding/json
// alone would take it for it).
func decodeServer(b []byte, s *Server) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	str := func(k string, dst *string) error {
		if v, ok := raw[k]; ok {
			if err := json.Unmarshal(v, dst); err != nil {
				return fmt.Errorf("%q: %w", k, err)
			}
		}
		return nil
	}
	var serverURL, httpURL string
	var env map[string]any
	*s = Server{}
	for _, err := range []error{
		str("type", &s.Type), str("command", &s.Command), str("url", &s.URL),
		str("serverUrl", &serverURL), str("httpUrl", &httpURL),
	} {
		if err != nil {
			return err
		}
	}
	if v, ok := raw["args"]; ok {
		if err := json.Unmarshal(v, &s.Args); err != nil {
			return fmt.Errorf("%q: %w", "args", err)
		}
	}
	if v, ok := raw["env"]; ok {
		if err := json.Unmarshal(v, &env); err != nil {
			return fmt.Errorf("%q: %w", "env", err)
		}
	}
	if s.URL == "" {
		s.URL = serverURL
	}
	if s.URL == "" {
		s.URL = httpURL
	}
	if len(env) > 0 {
		s.Env = make(map[string]string, len(env))
		for k, v := range env {
			s.Env[k] = fmt.Sprint(v)
		}
	}
	return nil
}

// checkJSON verifies that out parses and means src with only the server
// name at key set to entry (or removed, when entry is nil): a safety net
// under the byte-level editing.
func checkJSON(src, out []byte, key []string, name string, entry map[string]any) error {
	want, err := decodeJSON(src)
	if err != nil {
		return err
	}
	got, err := decodeJSON(out)
	if err != nil {
		return fmt.Errorf("internal error: the edited file does not parse: %w", err)
	}
	var e any
	if entry != nil {
		e = entry
	}
	applyEdit(want, key, name, e)
	dropEmpty(got, key)
	if !reflect.DeepEqual(want, got) {
		return errors.New("internal error: the edit would change more than the server entry; nothing was written")
	}
	return nil
}

func decodeJSON(b []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return map[string]any{}, nil
	}
	// Standardize works in place: give it a copy.
	std, err := hujson.Standardize(bytes.Clone(b))
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(std))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}

// applyEdit sets (entry non-nil) or deletes name under key in a decoded
// document, and drops containers left empty.
func applyEdit(doc map[string]any, key []string, name string, entry any) {
	obj := doc
	for _, k := range key {
		next, ok := obj[k].(map[string]any)
		if !ok {
			if entry == nil {
				return
			}
			next = map[string]any{}
			obj[k] = next
		}
		obj = next
	}
	if entry != nil {
		obj[name] = entry
	} else {
		delete(obj, name)
	}
	dropEmpty(doc, key)
}

// dropEmpty removes the containers along key that are empty, deepest
// first.
func dropEmpty(doc map[string]any, key []string) {
	for n := len(key); n > 0; n-- {
		obj := doc
		for _, k := range key[:n-1] {
			next, ok := obj[k].(map[string]any)
			if !ok {
				return
			}
			obj = next
		}
		if c, ok := obj[key[n-1]].(map[string]any); ok && len(c) == 0 {
			delete(obj, key[n-1])
		}
	}
}
