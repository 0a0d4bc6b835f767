// Command cobramcp serves any installed Cobra CLI as an MCP server, and is
// a small MCP client for trying out stdio servers.
//
// Serving a CLI from outside (the binary after "--"; the same sub-commands,
// options and policies as `mycli mcp ...` of a CLI that links cobramcp):
//
//	cobramcp start -- kubectl                      # stdio MCP server for the kubectl on PATH
//	cobramcp tools -o - -- helm                    # export its tools
//	cobramcp claude enable -- kubectl --read-only  # a client entry running `cobramcp start -- kubectl ...`
//	cobramcp stream --addr :8080 --token-file t -- gh
//	cobramcp tool kubectl_get --schema -- kubectl
//	cobramcp mcp call kubectl_version '{}' -- kubectl   # one call, no client
//
// Options of the serving commands may also follow the binary
// (`cobramcp start -- kubectl --read-only`), which is how client entries
// are written.
//
// The client role (the command line after "--" starts a stdio MCP server):
//
//	cobramcp list -- yourcli mcp start
//	cobramcp call yourcli_get_pods '{"flags":{"namespace":"kube-system"}}' -- yourcli mcp start
//	cobramcp demo -- yourcli mcp start
//
// `call` exists in both roles: `cobramcp call TOOL [ARGS] -- SERVER...`
// calls a tool of a running MCP server, `cobramcp mcp call TOOL [ARGS] --
// BINARY` runs one call of a CLI served from outside, without a server.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/external"
	"github.com/cobramcp/cobramcp/mcpcmd"
	"github.com/cobramcp/cobramcp/toolset"
)

func main() {
	if err := execute(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		os.Exit(1)
	}
}

// roleAnnotation marks the commands of the client role, whose words after
// "--" are a server's command line, not a binary to serve.
const roleAnnotation = "cobramcp.client"

// execute runs cobramcp with args (without the program name).
func execute(args []string, out, errOut io.Writer) error {
	t := &target{}
	root := newRoot(out, t)
	root.SetArgs(t.split(root, args))
	root.SetOut(out)
	root.SetErr(errOut)
	// A reflection left running in the background (a start after the
	// served CLI changed) ends with the command: its processes are ended
	// and awaited before cobramcp exits.
	ctx, cancel := context.WithCancel(context.Background())
	err := root.ExecuteContext(ctx)
	cancel()
	for _, done := range t.background {
		<-done
	}
	return err
}

// target is the CLI served from outside: the binary named after "--".
type target struct {
	binary     string         // as given: a path or a name in PATH
	background []<-chan error // reflections running in the background
}

// split takes the binary out of the command line of a serving command:
// `start [OPTS] -- BINARY [MORE-OPTS]` becomes `start [OPTS] [MORE-OPTS]`,
// and `CLIENT enable [OPTS] -- BINARY [START-OPTS]` becomes
// `CLIENT enable [OPTS] -- [START-OPTS]`. The client role's command lines
// are left as they are.
func (t *target) split(root *cobra.Command, args []string) []string {
	dash := slices.Index(args, "--")
	if dash < 0 {
		return args
	}
	c, _, err := root.Find(args[:dash])
	if err != nil || c == root || c.Annotations[roleAnnotation] != "" {
		return args
	}
	if dash+1 >= len(args) {
		return args[:dash]
	}
	t.binary = args[dash+1]
	before, rest := slices.Clone(args[:dash]), args[dash+2:]
	if c.Name() == "enable" {
		return append(append(before, "--"), rest...)
	}
	return append(before, rest...)
}

// reflection options of the serving commands (persistent flags of the root).
type reflectFlags struct {
	overlay      string
	noBuiltin    bool
	refresh      bool
	noCache      bool
	cacheDir     string
	probeTimeout time.Duration
	budget       external.Options // Timeout, MaxCommands, MaxProcesses, MaxTimeouts
}

