package dialect

import (
	"fmt"
	"hash/fnv"
	"strings"
	"sync"
)

// maxName is the longest tool name every provider accepts.
const maxName = 64

// nameRule is one dialect's rule for tool names.
type nameRule struct {
	pattern string            // the rule as a regular expression, for messages
	allowed func(b byte) bool // may appear anywhere
	first   func(b byte) bool // may start the name; nil means allowed
}

func isAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func isWordByte(b byte) bool { return isAlnum(b) || b == '_' }

func isNameByte(b byte) bool { return isWordByte(b) || b == '-' }

func isLetterOrUnderscore(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_'
}

// nameRules holds the name rule of every translating format.
//
// OpenAI: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with
// a maximum length of 64." (https://platform.openai.com/docs/api-reference/chat/create)
// Anthropic: "Must match the regex ^[a-zA-Z0-9_-]{1,64}$."
// (https://docs.anthropic.com/en/api/messages)
// Gemini: "Must start with a letter or an underscore. Must be a-z, A-Z,
// 0-9, or contain underscores, dots, colons and dashes, with a maximum
// length of 64." (https://ai.google.dev/api/caching#FunctionDeclaration);
// dots and colons are left out so that one name works everywhere.
// Canonical: "alphanumeric + underscore" (the canonical tool schema).
// ToolVault names are free; they follow the common rule so that a
// toolvault file can feed any provider.
var nameRules = sync.OnceValue(func() map[Format]nameRule {
	return map[Format]nameRule{
		Canonical: {pattern: `^[a-zA-Z0-9_]{1,64}$`, allowed: isWordByte},
		OpenAI:    {pattern: `^[a-zA-Z0-9_-]{1,64}$`, allowed: isNameByte},
		Anthropic: {pattern: `^[a-zA-Z0-9_-]{1,64}$`, allowed: isNameByte},
		Gemini:    {pattern: `^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`, allowed: isNameByte, first: isLetterOrUnderscore},
		ToolVault: {pattern: `^[a-zA-Z0-9_-]{1,64}$`, allowed: isNameByte},
	}
})

// apply returns name made valid under the rule, reporting any change on r.
// Every byte outside the rule becomes "_" (a multi-byte character becomes
// one "_"); a name that may not start with its first byte gets a leading
// "_"; a name longer than 64 bytes keeps its first 55 bytes and gets "_"
// and 8 hex digits of a hash of the whole original name, so that two long
// names with a common prefix stay apart.
func (r nameRule) apply(name string, rep *report) string {
	var b strings.Builder
	for _, c := range name {
		if c < 0x80 && r.allowed(byte(c)) {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" {
		s = "_"
	}
	if r.first != nil && !r.first(s[0]) {
		s = "_" + s
	}
	if len(s) > maxName {
		h := fnv.New32a()
		h.Write([]byte(name))
		s = fmt.Sprintf("%s_%08x", s[:maxName-9], h.Sum32())
	}
	if s != name {
		rep.add("/name", "renamed to %q: names must match %s", s, r.pattern)
	}
	return s
}

// NameFor returns the name Export gives, in format f, to the tool named
// name: the name itself for MCP, else the name mapped to f's rule. A
// caller that receives a call under a dialect name finds the MCP tool by
// comparing NameFor of each tool's name.
func NameFor(f Format, name string) string {
	rule, ok := nameRules()[f]
	if !ok {
		return name
	}
	return rule.apply(name, &report{})
}
