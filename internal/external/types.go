package external

import (
	"strings"
	"sync"

	"github.com/cobramcp/cobramcp/internal/flagschema"
)

// The type words of pflag's help format (pflag.UnquoteUsage: "strings"
// for stringSlice, "int" for int and int64, "" for bool) are the flag
// kinds' (flagschema.HelpKind).

// customWords gives, for the type names of well-known custom pflag.Value
// types as CLIs print them in their help (docker's opts), whether the
// type takes one value an occurrence. Such a flag keeps its type's name,
// as in-process: a repeatable one is served as an array sent as repeated
// flags (toolset.Config.RepeatableTypes in-process), the others as a
// string whose description names the type. A flag whose help word is in
// neither pflag's names nor this table has its type probed.
//
//	list, ulimit, filter, mount, port,      repeatable, one value each
//	  network, secret, config, env, map,
//	  gpu-request, pref, external-ca
//	bytes, decimal, duration-or-int,        one value with its own syntax
//	  command, pem
var customWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"list":            true,
		"ulimit":          true,
		"filter":          true,
		"mount":           true,
		"port":            true,
		"network":         true,
		"secret":          true,
		"config":          true,
		"env":             true,
		"map":             true,
		"gpu-request":     true,
		"pref":            true,
		"external-ca":     true,
		"bytes":           false,
		"decimal":         false,
		"duration-or-int": false,
		"command":         false,
		"pem":             false,
	}
})

// zeroDefault reports whether text is how pflag prints the zero value of
// typ (pflag leaves such defaults out of its help).
func zeroDefault(typ, text string) bool {
	if typ == "string" || typ == "" {
		return text == ""
	}
	switch text {
	case "", "[]", "<nil>", "0", "0s", "false", "map[]":
		return true
	}
	return typ == "time" && strings.HasPrefix(text, "0001-01-01")
}

// helpKind returns the pflag type name that a help page's type word
// names, and false for a word that names none of pflag's types.
func helpKind(word string) (string, bool) {
	k, ok := flagschema.HelpKind(word)
	if !ok {
		return "", false
	}
	return k.Name(), true
}