// add defines the reflection flags in fs.
func (rf *reflectFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&rf.overlay, "overlay", "", "JSON file (comments allowed) correcting the reflection of the served CLI (docs/external.md); without it, the overlay cobramcp ships for the CLI applies ("+strings.Join(external.BuiltinOverlays(), ", ")+")")
	fs.BoolVar(&rf.noBuiltin, "no-builtin-overlay", false, "do not apply the overlay cobramcp ships for the served CLI")
	fs.BoolVar(&rf.refresh, "refresh", false, "reflect the served CLI again instead of using the cache")
	fs.BoolVar(&rf.noCache, "no-cache", false, "neither read nor write the reflection cache")
	fs.StringVar(&rf.cacheDir, "cache-dir", "", "directory of the reflection cache (default <user cache dir>/cobramcp/external)")
	fs.DurationVar(&rf.probeTimeout, "probe-timeout", external.DefaultProbeTimeout, "time limit of each process that reflection starts")
	fs.DurationVar(&rf.budget.Timeout, "reflect-timeout", external.DefaultTimeout, "time limit of a whole reflection of the served CLI")
	fs.IntVar(&rf.budget.MaxCommands, "max-commands", external.DefaultMaxCommands, "most commands of the served CLI that reflection reads (a tree with no end stops there)")
	fs.IntVar(&rf.budget.MaxProcesses, "max-processes", external.DefaultMaxProcesses, "most processes of the served CLI that one reflection starts")
	fs.IntVar(&rf.budget.MaxTimeouts, "max-timeouts", external.DefaultMaxTimeouts, "processes of the served CLI that may not finish in time (each tried again) before reflection stops")
}

// entryArgs are the reflection flags set on c, for a client entry.
func (rf *reflectFlags) entryArgs(c *cobra.Command) []string {
	var args []string
	for _, name := range []string{"probe-timeout", "reflect-timeout", "max-commands", "max-processes", "max-timeouts"} {
		if f := c.Flag(name); f != nil && f.Changed {
			args = append(args, "--"+name, f.Value.String())
		}
	}
	return args
}

// load reflects the target binary and returns its toolset.
func (t *target) load(c *cobra.Command, rf *reflectFlags) (*toolset.Toolset, error) {
	if t.binary == "" {
		return nil, fmt.Errorf("name the Cobra CLI to serve after --, e.g. `cobramcp %s -- kubectl`", strings.TrimPrefix(c.CommandPath(), "cobramcp "))
	}
	log, err := mcpcmd.Logger(c)
	if err != nil {
		return nil, err
	}
	// A stdio server is started by a client that waits a few seconds for
	// it: after the CLI is upgraded, it serves the previous reflection
	// and reflects the new binary for the next start (external.Options.Stale).
	stale := c.Name() == "start"
	opts := &external.Options{Refresh: rf.refresh, NoCache: rf.noCache, CacheDir: rf.cacheDir, ProbeTimeout: rf.probeTimeout, Logger: log, Builtin: !rf.noBuiltin, Stale: stale,
		Timeout: rf.budget.Timeout, MaxCommands: rf.budget.MaxCommands, MaxProcesses: rf.budget.MaxProcesses, MaxTimeouts: rf.budget.MaxTimeouts}
	if rf.overlay != "" {
		if opts.Overlay, err = external.ReadOverlay(rf.overlay); err != nil {
			return nil, err
		}
	}
	r, err := external.Load(c.Context(), t.binary, opts)
	if err != nil {
		return nil, err
	}
	cfg := &toolset.Config{Executable: r.Path, Logger: log}
	if r.Refreshed != nil {
		t.background = append(t.background, r.Refreshed)
	}
	if r.Stale {
		cfg.Instructions = fmt.Sprintf("%s changed since it was reflected: these tools describe it as it was then (%s). A call runs the binary as it is now; an option it no longer knows fails with its own error. It is being reflected again, for the starts after this one.", r.Root.Name(), r.StaleSince)
	}
	return toolset.New(r.Root, cfg)
}

// entryPath is the binary as a client entry names it: absolute, found in
// PATH if need be, symlinks kept (the root's name comes from the link).
func (t *target) entryPath() string {
	p, err := osexec.LookPath(t.binary)
	if err != nil {
		p = t.binary
	}
	if a, err := filepath.Abs(p); err == nil {
		p = a
	}
	return p
}

// serverName is the name of the target's root command, which names its
// client entry and its <ROOT>_MCP_* variables; "" before a binary is
// named (cobramcp's own name is used then).
func (t *target) serverName() string {
	if t.binary == "" {
		return ""
	}
	if _, name, err := external.Resolve(t.binary); err == nil {
		return name
	}
	return strings.TrimSuffix(filepath.Base(t.binary), ".exe")
}

