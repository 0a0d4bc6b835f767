package bridge

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/cobramcp/cobramcp/internal/clientcfg"
	"github.com/spf13/cobra"
)

// newClientCmds returns one command per supported MCP client (claude,
// claude-code, vscode, cursor, gemini, codex, windsurf), each with enable,
// disable and list.
func newClientCmds(o *Options) []*cobra.Command {
	var cmds []*cobra.Command
	for _, cl := range clientcfg.Clients() {
		cmds = append(cmds, newClientCmd(o, cl))
	}
	return cmds
}

// clientFlags are the flags every sub-command of a client has.
type clientFlags struct {
	scope      string
	configPath string
}

func newClientCmd(o *Options, cl clientcfg.Client) *cobra.Command {
	c := &cobra.Command{
		Use:   cl.ID,
		Short: "Set this CLI up as an MCP server in " + cl.Name,
		Long: "Add this CLI to " + cl.Name + "'s MCP servers (enable), remove it (disable), or show the servers\n" +
			"configured there (list). Every other setting and server in the file is kept as it was,\n" +
			"comments included; the previous version is kept beside the file as FILE.bak.",
		Args: subcommandArgs,
		RunE: func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	c.AddCommand(newEnableCmd(o, cl), newDisableCmd(o, cl), newListCmd(o, cl))
	return c
}

func addLocationFlags(c *cobra.Command, cl clientcfg.Client, f *clientFlags) {
	if len(cl.Scopes()) > 1 {
		c.Flags().StringVar(&f.scope, "scope", string(clientcfg.User),
			"which configuration: user (all projects) or project (the file in the current directory)")
	}
	c.Flags().StringVar(&f.configPath, "config-path", "", "edit this file instead of "+cl.Name+"'s usual one")
}

// file returns the configuration file chosen by the flags.
func (f *clientFlags) file(cl clientcfg.Client) (clientcfg.File, clientcfg.Scope, error) {
	scope := clientcfg.User
	if f.scope != "" {
		scope = clientcfg.Scope(f.scope)
		if !slices.Contains(cl.Scopes(), scope) {
			return clientcfg.File{}, "", fmt.Errorf("--scope %q: %s has %s", f.scope, cl.Name, joinScopes(cl.Scopes()))
		}
	}
	if f.configPath != "" {
		return cl.File(f.configPath), scope, nil
	}
	h, err := clientcfg.CurrentHost()
	if err != nil {
		return clientcfg.File{}, "", err
	}
	path, err := cl.Path(h, scope)
	if err != nil {
		return clientcfg.File{}, "", err
	}
	return cl.File(path), scope, nil
}

func joinScopes(s []clientcfg.Scope) string {
	var out []string
	for _, x := range s {
		out = append(out, string(x))
	}
	return strings.Join(out, " and ")
}

func newEnableCmd(o *Options, cl clientcfg.Client) *cobra.Command {
	var (
		loc    clientFlags
		name   string
		envs   []string
		dryRun bool
	)
	c := &cobra.Command{
		Use:   "enable [flags] [-- MCP-START-ARGS...]",
		Short: "Add this CLI to " + cl.Name + "'s MCP servers",
		Long: "Add this CLI to " + cl.Name + "'s MCP servers, or update the entry of the same name: its command,\n" +
			"arguments and the environment variables set here change; an entry switched off (\"disabled\": true,\n" +
			"Codex's enabled = false) is switched on; any other setting in it (and any other variable) is\n" +
			"kept. A remote server of that name is left alone: pick another --server-name.\n" +
			"The entry runs this binary (its absolute path, symlinks resolved) with `mcp start` and the\n" +
			"arguments after --, e.g. `-- --tools 'CLINAME_get_*'` to serve only some tools.\n" +
			"Environment variables captured by the CLI (such as PATH) and --env KEY=VALUE are written\n" +
			"into the entry, since clients start servers with a minimal environment.\n" +
			"Unless the arguments choose --tool-mode, the mode that fits the client is written: full for a\n" +
			"client that loads tool definitions on demand (Claude Code), search when the tools exceed the\n" +
			"client's count (e.g. Cursor's 40). A warning says when the tools still exceed the client's\n" +
			"count or a tool name with the client's prefix exceeds its name limit.",
		Args: func(c *cobra.Command, args []string) error {
			if len(args) > 0 && c.ArgsLenAtDash() != 0 {
				return fmt.Errorf("unexpected argument %q: arguments for `mcp start` go after --", args[0])
			}
			return nil
		},
		RunE: func(c *cobra.Command, extra []string) error {
			file, scope, err := loc.file(cl)
			if err != nil {
				return err
			}
			if name == "" {
				name = serverName(o, c)
			}
			more, notes, err := planStart(o, c, cl, name, extra)
			if err != nil {
				return err
			}
			extra = append(slices.Clone(extra), more...)
			env, err := entryEnv(o, envs)
			if err != nil {
				return err
			}
			exe, err := executable()
			if err != nil {
				return err
			}
			if w := goRunWarning(exe); w != "" {
				notes = append(notes, w)
			}
			args := entryArgs(o, c, extra)
			secrets := entrySecrets(envs, extra)
			file.Private = len(secrets) > 0
			ch, err := file.Set(name, cl.Server(exe, args, env), dryRun)
			if err != nil {
				return err
			}
			tightened := tightenedNote(ch, secrets, dryRun)
			w := c.OutOrStdout()
			where := describe(cl, scope, loc.configPath != "", ch.Path)
			if dryRun {
				for _, n := range notes {
					fmt.Fprintln(c.ErrOrStderr(), n)
				}
				var switched string
				if ch.Enabled != "" {
					switched = fmt.Sprintf("The entry is switched off (%s); it would be switched on (%s).", switchText(file.Format, ch.Enabled, false), switchText(file.Format, ch.Enabled, true))
				}
				if err := printDryRun(w, ch, "enable", name, where, switched); err != nil || tightened == "" {
					return err
				}
				_, err := fmt.Fprintln(w, tightened)
				return err
			}
			switch {
			case !ch.Changed():
				fmt.Fprintf(w, "Server %q in %s is already up to date; nothing changed.\n", name, where)
			case ch.Found:
				if parts := changedParts(file, ch, name); len(parts) > 0 {
					fmt.Fprintf(w, "Updated server %q in %s: its %s.\n", name, where, joinAnd(parts))
				} else {
					fmt.Fprintf(w, "Updated server %q in %s.\n", name, where)
				}
			default:
				fmt.Fprintf(w, "Added server %q to %s.\n", name, where)
			}
			if ch.Enabled != "" {
				fmt.Fprintf(w, "The entry was switched off (%s); it is switched on now (%s).\n", switchText(file.Format, ch.Enabled, false), switchText(file.Format, ch.Enabled, true))
			}
			if len(ch.Kept) > 0 && ch.Changed() {
				fmt.Fprintf(w, "Kept the entry's other settings: %s.\n", strings.Join(ch.Kept, ", "))
			}
			if ch.Backup != "" {
				fmt.Fprintf(w, "The previous version is in %s.\n", ch.Backup)
			}
			if tightened != "" {
				fmt.Fprintln(w, tightened)
			}
			if ch.Changed() {
				fmt.Fprintf(w, "Command: %s\n", shellJoin(append([]string{exe}, args...)))
				if e := envSummary(o, env); e != "" {
					fmt.Fprintln(w, e)
				}
				fmt.Fprintf(w, "Restart %s (or reload its MCP servers) to use it.\n", cl.Name)
			}
			for _, n := range notes {
				fmt.Fprintln(c.ErrOrStderr(), n)
			}
			return nil
		},
	}
	withExamples(c, func(path string) string {
		name := helpName(o, c)
		after := "--"
		if o.Outside != nil { // served from outside: the binary comes first
			after += " " + name
		}
		ex := []string{path + " " + after, path + " --dry-run " + after, path + " --env KEY=VALUE " + after + " --tools '" + name + "_get_*'"}
		if o.Outside == nil {
			ex[0], ex[1] = path, path+" --dry-run"
		}
		if len(cl.Scopes()) > 1 {
			ex[1] = strings.Replace(ex[1], " --dry-run", " --scope project --dry-run", 1)
		}
		return "  " + strings.Join(ex, "\n  ")
	})
	addLocationFlags(c, cl, &loc)
	c.Flags().StringVar(&name, "server-name", "", "name of the server entry (default: the CLI's name)")
	listFlag(c.Flags(), &envs, "env", "environment variable for the server, KEY=VALUE (repeatable; wins over captured ones)", true)
	c.Flags().BoolVar(&dryRun, "dry-run", false, "print the change without writing it")
	c.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return startFlagHint(o, c, err) })
	return c
}

