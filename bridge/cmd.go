package bridge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/cobramcp/cobramcp/internal/exec"
	"github.com/cobramcp/cobramcp/internal/toolmeta"
	"github.com/cobramcp/cobramcp/serve"
	"github.com/cobramcp/cobramcp/toolset"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Options configure the mcp command group.
type Options struct {
	// Name of the group command; "mcp" when empty.
	Name string
	// Tree returns the command tree the group serves, for c, the running
	// sub-command (c.Root() for a CLI that serves itself), and its
	// author's Config (nil: the defaults). log writes at the group's
	// --mcp-log-level; it is the Config's Logger when the Config sets none.
	// The person running the server may then change the Config's call
	// limits with --timeout, --max-output and --max-parallel.
	Tree func(c *cobra.Command, log *slog.Logger) (*cobra.Command, *toolset.Config, error)
	// DefaultEnv returns environment variables captured at `enable` time
	// into client configurations (Config.DefaultEnv). May be nil.
	DefaultEnv func() map[string]string
	// Outside, when set, says that the CLI the group serves is not the
	// program it is part of, but one the program names on its command
	// line (cobramcp serves the binary named after --). A CLI that serves
	// itself leaves it nil.
	Outside *Outside

	// Parent, when set, is where New puts the sub-commands, each one whose
	// name Parent has no command of: a program whose purpose is serving
	// has them at its top (`cobramcp start -- kubectl`). The others stay
	// in the group that New returns, for the program to add where it
	// wants. --mcp-log-level is then a persistent flag of Parent, and the
	// flags of the commands above Parent (rather than above the group)
	// become pins.
	Parent *cobra.Command

	// oauth makes the authentication of `mcp stream --oauth-issuer`; nil
	// when the CLI did not opt in (WithOAuth).
	oauth func(context.Context, serve.OAuthConfig) (serve.Authenticator, error)

	// telemetry makes the traces and metrics of start and stream; nil
	// when the CLI did not opt in (WithTelemetry).
	telemetry func(context.Context, toolset.ObserverConfig) (Telemetry, error)

	// group is the command the sub-commands hang from: the group New
	// made, or Parent.
	group *cobra.Command
	// start is the start command, whose flags client entries are planned
	// and checked with.
	start *cobra.Command
}

// Outside describes a CLI served from outside the program (Options.Outside).
type Outside struct {
	// Name returns the served CLI's name, which names it where the root
	// command's name would: the default name of the server entry that
	// `CLIENT enable|disable|list` write, remove and mark, the prefix of
	// the <ROOT>_MCP_* variables (KUBECTL_MCP_TOKEN for `cobramcp stream
	// -- kubectl`) and the help texts. While it returns "" (the CLI is not
	// named yet), the help texts call it BINARY ('BINARY_get_*',
	// BINARY_MCP_TOKEN), as the usage lines do.
	Name func() string
	// EntryArgs returns the arguments of the command line a client entry
	// runs (after the program's executable), given the path from the root
	// to `start` and the arguments after -- of `enable`: cobramcp writes
	// `start -- /abs/path/BINARY ARGS`. Nil joins the two.
	EntryArgs func(start, extra []string) []string
}

// New returns the mcp command group with all its sub-commands, or with
// Options.Parent, with those Parent does not have a command of its own for;
// opts add the parts the program opts into.
func New(o Options, opts ...Option) *cobra.Command {
	for _, opt := range opts {
		opt(&o)
	}
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
		Annotations: map[string]string{toolmeta.AnnotationGroup: "true"},
	}
	o.group = group
	if o.Parent != nil {
		o.group = o.Parent
	}
	// Named after the group, so that it cannot clash with a --log-level
	// of the CLI itself.
	o.group.PersistentFlags().String(flagLogLevel, "", "log level: debug, info, warn or error (logs go to stderr); default info for start and stream, warn for the commands that run once")
	o.start = newStartCmd(&o)
	stream := newStreamCmd(&o)
	for _, c := range []*cobra.Command{o.start, stream} {
		if c.Annotations == nil {
			c.Annotations = map[string]string{}
		}
		c.Annotations[serving] = "true"
	}
	subs := []*cobra.Command{o.start, newToolsCmd(&o), stream, newToolCmd(&o), newCallCmd(&o)}
	subs = append(subs, newClientCmds(&o)...)
	for _, s := range subs {
		if o.Parent != nil && !hasCommand(o.Parent, s.Name()) {
			o.Parent.AddCommand(s)
		} else {
			group.AddCommand(s)
		}
	}
	usageOnlyForUsageErrors(subs)
	top := append([]*cobra.Command{group}, subs...)
	fit := &fitter{top: top, group: o.group, ours: map[*pflag.Flag]bool{o.group.PersistentFlags().Lookup(flagLogLevel): true}}
	fit.install()
	nameTheCLI(top, func() string { return helpName(&o, o.group) }, completingAs(&o, os.Args), fit.refit)
	return group
}

// hasCommand reports whether c has a sub-command named name.
func hasCommand(c *cobra.Command, name string) bool {
	for _, s := range c.Commands() {
		if s.Name() == name {
			return true
		}
	}
	return false
}

// load reflects the tree that Tree returns for c, with the call limits of
// c's flags (or their variables) over the author's Config.
func (o *Options) load(c *cobra.Command) (*toolset.Toolset, error) {
	if o.Tree == nil {
		return nil, errors.New("the mcp command group has no tree to serve (Options.Tree)")
	}
	log, err := logger(c)
	if err != nil {
		return nil, err
	}
	root, cfg, err := o.Tree(c, log)
	if err != nil {
		return nil, err
	}
	var lc toolset.Config
	if cfg != nil {
		lc = *cfg
	}
	if lc.Logger == nil {
		lc.Logger = log
	}
	if err := applyLimits(c.Flags(), serverName(o, c), os.LookupEnv, &lc); err != nil {
		return nil, err
	}
	// No call's process sees the server's own settings (<ROOT>_MCP_*: its
	// pins, policy, token), one-shot calls (mcp call, mcp tool) included;
	// the servers hide them again through ServerOptions.HideEnv.
	lc.Env = exec.WithoutEnv(lc.Env, hiddenVars(o, c))
	return toolset.New(root, &lc)
}

// flagLogLevel is the mcp group's flag for its own log level.
const flagLogLevel = "mcp-log-level"

// serving marks the commands that serve (start, stream), which log at
// info by default; the others run once and log at warn, so that a call
// or an export prints nothing on stderr but what went wrong.
const serving = "mcpcmd.serving"

// logger returns the slog logger for c, writing to stderr at the level of
// the group's --mcp-log-level flag.
func logger(c *cobra.Command) (*slog.Logger, error) {
	lvl := "warn"
	if c.Annotations[serving] != "" {
		lvl = "info"
	}
	if f := c.Flag(flagLogLevel); f != nil && f.Value.String() != "" {
		lvl = f.Value.String()
	}
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToLower(lvl))); err != nil {
		return nil, fmt.Errorf("--%s %q: want debug, info, warn or error", flagLogLevel, lvl)
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: l})), nil
}
