package mcpcmd

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cobramcp/cobramcp/toolset"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Names of the call limit flags, which the person running the server sets
// over the author's toolset.Config (Timeout, MaxOutput, MaxParallel).
const (
	flagTimeout     = "timeout"
	flagMaxOutput   = "max-output"
	flagMaxParallel = "max-parallel"
)

// addLimitFlags defines the call limit flags on c (start, stream, call,
// tool). Unset, with no <ROOT>_MCP_* variable either, the author's Config
// stands; a command's own mcp.timeout annotation still wins over
// --timeout, as it wins over Config.Timeout.
func addLimitFlags(c *cobra.Command) {
	fs := c.Flags()
	fs.Duration(flagTimeout, 0, "time limit of each call, over the CLI's own default ("+toolset.DefaultTimeout.String()+" unless its author chose another); 0 means no limit; a command annotated with its own timeout keeps it (env CLIENV_MCP_TIMEOUT)")
	fs.Int(flagMaxOutput, 0, "bytes kept of each of a call's stdout and stderr (head and tail, the middle marked); 0 means no cap (env CLIENV_MCP_MAX_OUTPUT)")
	fs.Int(flagMaxParallel, 0, "calls that run at once; more wait for a slot (default "+strconv.Itoa(toolset.DefaultMaxParallel)+" unless the CLI's author chose another; env CLIENV_MCP_MAX_PARALLEL)")
}

// applyLimits sets the limits of cfg that c's limit flags, or for a flag
// not given its variable (policyEnv(root, flag), read through lookup),
// ask for. A command without the flags leaves cfg as it is.
func applyLimits(fs *pflag.FlagSet, root string, lookup func(string) (string, bool), cfg *toolset.Config) error {
	if fs.Lookup(flagTimeout) == nil {
		return nil
	}
	// value returns the text of flag, from the command line or its
	// variable, and where it came from; ok is false when neither is set.
	value := func(flag string) (text, from string, ok bool) {
		if fs.Changed(flag) {
			return fs.Lookup(flag).Value.String(), "--" + flag, true
		}
		if lookup == nil {
			return "", "", false
		}
		name := policyEnv(root, flag)
		if v, set := lookup(name); set && strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v), "$" + name, true
		}
		return "", "", false
	}
	if text, from, ok := value(flagTimeout); ok {
		d, err := time.ParseDuration(text)
		if err != nil || d < 0 {
			return fmt.Errorf("%s %q: want a duration such as 30s, 10m or 1h (0: no limit)", from, text)
		}
		cfg.Timeout = d
		if d == 0 {
			cfg.Timeout = -1 // Config's "no bound"
		}
	}
	if text, from, ok := value(flagMaxOutput); ok {
		n, err := strconv.Atoi(text)
		if err != nil || n < 0 {
			return fmt.Errorf("%s %q: want a number of bytes (0: no cap)", from, text)
		}
		cfg.MaxOutput = n
		if n == 0 {
			cfg.MaxOutput = -1 // Config's "no cap"
		}
	}
	if text, from, ok := value(flagMaxParallel); ok {
		n, err := strconv.Atoi(text)
		if err != nil || n < 1 {
			return fmt.Errorf("%s %q: want a number of calls, at least 1", from, text)
		}
		cfg.MaxParallel = n
	}
	return nil
}
