package bridge

import (
	"log/slog"
	"os"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/toolset"
)

// Config chooses what is served and how calls run; see toolset.Config. The
// zero value (or a nil *Config) serves every runnable command with every
// flag.
type Config = toolset.Config

// Selector chooses commands and, for those it matches, their flags; see
// toolset.Selector.
type Selector = toolset.Selector

// Command returns the command group ("mcp" by default) that serves root's
// commands as MCP tools; add it to the root command:
//
//	root.AddCommand(bridge.Command(nil))
//
// The tree is reflected when a sub-command runs, so commands added after
// this call are served too. A nil cfg means the defaults; opts add parts
// the CLI links only when it asks for them.
func Command(cfg *Config, opts ...Option) *cobra.Command {
	var c Config
	if cfg != nil {
		c = *cfg
	}
	name := c.CommandName
	if name == "" {
		name = toolset.DefaultCommandName
	}
	o := Options{
		Name: name,
		Tree: func(sub *cobra.Command, _ *slog.Logger) (*cobra.Command, *toolset.Config, error) {
			lc := c
			return sub.Root(), &lc, nil
		},
		DefaultEnv: func() map[string]string { return captureEnv(c.DefaultEnv) },
	}
	for _, opt := range opts {
		opt(&o)
	}
	return New(o)
}

// An Option adds to the command group a part that a CLI links only when
// it asks for it, such as the team server's OAuth verification.
type Option func(*Options)

// captureEnv returns the current values of the named variables that are set.
func captureEnv(names []string) map[string]string {
	env := map[string]string{}
	for _, n := range names {
		if v, ok := os.LookupEnv(n); ok {
			env[n] = v
		}
	}
	return env
}
