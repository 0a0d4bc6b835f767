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
// The client role (a real MCP session, to try a CLI without a client):
//
//	cobramcp list -- kubectl                       # the tools `start -- kubectl` serves
//	cobramcp call kubectl_version '{}' -- kubectl  # one call through `start -- kubectl`
//	cobramcp demo -- yourcli
//	cobramcp list -- yourcli mcp start             # more words: an MCP server's command line
//	cobramcp list --server -- some-mcp-server      # one word that is a server
//
// After -- one word is a Cobra CLI to serve, more words are an MCP
// server's command line; --server makes one word a server's too.
// `cobramcp mcp call TOOL [ARGS] -- BINARY` runs one call of a served CLI
// without a server, as an adopted CLI's `mcp call` does.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/internal/external"
	"github.com/cobramcp/cobramcp/oauth"
	"github.com/cobramcp/cobramcp/telemetry"
	"github.com/cobramcp/cobramcp/toolset"
)

func main() {
	if err := execute(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		os.Exit(1)
	}
}

// roleAnnotation marks the commands of the client role (list, call, demo),
// which read the words after "--" themselves (clientRule): split leaves
// them as they are.
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
	fs           *pflag.FlagSet // the flags below, as add defined them
	overlay      string
	noBuiltin    bool
	refresh      bool
	noCache      bool
	cacheDir     string
	probeTimeout time.Duration
	budget       external.Options // Timeout, MaxCommands, MaxProcesses, MaxTimeouts
}

// Annotations of the reflection flags: entryFlag marks those a client
// entry keeps (the others, such as --refresh, are for one run);
// pathFlag those whose value is a path, written absolute.
const (
	entryFlag = "cobramcp.entry"
	pathFlag  = "cobramcp.path"
)

// add defines the reflection flags in fs.
func (rf *reflectFlags) add(fs *pflag.FlagSet) {
	own := pflag.NewFlagSet("reflection", pflag.ContinueOnError)
	own.StringVar(&rf.overlay, "overlay", "", "JSON file (comments allowed) correcting the reflection of the served CLI (docs/external.md); without it, the overlay cobramcp ships for the CLI applies ("+strings.Join(external.BuiltinOverlays(), ", ")+")")
	own.BoolVar(&rf.noBuiltin, "no-builtin-overlay", false, "do not apply the overlay cobramcp ships for the served CLI")
	own.BoolVar(&rf.refresh, "refresh", false, "reflect the served CLI again instead of using the cache")
	own.BoolVar(&rf.noCache, "no-cache", false, "neither read nor write the reflection cache")
	own.StringVar(&rf.cacheDir, "cache-dir", "", "directory of the reflection cache (default <user cache dir>/cobramcp/external)")
	own.DurationVar(&rf.probeTimeout, "probe-timeout", external.DefaultProbeTimeout, "time limit of each process that reflection starts")
	own.DurationVar(&rf.budget.Timeout, "reflect-timeout", external.DefaultTimeout, "time limit of a whole reflection of the served CLI")
	own.IntVar(&rf.budget.MaxCommands, "max-commands", external.DefaultMaxCommands, "most commands of the served CLI that reflection reads (a tree with no end stops there)")
	own.IntVar(&rf.budget.MaxProcesses, "max-processes", external.DefaultMaxProcesses, "most processes of the served CLI that one reflection starts")
	own.IntVar(&rf.budget.MaxTimeouts, "max-timeouts", external.DefaultMaxTimeouts, "processes of the served CLI that may not finish in time (each tried again) before reflection stops")
	for _, name := range []string{"overlay", "no-builtin-overlay", "cache-dir", "probe-timeout", "reflect-timeout", "max-commands", "max-processes", "max-timeouts"} {
		_ = own.SetAnnotation(name, entryFlag, []string{"true"})
	}
	for _, name := range []string{"overlay", "cache-dir"} {
		_ = own.SetAnnotation(name, pathFlag, []string{"true"})
	}
	rf.fs = own
	fs.AddFlagSet(own)
}

