package bridge

import (
	"strings"

	"github.com/spf13/pflag"
)

// flagEnv is the rule every setting of the mcp commands follows: the flag
// when it is given on the command line, else its variable
// <ROOT>_MCP_FLAG (policyEnv), else the flag's default. It returns the
// variable's value, as it is, when the variable decides (the flag was not
// given, the variable is set and not blank), and names where the value
// comes from for messages: "--flag", or "$NAME" when the variable gave it.
// A nil lookup reads no variable.
func flagEnv(fs *pflag.FlagSet, root, flag string, lookup func(string) (string, bool)) (val, from string, fromEnv bool) {
	from = "--" + flag
	if fs.Changed(flag) || lookup == nil {
		return "", from, false
	}
	name := policyEnv(root, flag)
	v, ok := lookup(name)
	if !ok || strings.TrimSpace(v) == "" {
		return "", from, false
	}
	return v, "$" + name, true
}