func newRoot(out io.Writer, t *target) *cobra.Command {
	root := &cobra.Command{
		Use:   "cobramcp",
		Short: "Serve any installed Cobra CLI as MCP tools; a small MCP client for stdio servers",
		Long: "Serve any installed Cobra CLI as MCP tools: `cobramcp start -- kubectl` reflects the binary\n" +
			"named after -- (through cobra's completion command and its help, cached) and serves its\n" +
			"commands exactly as a CLI that links cobramcp serves them with `mcp start`. Every serving\n" +
			"command (start, stream, tools, tool, CLIENT enable|disable|list, and all of them under `mcp`)\n" +
			"takes the binary after --; options may follow it.\n\n" +
			"As a client, list, call and demo start the MCP server whose command line follows --.\n" +
			"`call` exists in both roles: `cobramcp call TOOL [ARGS] -- SERVER...` is the client's,\n" +
			"`cobramcp mcp call TOOL [ARGS] -- BINARY` runs one call of a served CLI without a server.",
		Example: "  cobramcp start -- kubectl\n" +
			"  cobramcp tools -o - -- helm\n" +
			"  cobramcp claude enable -- kubectl --read-only\n" +
			"  cobramcp stream --addr :8080 --token-file t -- gh\n" +
			"  cobramcp mcp call kubectl_version '{}' -- kubectl\n" +
			"  cobramcp demo -- yourcli mcp start",
		SilenceUsage:  true,
		SilenceErrors: false,
	}
	rf := &reflectFlags{}
	rf.add(root.PersistentFlags())

	opts := mcpcmd.Options{
		Load:       func(c *cobra.Command) (*toolset.Toolset, error) { return t.load(c, rf) },
		DefaultEnv: func() map[string]string { return map[string]string{"PATH": os.Getenv("PATH")} },
		ServerName: func(*cobra.Command) string { return t.serverName() },
		EntryArgs: func(c *cobra.Command, start, extra []string) []string {
			args := append(slices.Clone(start), "--", t.entryPath())
			args = append(args, extra...)
			if f := c.Flag("overlay"); f != nil && f.Changed {
				if a, err := filepath.Abs(rf.overlay); err == nil {
					args = append(args, "--overlay", a)
				}
			}
			if f := c.Flag("cache-dir"); f != nil && f.Changed {
				if a, err := filepath.Abs(rf.cacheDir); err == nil {
					args = append(args, "--cache-dir", a)
				}
			}
			if f := c.Flag("no-builtin-overlay"); f != nil && f.Changed && rf.noBuiltin {
				args = append(args, "--no-builtin-overlay")
			}
			return append(args, rf.entryArgs(c)...)
		},
	}
	// The serving commands under `mcp`, as in an adopted CLI, and (all but
	// call, which is the client's at the top) at the top.
	group := mcpcmd.New(opts)
	top := mcpcmd.New(opts)
	root.PersistentFlags().AddFlagSet(top.PersistentFlags())
	for _, sub := range top.Commands() {
		if sub.Name() == "call" {
			continue
		}
		top.RemoveCommand(sub)
		root.AddCommand(sub)
	}
	group.Short = "The serving commands of an adopted CLI's `mcp` group, for the CLI after --"
	// The group's own copies: the policy takes flags set on the commands
	// above an mcp group for flags of the served CLI.
	rf.add(group.PersistentFlags())
	for _, c := range append(root.Commands(), group) {
		useBinary(c)
	}
	for _, c := range clientCommands(out) {
		root.AddCommand(c)
	}
	explainReadOnly(root)
	root.AddCommand(group)
	return root
}

// explainReadOnly makes a read-only policy that leaves nothing say why:
// from outside no command is marked read-only unless an overlay says so.
func explainReadOnly(c *cobra.Command) {
	for _, s := range c.Commands() {
		explainReadOnly(s)
	}
	run := c.RunE
	if run == nil || c.Flags().Lookup("read-only") == nil {
		return
	}
	c.RunE = func(c *cobra.Command, args []string) error {
		err := run(c, args)
		if ns := (*mcpcmd.NothingServedError)(nil); errors.As(err, &ns) && ns.ReadOnly {
			return fmt.Errorf("%w: from outside, no command is known to be read-only unless an overlay marks it: write an overlay with \"readOnly\": true on the commands that only read (\"commands\": {\"get\": {\"readOnly\": true}}) and give it with --overlay FILE (docs/external.md), or name the tools to serve with --tools; cobramcp ships overlays for %s", err, strings.Join(external.BuiltinOverlays(), ", "))
		}
		return err
	}
}