// startFlagHint adds to enable's unknown-flag error, when the flag is one
// of mcp start's (--read-only, --tools...), that it goes after "--".
func startFlagHint(o *Options, c *cobra.Command, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok || o.start == nil {
		return err
	}
	name, _, _ = strings.Cut(name, "=")
	if s := o.start; s.Flags().Lookup(name) != nil {
		return fmt.Errorf("%w: --%s is a flag of %s, which the entry runs: give it after --, as in %s -- --%s", err, name, s.CommandPath(), c.CommandPath(), name)
	}
	return err
}

func newDisableCmd(o *Options, cl clientcfg.Client) *cobra.Command {
	var (
		loc    clientFlags
		name   string
		dryRun bool
	)
	c := &cobra.Command{
		Use:   "disable",
		Short: "Remove this CLI from " + cl.Name + "'s MCP servers",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			file, scope, err := loc.file(cl)
			if err != nil {
				return err
			}
			if name == "" && o.Outside != nil && outsideName(o) == "" {
				// A CLI served from outside names its entry: without it,
				// the entry of another name would be looked for.
				return fmt.Errorf("name the served CLI after -- (its entry is named after it), e.g. `%s -- kubectl`, or give --name", c.CommandPath())
			}
			if name == "" {
				name = serverName(o, c)
			}
			ch, err := file.Remove(name, dryRun)
			if err != nil {
				return err
			}
			w := c.OutOrStdout()
			where := describe(cl, scope, loc.configPath != "", ch.Path)
			switch {
			case !ch.Found:
				fmt.Fprintf(w, "No server %q in %s; nothing changed.\n", name, where)
			case dryRun:
				var del string
				if ch.Deleted {
					del = fmt.Sprintf("It would delete %s, which would hold nothing else.", ch.Path)
				}
				return printDryRun(w, ch, "disable", name, where, del)
			default:
				fmt.Fprintf(w, "Removed server %q from %s.\n", name, where)
				if ch.Deleted {
					fmt.Fprintf(w, "%s held nothing else, so it was deleted.\n", ch.Path)
				}
				if ch.Backup != "" {
					fmt.Fprintf(w, "The previous version is in %s.\n", ch.Backup)
				}
			}
			return nil
		},
	}
	addLocationFlags(c, cl, &loc)
	c.Flags().StringVar(&name, "server-name", "", "name of the server entry (default: the CLI's name)")
	c.Flags().BoolVar(&dryRun, "dry-run", false, "print the change without writing it")
	return c
}

