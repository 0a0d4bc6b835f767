package rank

import "strings"

// forEachWord calls f with each word of text: a run of ASCII letters and
// digits, lower-cased (other runes separate words; non-ASCII bytes are
// kept inside words). The word passed to f lives in buf, which the next
// word overwrites; f must copy it to keep it. forEachWord returns buf for
// reuse.
func forEachWord(text string, buf []byte, f func(w []byte)) []byte {
	buf = buf[:0]
	flush := func() {
		if len(buf) > 0 {
			f(buf)
			buf = buf[:0]
		}
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c >= 'A' && c <= 'Z':
			buf = append(buf, c+'a'-'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c >= 0x80:
			buf = append(buf, c)
		default:
			flush()
		}
	}
	flush()
	return buf
}

// words returns the lower-case words of text.
func words(text string) []string {
	var out []string
	forEachWord(text, nil, func(w []byte) { out = append(out, string(w)) })
	return out
}

// stem folds the inflections of an English word (lower case) so that the
// forms a person and a CLI use meet: plural and -ing/-ed forms, -ation,
// -ion and -ment nouns, and a final e (pods, pod -> pod; creating,
// created, creation, create -> creat; deployment -> deploy). It is a small
// suffix stripper tuned for command vocabulary, not a full Porter stemmer:
// words of four letters or less are left alone.
func stem(w string) string {
	if len(w) <= 3 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ied") && len(w) > 5:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	switch {
	case len(w) > 6 && strings.HasSuffix(w, "ing"):
		w = undouble(w[:len(w)-3])
	case len(w) > 5 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"):
		w = undouble(w[:len(w)-2])
	case len(w) > 8 && strings.HasSuffix(w, "ation"):
		w = w[:len(w)-5]
	case len(w) > 6 && strings.HasSuffix(w, "tion"):
		w = w[:len(w)-3]
	case len(w) > 7 && strings.HasSuffix(w, "ment"):
		w = w[:len(w)-4]
	}
	if len(w) > 4 && w[len(w)-1] == 'e' {
		w = w[:len(w)-1]
	}
	return w
}

// undouble drops the last letter of a doubled final consonant left by a
// stripped suffix: runn -> run, stopp -> stop (but not "ll": install).
func undouble(w string) string {
	n := len(w)
	if n > 2 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// reads reports whether a command reads rather than acts: its description
// starts with a verb of reading ("List", "Shows", "Print") or its name is
// one ("list", "status", "version").
func reads(d Doc) bool {
	lx := lex()
	if len(d.Path) > 0 {
		if ws := words(d.Path[len(d.Path)-1]); len(ws) > 0 && lx.readName[stem(ws[len(ws)-1])] {
			return true
		}
	}
	first, second, n := "", "", 0
	forEachWord(d.Short, nil, func(w []byte) {
		switch n++; n {
		case 1:
			first = string(w)
		case 2:
			second = string(w)
		}
	})
	// "Check out a pull request" acts: a verb of reading with "out" is
	// another verb.
	return first != "" && lx.readVerb[stem(first)] && second != "out"
}

// asksState reports whether a query (its lower-case words) asks a question
// about state: it opens with a question word or an auxiliary ("is my
// cluster up", "which node", "what version", "do all the members hold the
// same data") or with "how" and a measure ("how long", "how many").
func asksState(ws []string) bool {
	if len(ws) == 0 {
		return false
	}
	switch ws[0] {
	case "is", "are", "was", "were", "am", "does", "do", "did", "has", "have", "which", "what", "when", "where", "who", "whose", "why":
		return true
	case "how":
		return len(ws) > 1 && lex().measure[ws[1]]
	}
	return false
}
