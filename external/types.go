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

// TypeTable maps the type names of well-known custom pflag.Value types,
// as CLIs print them in their help, to the pflag type whose command-line
// syntax they share. A flag whose help word is in neither pflag's names
// nor this table has its type probed (or is served as a string).
//
//	list, ulimit, filter, mount, port,   repeatable, one value each:
//	  network, secret, config, env         served as stringArray (docker)
//	map                                    repeatable KEY=VALUE entries:
//	                                         stringArray (docker's MapOpts)
//	bytes, decimal, duration-or-int,       a string with its own syntax:
//	  command, pem, gpu-request            string
var TypeTable = map[string]string{
	"list":            "stringArray",
	"ulimit":          "stringArray",
	"filter":          "stringArray",
	"mount":           "stringArray",
	"port":            "stringArray",
	"network":         "stringArray",
	"secret":          "stringArray",
	"config":          "stringArray",
	"env":             "stringArray",
	"map":             "stringArray",
	"bytes":           "string",
	"decimal":         "string",
	"duration-or-int": "string",
	"command":         "string",
	"pem":             "string",
	"gpu-request":     "string",
}

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
