package external

import (
	"strings"
	"sync"
)

// helpWords maps the type words of pflag's help format (pflag.UnquoteUsage:
// "strings" for stringSlice, "int" for int and int64, "" for bool) to pflag
// type names.
var helpWords = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"":               "bool",
		"string":         "string",
		"int":            "int",
		"int8":           "int8",
		"int16":          "int16",
		"int32":          "int32",
		"int64":          "int64",
		"uint":           "uint",
		"uint8":          "uint8",
		"uint16":         "uint16",
		"uint32":         "uint32",
		"uint64":         "uint64",
		"float":          "float64",
		"float32":        "float32",
		"float64":        "float64",
		"duration":       "duration",
		"count":          "count",
		"strings":        "stringSlice",
		"stringArray":    "stringArray",
		"ints":           "intSlice",
		"int32Slice":     "int32Slice",
		"int64Slice":     "int64Slice",
		"uints":          "uintSlice",
		"float32Slice":   "float32Slice",
		"float64Slice":   "float64Slice",
		"bools":          "boolSlice",
		"durationSlice":  "durationSlice",
		"ip":             "ip",
		"ipSlice":        "ipSlice",
		"ipMask":         "ipMask",
		"ipNet":          "ipNet",
		"ipNetSlice":     "ipNetSlice",
		"bytesHex":       "bytesHex",
		"bytesBase64":    "bytesBase64",
		"stringToString": "stringToString",
		"stringToInt":    "stringToInt",
		"stringToInt64":  "stringToInt64",
		"time":           "time",
	}
})

// pflagTypes is the set of pflag's own type names.
var pflagTypes = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, t := range helpWords() {
		m[t] = true
	}
	return m
})

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
