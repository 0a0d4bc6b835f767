package bridge

import (
	"testing"

	"github.com/spf13/pflag"
)

func TestFlagEnv(t *testing.T) {
	env := map[string]string{"MY_CLI_MCP_READ_ONLY": " true ", "MY_CLI_MCP_TOOLS": "  "}
	lookup := func(n string) (string, bool) { v, ok := env[n]; return v, ok }
	for _, tt := range []struct {
		name, flag string
		args       []string
		lookup     func(string) (string, bool)
		val, from  string
		fromEnv    bool
	}{
		{"the variable when the flag is not given", "read-only", nil, lookup, " true ", "$MY_CLI_MCP_READ_ONLY", true},
		{"the flag wins over its variable", "read-only", []string{"--read-only=false"}, lookup, "", "--read-only", false},
		{"a blank variable gives nothing", "tools", nil, lookup, "", "--tools", false},
		{"an unset variable gives nothing", "timeout", nil, lookup, "", "--timeout", false},
		{"no lookup reads no variable", "read-only", nil, nil, "", "--read-only", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
			fs.Bool("read-only", false, "")
			fs.String("tools", "", "")
			fs.Duration("timeout", 0, "")
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			val, from, fromEnv := flagEnv(fs, "my-cli", tt.flag, tt.lookup)
			if val != tt.val || from != tt.from || fromEnv != tt.fromEnv {
				t.Errorf("flagEnv(%s) = %q, %q, %v; want %q, %q, %v", tt.flag, val, from, fromEnv, tt.val, tt.from, tt.fromEnv)
			}
		})
	}
}
