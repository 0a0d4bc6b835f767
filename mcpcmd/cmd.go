package mcpcmd

import (
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/cobramcp/cobramcp/toolset"

	"github.com/spf13/cobra"
)

// Options configure the mcp command group.
type Options struct {
	// Name of the group command; "mcp" when empty.
	Name string
	// Load reflects the tree that c (the running sub-command) belongs to.
	Load func(c *cobra.Command) (*toolset.Toolset, error)
	// DefaultEnv returns environment variables captured at `enable` time
	// into client configurations (Config.DefaultEnv). May be nil.
	DefaultEnv func() map[string]string
	// ServerName, when set and not "", names the served CLI where the
	// root command's name would: the default name of the server entry
	// that `CLIENT enable|disable|list` write, remove and mark, and the
	// prefix of the <ROOT>_MCP_* variables (token, policy) and of the
	// help texts. cobramcp uses it to name a CLI served from outside after
	// that CLI (KUBECTL_MCP_TOKEN for `cobramcp stream -- kubectl`).
	// While it returns "", the help texts call the CLI BINARY
	// ('BINARY_get_*', BINARY_MCP_TOKEN), as the usage lines do.
	ServerName func(c *cobra.Command) string
	// EntryArgs, when set, returns the arguments of the command line a
	// client entry runs (after the executable), given the path from the
	// root to `start` and the arguments after -- of `enable`; the two
	// joined otherwise. cobramcp uses it to write `start -- BINARY ARGS`.
	EntryArgs func(c *cobra.Command, start, extra []string) []string

	group *cobra.Command // the group New made
	// start is the group's start command, whose flags client entries are
	// planned and checked with; kept here because a program may move it
	// out of the group (cobramcp serves it at its top).
	start *cobra.Command
}

// New returns the mcp command group with all its sub-commands.
func New(o Options) *cobra.Command {
	if o.Name == "" {
		o.Name = "mcp"
	}
	group := &cobra.Command{
		Use:   o.Name,
		Short: "Serve this CLI's commands as MCP tools",
		Long: "Serve this CLI's commands as Model Context Protocol tools: every runnable command\n" +
			"becomes a tool that runs the command and returns its stdout, stderr and exit code.",
		Args: subcommandArgs,
		RunE: func(c *cobra.Command, _ []string) error { return c.Help() },
		// The walk leaves the group out by this mark, not by its name.
		Annotations: map[string]string{toolset.AnnotationGroup: "true"},
	}
	o.group = group
	// Named after the group, so that it cannot clash with a --log-level
	// of the CLI itself.
	group.PersistentFlags().String(FlagLogLevel, "info", "log level of the MCP server: debug, info, warn or error (logs go to stderr)")
	o.start = newStartCmd(&o)
	subs := []*cobra.Command{o.start, newToolsCmd(&o), newStreamCmd(&o), newToolCmd(&o), newCallCmd(&o)}
	subs = append(subs, newClientCmds(&o)...)
	for _, s := range subs {
		if s != nil {
			group.AddCommand(s)
		}
	}
	usageOnlyForUsageErrors(group)
	nameTheCLI(group, func() string { return helpName(&o, group) }, completingAs(&o, os.Args))
	return group
}

// FlagLogLevel is the mcp group's flag for its own log level.
const FlagLogLevel = "mcp-log-level"

// Logger returns the slog logger for c, writing to stderr at the level of
// the group's --mcp-log-level flag.
func Logger(c *cobra.Command) (*slog.Logger, error) { return logger(c) }

func logger(c *cobra.Command) (*slog.Logger, error) {
	lvl := "info"
	if f := c.Flag(FlagLogLevel); f != nil {
		lvl = f.Value.String()
	}
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToLower(lvl))); err != nil {
		return nil, fmt.Errorf("--%s %q: want debug, info, warn or error", FlagLogLevel, lvl)
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: l})), nil
}
