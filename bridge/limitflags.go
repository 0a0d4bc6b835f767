package bridge

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cobramcp/cobramcp/internal/toolmeta"
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
	fs.Duration(flagTimeout, 0, "time limit of each call, over the CLI's own default ("+toolmeta.DefaultTimeout.String()+" unless its author chose another); 0 means no limit; a command annotated with its own timeout keeps it (env CLIENV_MCP_TIMEOUT)")
	fs.Int(flagMaxOutput, 0, "bytes kept of each of a call's stdout and stderr (head and tail, the middle marked); 0 means no cap (env CLIENV_MCP_MAX_OUTPUT)")
	fs.Int(flagMaxParallel, 0, "calls that run at once; more wait for a slot (default "+strconv.Itoa(toolmeta.DefaultMaxParallel)+" unless the CLI's author chose another; env CLIENV_MCP_MAX_PARALLEL)")
}

// applyLimits sets the limits of cfg that c's limit flags, or for a flag
// not given its variable (policyEnv(root, flag), read through lookup),
// ask for. A variable is read by its flag's own parser, as the command
// line is. A command without the flags leaves cfg as it is.
func applyLimits(fs *pflag.FlagSet, root string, lookup func(string) (string, bool), cfg *toolset.Config) error {
	if fs.Lookup(flagTimeout) == nil {
		return nil
	}
	// given reports whether flag is set, on the command line or by its
	// variable (then parsed into the flag), and names where from; want
	// says what a value must be.
	given := func(flag, want string) (from string, ok bool, err error) {
		v, from, fromEnv := flagEnv(fs, root, flag, lookup)
		if !fromEnv {
			if fs.Changed(flag) {
				return from, true, nil
			}
			return "", false, nil
		}
		v = strings.TrimSpace(v)
		if err := fs.Lookup(flag).Value.Set(v); err != nil {
			return "", false, fmt.Errorf("%s %q: %s", from, v, want)
		}
		return from, true, nil
	}
	const (
		wantDuration = "want a duration such as 30s, 10m or 1h (0: no limit)"
		wantBytes    = "want a number of bytes (0: no cap)"
		wantCalls    = "want a number of calls, at least 1"
	)
	if from, ok, err := given(flagTimeout, wantDuration); err != nil {
		return err
	} else if ok {
		d, _ := fs.GetDuration(flagTimeout)
		if d < 0 {
			return fmt.Errorf("%s %q: %s", from, d, wantDuration)
		}
		cfg.Timeout = d
		if d == 0 {
			cfg.Timeout = -1 // Config's "no bound"
		}
	}
	if from, ok, err := given(flagMaxOutput, wantBytes); err != nil {
		return err
	} else if ok {
		n, _ := fs.GetInt(flagMaxOutput)
		if n < 0 {
			return fmt.Errorf("%s %q: %s", from, strconv.Itoa(n), wantBytes)
		}
		cfg.MaxOutput = n
		if n == 0 {
			cfg.MaxOutput = -1 // Config's "no cap"
		}
	}
	if from, ok, err := given(flagMaxParallel, wantCalls); err != nil {
		return err
	} else if ok {
		n, _ := fs.GetInt(flagMaxParallel)
		if n < 1 {
			return fmt.Errorf("%s %q: %s", from, strconv.Itoa(n), wantCalls)
		}
		cfg.MaxParallel = n
	}
	return nil
}