// useBinary adds "-- BINARY" to the usage lines of the serving commands.
func useBinary(c *cobra.Command) {
	for _, s := range c.Commands() {
		useBinary(s)
	}
	if c.Runnable() && !strings.Contains(c.Use, "BINARY") {
		if strings.Contains(c.Use, "[-- MCP-START-ARGS...]") {
			c.Use = strings.Replace(c.Use, "[-- MCP-START-ARGS...]", "-- BINARY [START-OPTIONS...]", 1)
		} else {
			c.Use += " -- BINARY"
		}
	}
}

// clientCommands are the commands of the client role.
func clientCommands(out io.Writer) []*cobra.Command {
	var timeout time.Duration
	session := func(c *cobra.Command, args []string, f func(ctx context.Context, s *mcp.ClientSession, before []string) error) error {
		dash := c.ArgsLenAtDash()
		if dash < 0 || dash == len(args) {
			return errors.New("give the server's command after --, e.g. -- yourcli mcp start")
		}
		ctx, cancel := context.WithTimeout(c.Context(), timeout)
		defer cancel()
		server := osexec.Command(args[dash], args[dash+1:]...)
		server.Stderr = os.Stderr
		client := mcp.NewClient(&mcp.Implementation{Name: "cobramcp", Version: "0.1.0"}, nil)
		s, err := client.Connect(ctx, &mcp.CommandTransport{Command: server}, nil)
		if err != nil {
			line := strings.Join(args[dash:], " ")
			// `cobramcp list -- kubectl`, by analogy with `start -- kubectl`:
			// the words after -- here are a server's command line.
			return fmt.Errorf("connecting to %s: %w: after -- `%s` takes the command line of an MCP server; to serve a Cobra CLI, put `cobramcp start --` before it (`%s -- cobramcp start -- %s`), or run one call without a server with `cobramcp mcp call TOOL ARGS -- %s`",
				line, err, c.Name(), strings.TrimSuffix(c.CommandPath(), " "), line, line)
		}
		defer s.Close()
		return f(ctx, s, args[:dash])
	}
	list := &cobra.Command{
		Use:   "list -- SERVER...",
		Short: "List the tools of the MCP server started by SERVER...",
		RunE: func(c *cobra.Command, args []string) error {
			return session(c, args, func(ctx context.Context, s *mcp.ClientSession, _ []string) error {
				for t, err := range s.Tools(ctx, nil) {
					if err != nil {
						return err
					}
					fmt.Fprintf(out, "%-32s %s\n", t.Name, summary(t.Description))
				}
				return nil
			})
		},
	}
	call := &cobra.Command{
		Use:   "call TOOL [ARGUMENTS_JSON] -- SERVER...",
		Short: "Call one tool of the MCP server started by SERVER... and print the result as JSON",
		RunE: func(c *cobra.Command, args []string) error {
			return session(c, args, func(ctx context.Context, s *mcp.ClientSession, before []string) error {
				if len(before) < 1 || len(before) > 2 {
					return errors.New("want TOOL and optionally ARGUMENTS_JSON before --")
				}
				raw := json.RawMessage("{}")
				if len(before) == 2 {
					raw = json.RawMessage(before[1])
				}
				res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: before[0], Arguments: raw})
				if err != nil {
					return err
				}
				b, err := json.MarshalIndent(res, "", "  ")
				if err != nil {
					return err
				}
				fmt.Fprintln(out, string(b))
				if res.IsError {
					return errors.New("the tool call failed")
				}
				return nil
			})
		},
	}
	demo := &cobra.Command{
		Use:   "demo -- SERVER...",
		Short: "One session against the MCP server started by SERVER...: list the tools and call a few",
		RunE: func(c *cobra.Command, args []string) error {
			return session(c, args, func(ctx context.Context, s *mcp.ClientSession, _ []string) error {
				return runDemo(ctx, s, out)
			})
		},
	}
	cmds := []*cobra.Command{list, call, demo}
	for _, c := range cmds {
		c.Annotations = map[string]string{roleAnnotation: "true"}
		c.Flags().DurationVar(&timeout, "timeout", time.Minute, "how long the whole session may take")
	}
	return cmds
}