func newListCmd(o *Options, cl clientcfg.Client) *cobra.Command {
	var loc clientFlags
	c := &cobra.Command{
		Use:   "list",
		Short: "Show the MCP servers in " + cl.Name + "'s configuration; * marks this CLI",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			file, scope, err := loc.file(cl)
			if err != nil {
				return err
			}
			entries, err := file.List()
			if err != nil {
				return err
			}
			w := c.OutOrStdout()
			fmt.Fprintf(w, "%s:\n", describe(cl, scope, loc.configPath != "", file.Path))
			if len(entries) == 0 {
				fmt.Fprintln(w, "  no MCP servers")
				return nil
			}
			exe, _ := executable()
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			for _, e := range entries {
				mark := " "
				if isThisCLI(e.Server, exe, serverName(o, c), entryArgs(o, c, nil), o.Outside != nil) {
					mark = "*"
				}
				what := e.URL
				if e.Command != "" {
					what = shellJoin(append([]string{e.Command}, e.Args...))
				}
				fmt.Fprintf(tw, "%s %s\t%s\n", mark, e.Name, what)
			}
			return tw.Flush()
		},
	}
	addLocationFlags(c, cl, &loc)
	return c
}

// withExamples fills c's examples when its help is shown, from its full
// command path and the root's name (neither is known when c is built).
func withExamples(c *cobra.Command, examples func(path string) string) {
	c.SetHelpFunc(func(cc *cobra.Command, args []string) {
		cc.Example = examples(cc.CommandPath())
		if p := cc.Parent(); p != nil {
			p.HelpFunc()(cc, args)
		}
	})
}

