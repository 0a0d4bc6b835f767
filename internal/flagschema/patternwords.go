package flagschema

// PatternWords returns, for a "pattern" that [For] writes into a generated
// schema, what the pattern asks for in words, for a message about a value
// that does not match it: "a Go duration such as 30s, 5m, 1h30m" rather
// than the regular expression. ok is false for any other pattern (an
// annotation's own).
func PatternWords(pattern string) (words string, ok bool) {
	switch pattern {
	case durationPattern:
		return "a " + durationNote, true
	case ipPattern:
		return "an " + ipNote, true
	case ipMaskPattern:
		return "an " + ipMaskNote, true
	case cidrPattern:
		return "a " + ipNetNote, true
	case hexPattern:
		return hexNote + ", an even number of hex digits", true
	case base64Pattern:
		return base64Note + " (standard base64, padded)", true
	case stringMapKeyPattern:
		return `a key without "="`, true
	case intMapKeyPattern:
		return `a key without "," or "=" that does not begin with "[" or "]"`, true
	}
	return "", false
}
