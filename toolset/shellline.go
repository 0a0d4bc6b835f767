package toolset

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// shellLine is argv as a person would type it in a POSIX shell, for a
// person to read: a word of letters, digits and -_.,/:=@%+* as it is, one
// with other characters single-quoted, and one with a character that a
// terminal would not show as itself (a control character, an escape
// sequence, a line break, a bidirectional override, an invisible or
// blank character other than the space, a byte that is not UTF-8) written
// in ANSI-C quoting, $'...', with that character escaped (\n, \x1b,
// \u202e): what the person reads is the line that runs, every byte of it
// visible, and a shell (bash, zsh, ksh, POSIX.1-2024 sh) reads it back to
// the same argv.
func shellLine(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = shellWord(a)
	}
	return strings.Join(out, " ")
}

// shellWord is one word of shellLine.
func shellWord(a string) string {
	safe := a != ""
	for i := 0; i < len(a); {
		r, n := utf8.DecodeRuneInString(a[i:])
		if r == utf8.RuneError && n == 1 || unseen(r) {
			return ansiQuoted(a)
		}
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.,/:=@%+*", r)) {
			safe = false
		}
		i += n
	}
	if safe {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}

// unseen reports whether a terminal would not show r as itself: a
// control character (C0, DEL, C1), a format character (the bidirectional
// controls among them), a line or paragraph separator, a blank other than
// the space, a default-ignorable or variation selector, a surrogate, a
// private-use or unassigned code point.
func unseen(r rune) bool {
	switch {
	case r == ' ':
		return false
	case !unicode.IsGraphic(r), unicode.Is(unicode.Zs, r):
		return true
	case unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r), unicode.Is(unicode.Variation_Selector, r):
		return true
	case r == '\u2800': // braille pattern blank: a letter-like blank
		return true
	}
	return false
}

// ansiQuoted is a in ANSI-C quoting ($'...'), every character that unseen
// names escaped, and each byte that is not UTF-8 as \xNN.
func ansiQuoted(a string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(a); {
		r, n := utf8.DecodeRuneInString(a[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, a[i])
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && unseen(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff && unseen(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		case unseen(r):
			fmt.Fprintf(&b, `\U%08x`, r)
		default:
			b.WriteRune(r)
		}
		i += n
	}
	b.WriteByte('\'')
	return b.String()
}