// summaryWidth is the most bytes of a description that summary keeps.
const summaryWidth = 120

// summary is a tool's description on one line, for list and demo: its
// first paragraph with the line breaks made spaces, cut at a word past
// summaryWidth bytes. Whatever is left out is marked with "…".
func summary(s string) string {
	s = strings.TrimSpace(s)
	para, rest, _ := strings.Cut(s, "\n\n")
	line := strings.Join(strings.Fields(para), " ")
	cut := strings.TrimSpace(rest) != ""
	if len(line) > summaryWidth {
		i := strings.LastIndexByte(line[:summaryWidth], ' ')
		if i <= 0 {
			i = summaryWidth
			for i > 0 && !utf8.RuneStart(line[i]) {
				i--
			}
		}
		line, cut = strings.TrimSpace(line[:i]), true
	}
	if cut && !strings.HasSuffix(line, "…") {
		line += " …"
	}
	return line
}

// runDemo lists the tools and calls a few of them, showing what came back.
func runDemo(ctx context.Context, s *mcp.ClientSession, out io.Writer) error {
	init := s.InitializeResult()
	fmt.Fprintf(out, "== connected to %s %s (protocol %s)\n", init.ServerInfo.Name, init.ServerInfo.Version, init.ProtocolVersion)
	var names []string
	for t, err := range s.Tools(ctx, nil) {
		if err != nil {
			return err
		}
		names = append(names, t.Name)
		fmt.Fprintf(out, "   %-28s %s\n", t.Name, summary(t.Description))
	}
	fmt.Fprintf(out, "== %d tools\n", len(names))
	prefix := init.ServerInfo.Name + "_"
	calls := []struct{ what, tool, args string }{
		{"a plain call", "version", `{}`},
		{"flags by long name", "get_pods", `{"flags":{"namespace":"kube-system"}}`},
		{"structured output", "get_services", `{"flags":{"output":"json","namespace":"kube-system"}}`},
		{"a hostile arg stays an arg", "describe_pod", `{"args":["--namespace=kube-system"]}`},
		{"false turns off a default-true flag", "get_pods", `{"flags":{"headers":false}}`},
		{"bad input is refused, nothing runs", "scale_deployment", `{"flags":{"replicas":"three"},"args":["web"]}`},
		{"an unknown flag is refused", "get_pods", `{"flags":{"token":"x"}}`},
		{"large output keeps head and tail", "logs", `{"args":["web-7f9c4d-abc12"],"flags":{"bytes":3000000}}`},
	}
	for _, call := range calls {
		name := prefix + call.tool
		fmt.Fprintf(out, "\n== %s: %s %s\n", call.what, name, call.args)
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(call.args)})
		if err != nil {
			fmt.Fprintf(out, "   protocol error: %v\n", err)
			continue
		}
		text := ""
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				text += t.Text
			}
		}
		text = shorten(text)
		fmt.Fprintf(out, "   isError=%v\n%s\n", res.IsError, indent(text))
	}
	return nil
}

// shorten keeps a long text readable: around the server's own marker of
// left-out output if there is one, else its start and end. What it leaves
// out is marked with the number of bytes.
func shorten(text string) string {
	const keep = 240
	if len(text) <= 3*keep {
		return text
	}
	left := func(n int) string { return fmt.Sprintf("[demo: %d bytes not shown]", n) }
	if i := strings.Index(text, "[... cobramcp:"); i >= 0 {
		end := len(text)
		if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
			end = i + j + 1
		}
		from, to := max(0, i-keep), min(len(text), end+keep)
		out := strings.TrimSuffix(text[from:to], "\n")
		if from > 0 {
			out = left(from) + "\n" + out
		}
		if to < len(text) {
			out += "\n" + left(len(text)-to)
		}
		return out
	}
	return text[:keep] + "\n" + left(len(text)-2*keep) + "\n" + text[len(text)-keep:]
}

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	return "   | " + strings.ReplaceAll(s, "\n", "\n   | ")
}