// args returns the reflection flags given, as arguments to pass on to
// another cobramcp: those a client entry keeps when entry is true, else
// all. Paths are made absolute.
func (rf *reflectFlags) args(entry bool) []string {
	var out []string
	rf.fs.VisitAll(func(f *pflag.Flag) {
		if !f.Changed || entry && f.Annotations[entryFlag] == nil {
			return
		}
		v := f.Value.String()
		if f.Annotations[pathFlag] != nil {
			if a, err := filepath.Abs(v); err == nil {
				v = a
			}
		}
		if f.Value.Type() == "bool" {
			if v == "true" {
				out = append(out, "--"+f.Name)
			}
			return
		}
		out = append(out, "--"+f.Name, v)
	})
	return out
}

// tree reflects the target binary: its command tree, and the Config to
// serve it with (the overlay's call limits, if it has any).
func (t *target) tree(c *cobra.Command, rf *reflectFlags, log *slog.Logger) (*cobra.Command, *toolset.Config, error) {
	if t.binary == "" {
		return nil, nil, fmt.Errorf("name the Cobra CLI to serve after --, e.g. `cobramcp %s -- kubectl`", strings.TrimPrefix(c.CommandPath(), "cobramcp "))
	}
	// A stdio server is started by a client that waits a few seconds for
	// it: after the CLI is upgraded, it serves the previous reflection
	// and reflects the new binary for the next start (external.Options.Stale).
	stale := c.Name() == "start"
	opts := &external.Options{Refresh: rf.refresh, NoCache: rf.noCache, CacheDir: rf.cacheDir, ProbeTimeout: rf.probeTimeout, Logger: log, Builtin: !rf.noBuiltin, Stale: stale,
		Timeout: rf.budget.Timeout, MaxCommands: rf.budget.MaxCommands, MaxProcesses: rf.budget.MaxProcesses, MaxTimeouts: rf.budget.MaxTimeouts}
	if rf.overlay != "" {
		var err error
		if opts.Overlay, err = external.ReadOverlay(rf.overlay); err != nil {
			return nil, nil, err
		}
	}
	timeout, maxOutput, maxParallel, err := opts.Overlay.CallLimits()
	if err != nil {
		return nil, nil, err
	}
	r, err := external.Load(c.Context(), t.binary, opts)
	if err != nil {
		return nil, nil, err
	}
	cfg := &toolset.Config{Executable: r.Path, Logger: log, Timeout: timeout, MaxOutput: maxOutput, MaxParallel: maxParallel}
	if r.Refreshed != nil {
		t.background = append(t.background, r.Refreshed)
	}
	if r.Stale {
		cfg.Instructions = fmt.Sprintf("%s changed since it was reflected: these tools describe it as it was then (%s). A call runs the binary as it is now; an option it no longer knows fails with its own error. It is being reflected again, for the starts after this one.", r.Root.Name(), r.StaleSince)
	}
	return r.Root, cfg, nil
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
			"command (start, stream, tools, tool, CLIENT enable|disable|list, mcp call) takes the binary\n" +
			"after --; options may follow it.\n\n" +
			"As a client, list, call and demo hold a real MCP session. " + clientRule + "\n" +
			"`cobramcp mcp call TOOL [ARGS] -- BINARY` runs one call of a served CLI without a server.",
		Example: "  cobramcp start -- kubectl\n" +
			"  cobramcp tools -o - -- helm\n" +
			"  cobramcp claude enable -- kubectl --read-only\n" +
			"  cobramcp stream --addr :8080 --token-file t -- gh\n" +
			"  cobramcp list -- kubectl\n" +
			"  cobramcp call kubectl_version '{}' -- kubectl\n" +
			"  cobramcp demo -- yourcli mcp start",
		SilenceUsage:  true,
		SilenceErrors: false,
	}
	rf := &reflectFlags{}
	rf.add(root.PersistentFlags())

	// The client role's commands first: their call is the top's, and the
	// mcp group keeps the serving one (`cobramcp mcp call`).
	for _, c := range clientCommands(out, t, rf) {
		root.AddCommand(c)
	}
	group := bridge.New(bridge.Options{
		Parent: root,
		Tree: func(c *cobra.Command, log *slog.Logger) (*cobra.Command, *toolset.Config, error) {
			return t.tree(c, rf, log)
		},
		DefaultEnv: func() map[string]string { return map[string]string{"PATH": os.Getenv("PATH")} },
		Outside: &bridge.Outside{
			Name: t.serverName,
			EntryArgs: func(start, extra []string) []string {
				args := append(slices.Clone(start), "--", t.entryPath())
				return append(append(args, extra...), rf.args(true)...)
			},
		},
	}, bridge.WithOAuth(oauth.New), bridge.WithTelemetry(telemetry.New)) // the team server: cobramcp links every part
	group.Short = "Run one call of the CLI after -- without a server (`mcp call TOOL [ARGS] -- BINARY`)"
	group.Long = "`cobramcp mcp call TOOL [ARGS] -- BINARY` runs one call of the Cobra CLI named after --\n" +
		"through the same path as `cobramcp start -- BINARY` (validation, argv, limits), without a\n" +
		"server, as an adopted CLI's `mcp call` does. The other serving commands are at the top:\n" +
		"`cobramcp start|stream|tools|tool|CLIENT ... -- BINARY`."
	root.AddCommand(group)
	for _, c := range root.Commands() {
		if c.Annotations[roleAnnotation] == "" {
			useBinary(c)
		}
	}
	explainReadOnly(root)
	return root
}

