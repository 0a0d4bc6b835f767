// Package toolmeta holds the tool metadata rules that package toolset
// writes and package dialect reads: a tool's stable id and its tags in
// normal form. dialect re-exports them (dialect.ToolID,
// dialect.NormalizeTags), so that toolset need not import dialect. It also
// holds the names and numbers that the library and its commands share:
// the command annotation keys (annotations.go: toolset reads them, bridge
// gives them to adopters, external writes them) and the defaults of a zero
// Config and the auto listing's thresholds (defaults.go: toolset applies
// them, bridge's flags state them).
//
//	id := toolmeta.ToolID("acme", "mycli_get_pods") // "acme:mycli_get_pods"
//	tags := toolmeta.NormalizeTags([]string{" Read Only ", "read-only"}) // ["read-only"]
package toolmeta

import (
	"strings"
	"unicode"
)

// Tag limits.
const (
	MaxTagLen = 64 // bytes in one normalised tag
	MaxTags   = 20 // tags kept by NormalizeTags
)

// NormalizeTags returns tags in a stable, searchable form: each tag
// lower-cased and trimmed, every run of white space turned into one "-",
// every character outside [a-z0-9-_.] removed, and cut to 64 characters;
// empty tags and repeats are dropped (the first occurrence keeps its
// place), and at most 20 tags are kept. The result is never nil.
func NormalizeTags(raw []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, t := range raw {
		t = strings.ToLower(strings.TrimSpace(t))
		var b strings.Builder
		space := false
		for _, c := range t {
			if unicode.IsSpace(c) {
				space = true
				continue
			}
			if space {
				b.WriteByte('-')
				space = false
			}
			if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' {
				b.WriteRune(c)
			}
		}
		t = b.String()
		if len(t) > MaxTagLen {
			t = t[:MaxTagLen]
		}
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
		if len(out) == MaxTags {
			break
		}
	}
	return out
}

// ToolID returns the stable id of a tool: "namespace:name", or name alone
// when namespace is empty.
func ToolID(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + ":" + name
}