// describe names a configuration file for messages.
func describe(cl clientcfg.Client, scope clientcfg.Scope, custom bool, path string) string {
	if custom || len(cl.Scopes()) == 1 {
		return fmt.Sprintf("%s config %s", cl.Name, path)
	}
	return fmt.Sprintf("%s %s config %s", cl.Name, scope, path)
}

// switchText shows the member that switches an entry off or on
// (clientcfg.Change.Enabled) as the file writes it: "disabled": true for
// off in JSON, enabled = false for off in Codex's TOML.
func switchText(f clientcfg.Format, member string, on bool) string {
	v := on
	if member == "disabled" {
		v = !on
	}
	if f == clientcfg.TOML {
		return fmt.Sprintf("%s = %t", member, v)
	}
	return fmt.Sprintf("%q: %t", member, v)
}

// printDryRun says what a dry run would do, then lines (those not empty),
// then the diff.
func printDryRun(w io.Writer, ch *clientcfg.Change, verb, name, where string, lines ...string) error {
	if !ch.Changed() {
		fmt.Fprintf(w, "Dry run: %s %q would change nothing in %s.\n", verb, name, where)
		return nil
	}
	action := "add"
	if verb == "disable" {
		action = "remove"
	} else if ch.Found {
		action = "update"
	}
	fmt.Fprintf(w, "Dry run: would %s server %q in %s; nothing was written.\n", action, name, where)
	if len(ch.Kept) > 0 {
		fmt.Fprintf(w, "It would keep the entry's other settings: %s.\n", strings.Join(ch.Kept, ", "))
	}
	for _, l := range lines {
		if l != "" {
			fmt.Fprintln(w, l)
		}
	}
	_, err := io.WriteString(w, clientcfg.Diff(ch.Path, ch.Before, ch.After))
	return err
}

// executable is the absolute, symlink-resolved path of the running binary.
func executable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find this program's path: %w", err)
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return filepath.Abs(exe)
}

// serverName is the default name of the client entry.
func serverName(o *Options, c *cobra.Command) string {
	if name := outsideName(o); name != "" {
		return name
	}
	return c.Root().Name()
}

// outsideName is the name of the CLI served from outside, "" when there
// is none or it is not named yet.
func outsideName(o *Options) string {
	if o.Outside == nil || o.Outside.Name == nil {
		return ""
	}
	return o.Outside.Name()
}

// entryArgs returns the arguments of a client entry's command line.
func entryArgs(o *Options, c *cobra.Command, extra []string) []string {
	if o.Outside != nil && o.Outside.EntryArgs != nil {
		return o.Outside.EntryArgs(startArgs(c), extra)
	}
	return append(startArgs(c), extra...)
}