// explainReadOnly makes a read-only policy that leaves nothing say why:
// from outside no command is marked read-only unless an overlay says so.
func explainReadOnly(c *cobra.Command) {
	for _, s := range c.Commands() {
		explainReadOnly(s)
	}
	run := c.RunE
	if run == nil { // a command with --read-only, or one that plans a server's (CLIENT enable -- ... --read-only)
		return
	}
	c.RunE = func(c *cobra.Command, args []string) error {
		err := run(c, args)
		var pe *toolset.PolicyError
		if errors.As(err, &pe) && errors.Is(pe, toolset.ErrNothingServed) && slices.Contains(pe.Active, toolset.SettingReadOnly) {
			return fmt.Errorf("%w: from outside, no command is known to be read-only unless an overlay says which are (--overlay FILE with \"readOnly\": true on them, see docs/external.md; cobramcp ships one for %s), or choose the tools to serve with --tools instead", err, strings.Join(external.BuiltinOverlays(), ", "))
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

// clientRule is how the client role's commands read the words after --,
// for their help.
const clientRule = "After --, one word is a Cobra CLI to serve: the session is with `cobramcp start -- BINARY`,\n" +
	"which reflects it as start does (the reflection flags given here apply). More words are the\n" +
	"command line of an MCP server (`-- yourcli mcp start`, `-- npx -y some-server`); --server\n" +
	"makes one word a server's command line too."

// servedFailure is the error of a client command whose `start -- BIN`
// did not serve: start's own error, on stderr above, says why (and what
// to try: an overlay that leaves out a command whose help cannot be read).
// When BIN is no Cobra CLI (said holds the end of start's stderr), BIN is
// asked for an MCP handshake: only if it answers is --server offered.
func servedFailure(ctx context.Context, bin string, err error, said string) error {
	if !strings.Contains(said, external.ErrNotCobra.Error()) {
		return fmt.Errorf("serving %s: %w (`cobramcp start -- %s` could not serve it: its error is above)", bin, err, bin)
	}
	if answersMCP(ctx, bin, 5*time.Second) {
		return fmt.Errorf("serving %s: %w: %s is no Cobra CLI but answers as an MCP server: give --server to talk to it as one", bin, err, bin)
	}
	return fmt.Errorf("serving %s: %w: %s is not a Cobra CLI (it does not answer cobra's completion command), and it does not answer an MCP handshake on stdin either", bin, err, bin)
}

// answersMCP reports whether bin, started with no args, answers an MCP
// client's initialize request on stdin within timeout; it is ended then.
func answersMCP(ctx context.Context, bin string, timeout time.Duration) bool {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := osexec.CommandContext(ctx, bin)
	client := mcp.NewClient(&mcp.Implementation{Name: "cobramcp", Version: "0.1.0"}, nil)
	s, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
	if err != nil {
		return false
	}
	_ = s.Close()
	return true
}

// tail keeps the last max bytes written to it.
type tail struct {
	max int
	mu  sync.Mutex
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// clientCommands are the commands of the client role.
func clientCommands(out io.Writer, t *target, rf *reflectFlags) []*cobra.Command {
	var timeout time.Duration
	var asServer bool
	session := func(c *cobra.Command, args []string, f func(ctx context.Context, s *mcp.ClientSession, before []string) error) error {
		dash := c.ArgsLenAtDash()
		if dash < 0 || dash == len(args) {
			return errors.New("give the Cobra CLI to serve after -- (-- kubectl), or an MCP server's command line (-- yourcli mcp start)")
		}
		line := args[dash:]
		served := len(line) == 1 && !asServer
		if served {
			self, err := os.Executable()
			if err != nil {
				return fmt.Errorf("finding cobramcp's own executable to serve %s: %w", line[0], err)
			}
			level := "warn"
			if f := c.Flag("mcp-log-level"); f != nil && f.Changed {
				level = f.Value.String()
			}
			line = append(append([]string{self, "start", "--mcp-log-level=" + level}, rf.args(false)...), "--", line[0])
		}
		ctx, cancel := context.WithTimeout(c.Context(), timeout)
		defer cancel()
		server := osexec.Command(line[0], line[1:]...)
		// What the server says goes on to stderr; its end is kept, to
		// tell why a served CLI could not be read.
		said := &tail{max: 4096}
		server.Stderr = io.MultiWriter(os.Stderr, said)
		client := mcp.NewClient(&mcp.Implementation{Name: "cobramcp", Version: "0.1.0"}, nil)
		s, err := client.Connect(ctx, &mcp.CommandTransport{Command: server}, nil)
		if err != nil {
			what := strings.Join(args[dash:], " ")
			if served {
				return servedFailure(c.Context(), what, err, said.String())
			}
			return fmt.Errorf("connecting to %s: %w: after -- more than one word is an MCP server's command line; to serve a Cobra CLI, give it alone after -- (`%s -- BINARY`)", what, err, c.CommandPath())
		}
		defer s.Close()
		return f(ctx, s, args[:dash])
	}
	list := &cobra.Command{
		Use:   "list [--server] -- BINARY | SERVER...",
		Short: "List the tools that `start -- BINARY` serves, or those of the MCP server SERVER...",
		Long:  "List the tools, one a line with the start of its description.\n\n" + clientRule,
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
		Use:   "call TOOL [ARGUMENTS_JSON] [--server] -- BINARY | SERVER...",
		Short: "Call one tool through a real MCP session and print the result as JSON",
		Long: "Call the tool TOOL with the arguments ARGUMENTS_JSON ({} when absent) and print the\n" +
			"CallToolResult as JSON; the exit status is non-zero when the call failed.\n\n" + clientRule + "\n\n" +
			"`cobramcp mcp call TOOL ARGS -- BINARY` runs the same call without a server.",
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
		Use:   "demo [--server] -- BINARY | SERVER...",
		Short: "One session: list the tools and call a few (the calls of `make demo`, made for this project's example CLI)",
		Long:  "List the tools, then call a few of them, showing what comes back.\n\n" + clientRule,
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
		c.Flags().BoolVar(&asServer, "server", false, "the words after -- are an MCP server's command line, even one word")
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