// startArgs returns the arguments after the binary that run `mcp start`
// from the command c of the client group: the path from the root to the
// mcp group, then "start".
func startArgs(c *cobra.Command) []string {
	// c is ROOT ... GROUP CLIENT VERB: the group is two levels up.
	group := c
	if p := c.Parent(); p != nil && p.Parent() != nil {
		group = p.Parent()
	}
	path := strings.Fields(group.CommandPath())
	return append(slices.Clone(path[1:]), "start")
}

// entryEnv merges the CLI author's captured variables with --env values;
// --env wins.
func entryEnv(o *Options, envs []string) (map[string]string, error) {
	env := map[string]string{}
	if o.DefaultEnv != nil {
		maps.Copy(env, o.DefaultEnv())
	}
	for _, kv := range envs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--env %q: want KEY=VALUE", kv)
		}
		env[k] = v
	}
	if len(env) == 0 {
		return nil, nil
	}
	return env, nil
}

// envSummary says which variables the entry sets, by name (a value may
// be a secret), and why the captured ones are there: clients start servers
// with a minimal environment.
func envSummary(o *Options, env map[string]string) string {
	if len(env) == 0 {
		return ""
	}
	captured := map[string]string{}
	if o.DefaultEnv != nil {
		captured = o.DefaultEnv()
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(env)) {
		if v, ok := captured[k]; ok && v == env[k] {
			parts = append(parts, k+" (this shell's, captured)")
		} else {
			parts = append(parts, k+" (--env)")
		}
	}
	return "Environment written into the entry: " + strings.Join(parts, ", ") + ". Clients start servers with a minimal environment; a captured value is not updated when yours changes: run enable again."
}

// isThisCLI reports whether an entry starts this CLI's server: the same
// binary, or a binary of the CLI's name running `mcp start`.
func isThisCLI(s clientcfg.Server, exe, name string, start []string, strict bool) bool {
	if s.Command == "" {
		return false
	}
	cmdPath := s.Command
	if r, err := filepath.EvalSymlinks(cmdPath); err == nil {
		cmdPath = r
	}
	hasStart := len(s.Args) >= len(start) && slices.Equal(s.Args[:len(start)], start)
	if strict {
		// One executable serves many CLIs (cobramcp): the arguments that
		// name the CLI must match too.
		return exe != "" && cmdPath == exe && hasStart
	}
	if exe != "" && cmdPath == exe {
		return true
	}
	base := strings.TrimSuffix(filepath.Base(s.Command), ".exe")
	return base == name && hasStart
}

// shellJoin quotes args for display as a POSIX shell command line.
func shellJoin(args []string) string {
	var out []string
	for _, a := range args {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
		}) < 0 {
			out = append(out, a)
			continue
		}
		out = append(out, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	return strings.Join(out, " ")
}

// changedParts names what Set changed in the entry name between ch.Before
// and ch.After, "command", "arguments", "environment variables", nil when
// neither can be read or none of them changed (only its switch, say).
func changedParts(f clientcfg.File, ch *clientcfg.Change, name string) []string {
	entry := func(src []byte) (clientcfg.Entry, bool) {
		entries, err := clientcfg.List(f.Format, src, f.Key)
		if err != nil {
			return clientcfg.Entry{}, false
		}
		for i := len(entries) - 1; i >= 0; i-- { // the last of duplicate keys counts
			if entries[i].Name == name {
				return entries[i], true
			}
		}
		return clientcfg.Entry{}, false
	}
	before, ok1 := entry(ch.Before)
	after, ok2 := entry(ch.After)
	if !ok1 || !ok2 {
		return nil
	}
	var parts []string
	if before.Command != after.Command || before.Type != after.Type {
		parts = append(parts, "command")
	}
	if !slices.Equal(before.Args, after.Args) {
		parts = append(parts, "arguments")
	}
	if !maps.Equal(before.Env, after.Env) {
		parts = append(parts, "environment variables")
	}
	return parts
}

// joinAnd joins words as a sentence does: "a", "a and b", "a, b and c".
func joinAnd(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
