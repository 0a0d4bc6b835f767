// Package shapes is the tree of a test CLI with the shapes that reading
// from outside must get right, each beside its in-process reflection: a
// command that runs and has sub-commands, a command with required flags
// whose help lists them in a section of their own, and (OwnHelp) a help
// command of the CLI's own, with sub-commands of its own; a required flag
// whose parser takes only the values it names, and required flags of
// which one must be set.
package shapes

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// requiredTemplate lists the required flags and the others under titles
// of their own.
const requiredTemplate = `Usage:
  {{.UseLine}}

Required Flags:
{{requiredFlags .}}
Other Flags:
{{otherFlags .}}
`

// unindentedTemplate is cobra's usage template with its usage lines at
// column 0.
const unindentedTemplate = `Usage:
{{if .Runnable}}{{.UseLine}}
{{end}}{{if .HasAvailableSubCommands}}{{.CommandPath}} [command]
{{end}}{{if gt (len .Aliases) 0}}
Aliases:
  {{.NameAndAliases}}
{{end}}{{if .HasExample}}
Examples:
{{.Example}}
{{end}}{{if .HasAvailableSubCommands}}
Available Commands:{{range .Commands}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}
{{end}}{{if .HasAvailableLocalFlags}}
Flags:
{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}
{{end}}{{if .HasAvailableInheritedFlags}}
Global Flags:
{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces}}
{{end}}`

func init() {
	cobra.AddTemplateFunc("requiredFlags", func(c *cobra.Command) string { return flagUsages(c, true) })
	cobra.AddTemplateFunc("otherFlags", func(c *cobra.Command) string { return flagUsages(c, false) })
}

func flagUsages(c *cobra.Command, required bool) string {
	fs := c.LocalFlags()
	var b strings.Builder
	lines := strings.Split(fs.FlagUsages(), "\n")
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		name := f[0]
		if strings.HasPrefix(name, "-") && len(name) == 3 && len(f) > 1 { // "-f," then "--force"
			name = f[1]
		}
		fl := fs.Lookup(strings.TrimPrefix(name, "--"))
		if fl == nil || fl.Name == "help" {
			continue
		}
		_, req := fl.Annotations[cobra.BashCompOneRequiredFlag]
		if req == required {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// New returns the tree; with ownHelp, its help command is the CLI's own,
// with sub-commands of its own.
func New(ownHelp bool) *cobra.Command {
	return NewWith(Options{OwnHelp: ownHelp})
}

// Options choose the shapes of the tree beside the default ones.
type Options struct {
	// OwnHelp: the help command is the CLI's own, with sub-commands of
	// its own.
	OwnHelp bool
	// OwnHelpFlag: --help is the CLI's own persistent flag (gh's), which
	// cobra does not watch during completion, and a command that runs
	// parses its own flags (DisableFlagParsing), as gh's extension exec.
	OwnHelpFlag bool
	// NoGlobals: --verbose is the root's own flag, not inherited, so
	// that (with OwnHelpFlag) the groups show no flag but --help, as
	// gh's do.
	NoGlobals bool
	// Unindented: the usage template prints the usage lines at column 0
	// ("Usage:", then "shapes server [flags]" and "shapes server
	// [command]").
	Unindented bool
	// Styled: the help is printed as charmbracelet/fang prints it
	// (goreleaser's): every line indented and padded with spaces,
	// upper-case titles, flags without types and with every inherited
	// flag among them, "[--flags]" in the usage lines.
	Styled bool
	// DefaultCommand: the main hands a first word that is no command
	// to the eval command (DefaultArgs), as yq's does; cobra's help
	// command, added only when the tree executes, is such a word.
	DefaultCommand bool
	// CommandInUse: hugo's Use strings hold "[command]": a watch command
	// that runs, "watch [command]", with a sub-command, whose help's
	// usage lines are "shapes watch [command] [flags]" and "shapes watch
	// [command]".
	CommandInUse bool
	// HiddenGlobals: as rclone's, the root has many global flags, of
	// types of its own among others, and a usage template that prints
	// none of them on the root, and on a command its own flags and,
	// under a title of their group's, the global flags that matter to
	// it; the rest come from completion alone (copy and sync, under
	// sync's group).
	HiddenGlobals bool
	// BrokenHelp: the crash command's help exits with 3, however it is
	// asked.
	BrokenHelp bool
	// Lenient: the root lets unknown flags through
	// (FParseErrWhitelist), as kubebuilder's does for its plugins'
	// flags: it takes an unknown flag as a command that parses its own
	// flags does, yet it parses its flags.
	Lenient bool
}

// Env names the variable that chooses Options by name, comma-separated
// ("lenient,own-help"), as OptionsFromEnv reads them.
const Env = "SHAPES"

// optionNames are the names of Options that Env takes.
var optionNames = map[string]func(*Options){
	"own-help":        func(o *Options) { o.OwnHelp = true },
	"own-help-flag":   func(o *Options) { o.OwnHelpFlag = true },
	"no-globals":      func(o *Options) { o.NoGlobals = true },
	"lenient":         func(o *Options) { o.Lenient = true },
	"unindented":      func(o *Options) { o.Unindented = true },
	"styled":          func(o *Options) { o.Styled = true },
	"default-command": func(o *Options) { o.DefaultCommand = true },
	"broken-help":     func(o *Options) { o.BrokenHelp = true },
	"command-in-use":  func(o *Options) { o.CommandInUse = true },
	"hidden-globals":  func(o *Options) { o.HiddenGlobals = true },
}

// OptionsFromEnv returns the Options that the value of Env names (getenv
// reads it); an unknown name is an error.
func OptionsFromEnv(getenv func(string) string) (Options, error) {
	var o Options
	for _, n := range strings.Split(getenv(Env), ",") {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		set, ok := optionNames[n]
		if !ok {
			return o, fmt.Errorf("%s: unknown shape %q", Env, n)
		}
		set(&o)
	}
	return o, nil
}

// choice is a flag value that takes only the values it names, and names
// them when it refuses one (gh's enum flags, whose type is "string").
type choice struct {
	value string
	valid []string
}

func (c *choice) String() string { return c.value }
func (c *choice) Type() string   { return "string" }
func (c *choice) Set(v string) error {
	for _, ok := range c.valid {
		if v == ok {
			c.value = v
			return nil
		}
	}
	return fmt.Errorf("valid values are {%s}", strings.Join(c.valid, "|"))
}

// NewWith returns the tree with the shapes o chooses.
func NewWith(o Options) *cobra.Command {
	ownHelp := o.OwnHelp
	root := &cobra.Command{
		Use:   "shapes",
		Short: "A CLI of the shapes reading from outside must get right",
		Run:   func(c *cobra.Command, args []string) { fmt.Println("the main command") },
	}
	if o.Lenient {
		root.FParseErrWhitelist.UnknownFlags = true
	}
	if o.NoGlobals {
		root.Flags().Bool("verbose", false, "say more")
	} else {
		root.PersistentFlags().Bool("verbose", false, "say more")
	}
	// A hidden global option, as etcdctl's --endpoints.
	endpoints := root.PersistentFlags().StringSlice("endpoints", []string{"127.0.0.1:2379"}, "the endpoints")
	root.PersistentFlags().MarkHidden("endpoints")
	server := &cobra.Command{
		Use:   "server [ADDR]",
		Short: "Run the server",
		Run:   func(c *cobra.Command, args []string) { fmt.Println("serving", args, "endpoints", *endpoints) },
	}
	server.Flags().Int("port", 8080, "the port")
	// A placeholder in back quotes on a flag that server trust inherits
	// (gh's --repo): pflag prints it as the type word on both helps.
	server.PersistentFlags().String("upstream", "", "forward to `[HOST:]PORT`")
	trust := &cobra.Command{
		Use:   "trust HOST",
		Short: "Trust a host",
		Run:   func(c *cobra.Command, args []string) { fmt.Println("trusting", args) },
	}
	server.AddCommand(trust)
	deploy := &cobra.Command{
		Use:   "deploy",
		Short: "Deploy an app",
		Run:   func(c *cobra.Command, args []string) { fmt.Println("deploying") },
	}
	deploy.Flags().String("name", "", "the app's name")
	deploy.Flags().String("region", "", "the region")
	deploy.Flags().Bool("force", false, "deploy even if unchanged")
	deploy.Flags().Int("replicas", 1, "how many")
	deploy.Flags().StringSlice("tag", nil, "tags to set")
	deploy.Flags().Int("retries", 3, "retries (hidden)")
	deploy.Flags().MarkHidden("retries")
	deploy.MarkFlagRequired("name")
	deploy.MarkFlagRequired("region")
	deploy.SetUsageTemplate(requiredTemplate)
	release := &cobra.Command{
		Use:   "release",
		Short: "Release a version",
		Run:   func(c *cobra.Command, args []string) { fmt.Println("releasing") },
	}
	release.Flags().Var(&choice{valid: []string{"stable", "beta"}}, "channel", "the channel: {stable|beta}")
	release.Flags().String("notes", "", "read the notes from `file`")
	release.Flags().StringSlice("label", nil, "add a label by `name`")
	release.MarkFlagRequired("channel")
	notify := &cobra.Command{
		Use:   "notify",
		Short: "Notify someone",
		Run:   func(c *cobra.Command, args []string) { fmt.Println("notifying") },
	}
	notify.Flags().String("email", "", "the address")
	notify.Flags().String("phone", "", "the number")
	notify.Flags().Bool("urgent", false, "now")
	notify.MarkFlagsOneRequired("email", "phone")
	// A description with a JSON example at column 0, whose "{" line is
	// no section title.
	patch := &cobra.Command{
		Use:   "patch FILE",
		Short: "Patch a file",
		Long: `Patch a file with a JSON merge patch, such as:
{
  "name": "web",
  "replicas": 2
}
The patch is read from --patch.`,
		Run: func(c *cobra.Command, args []string) { fmt.Println("patching", args) },
	}
	patch.Flags().String("patch", "", "the patch")
	group := &cobra.Command{Use: "config", Short: "Manage the configuration"}
	group.AddCommand(&cobra.Command{Use: "view", Short: "View it", Run: func(*cobra.Command, []string) {}})
	root.AddCommand(server, deploy, release, notify, patch, group)
	if o.Unindented {
		root.SetUsageTemplate(unindentedTemplate)
	}
	if o.CommandInUse {
		watch := &cobra.Command{
			Use:   "watch [command]",
			Short: "Watch the files and rebuild",
			Run:   func(*cobra.Command, []string) { fmt.Println("watching") },
		}
		watch.Flags().Int("poll", 0, "poll every this many seconds")
		watch.AddCommand(&cobra.Command{Use: "status [command]", Short: "Say what is watched", Run: func(*cobra.Command, []string) {}})
		root.AddCommand(watch)
	}
	if o.HiddenGlobals {
		hiddenGlobals(root)
	}
	if o.BrokenHelp {
		crash := &cobra.Command{Use: "crash", Short: "Crash on help", Run: func(*cobra.Command, []string) {}}
		crash.SetHelpFunc(func(*cobra.Command, []string) { os.Exit(3) })
		root.AddCommand(crash)
	}
	if o.DefaultCommand {
		eval := &cobra.Command{
			Use:   "eval EXPRESSION [FILE...]",
			Short: "Evaluate an expression on files (the default command)",
			RunE: func(c *cobra.Command, args []string) error {
				for _, f := range args[min(1, len(args)):] {
					if _, err := os.Stat(f); err != nil {
						return err
					}
				}
				fmt.Println("evaluated", args)
				return nil
			},
		}
		eval.Flags().Bool("null-input", false, "read no file")
		root.AddCommand(eval)
	}
	if o.Styled {
		root.SetHelpFunc(func(c *cobra.Command, _ []string) { styledHelp(c) })
		// fang prints the same usage line for a group that runs and one
		// that does not: goreleaser's root does not run.
		root.Run = nil
	}
	if o.OwnHelpFlag {
		root.PersistentFlags().Bool("help", false, "Show help for command")
		root.AddCommand(&cobra.Command{
			Use:                "exec NAME [ARGS]",
			Short:              "Run a plugin, which parses its own flags",
			DisableFlagParsing: true,
			Run:                func(c *cobra.Command, args []string) { fmt.Println("exec", args) },
		})
		group.AddCommand(&cobra.Command{Use: "reset", Short: "Reset it", Run: func(*cobra.Command, []string) {}})
	}
	if ownHelp {
		help := &cobra.Command{
			Use:   "help [TOPIC]",
			Short: "Help on topics and commands",
			Run: func(c *cobra.Command, args []string) {
				if len(args) == 0 {
					c.Root().Help()
					return
				}
				t, _, err := c.Root().Find(args)
				if err != nil || t == c.Root() {
					fmt.Println("no such topic")
					return
				}
				t.Help()
			},
		}
		help.AddCommand(&cobra.Command{Use: "environment", Short: "The environment variables", Run: func(*cobra.Command, []string) { fmt.Println("SHAPES_HOME: where") }})
		help.AddCommand(&cobra.Command{Use: "formats", Short: "The output formats", Run: func(*cobra.Command, []string) { fmt.Println("json, yaml") }})
		// As rclone does: the help command is the root's, and one of
		// its commands (cobra puts it in the tree when it executes).
		root.SetHelpCommand(help)
		root.AddCommand(help)
	}
	return root
}

// styledHelp prints c's help as charmbracelet/fang does, without colors:
// the long text (or short), then titled blocks, every line indented by
// two spaces at least and padded with spaces to its block's width.
func styledHelp(c *cobra.Command) {
	var lines []string
	pad := func(width int, ls ...string) {
		for _, l := range ls {
			lines = append(lines, l+strings.Repeat(" ", max(0, width-len(l))))
		}
	}
	title := func(t string) { pad(len(t)+4, "", "  "+strings.ToUpper(t)+"  ", "") }
	text := c.Long
	if text == "" {
		text = c.Short
	}
	lines = append(lines, "")
	for _, l := range strings.Split(text, "\n") {
		pad(120, "  "+l)
	}
	title("usage")
	use := styledUsage(c, true)
	pad(len(use)+6, "    "+use+"  ")
	if c.Example != "" {
		title("examples")
		ex := strings.Split(c.Example, "\n")
		for i, l := range ex {
			if l = strings.TrimSpace(l); (i == 0 || i == len(ex)-1) && l == "" {
				continue
			}
			pad(60, "    "+l)
		}
	}
	type item struct{ key, help string }
	var cmds, flags []item
	for _, sc := range c.Commands() {
		if !sc.Hidden {
			cmds = append(cmds, item{styledUsage(sc, false), sc.Short})
		}
	}
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		key := "--" + f.Name
		if f.Shorthand != "" {
			key = "-" + f.Shorthand + " " + key
		}
		help := strings.Split(f.Usage, "\n")
		if words := strings.Fields(help[0]); len(words) > 0 {
			words[0] = strings.ToUpper(words[0][:1]) + strings.ToLower(words[0][1:])
			help[0] = strings.Join(words, " ")
		}
		h := strings.Join(help, "\n")
		if d := f.DefValue; d != "" && d != "false" && d != "0" && d != "[]" {
			h += " (" + d + ")"
		}
		flags = append(flags, item{key, h})
	})
	space := 10
	for _, it := range append(slices.Clone(cmds), flags...) {
		space = max(space, len(it.key)+2)
	}
	for _, group := range []struct {
		name  string
		items []item
	}{{"commands", cmds}, {"flags", flags}} {
		if len(group.items) == 0 {
			continue
		}
		title(group.name)
		for _, it := range group.items {
			help := strings.Split(it.help, "\n")
			lines = append(lines, "    "+it.key+strings.Repeat(" ", space-len(it.key))+help[0])
			for _, l := range help[1:] {
				lines = append(lines, strings.Repeat(" ", 4+space)+l)
			}
		}
	}
	lines = append(lines, "")
	fmt.Fprintln(c.OutOrStdout(), strings.Join(lines, "\n"))
}

// styledUsage is fang's usage line of c (its Use alone when complete is
// false): "[flags]", "[args]", "[command]" and the bracketed args taken
// out, and put back in its order, "[--flags]" last.
func styledUsage(c *cobra.Command, complete bool) string {
	u := c.Use
	if complete {
		u = c.UseLine()
	}
	hasArgs := strings.Contains(u, "[args]")
	hasFlags := strings.Contains(u, "[flags]") || c.HasFlags() || c.HasPersistentFlags() || c.HasAvailableFlags()
	hasCommands := strings.Contains(u, "[command]") || c.HasAvailableSubCommands()
	for _, k := range []string{"[args]", "[flags]", "[--flags]", "[command]"} {
		u = strings.ReplaceAll(u, k, "")
	}
	var other []string
	for _, a := range regexp.MustCompile(`(\[.*\])`).FindAllString(u, -1) {
		u = strings.ReplaceAll(u, a, "")
		other = append(other, a)
	}
	out := strings.Join(strings.Fields(u), " ")
	if hasCommands {
		out += " [command]"
	}
	if hasArgs {
		out += " [args]"
	}
	for _, a := range other {
		out += " " + a
	}
	if hasFlags {
		out += " [--flags]"
	}
	return out
}

// DefaultArgs returns the args to execute root with, as a main that has a
// default command (DefaultCommand) makes them: a first word that the tree
// does not know, cobra's help command among them (it is added only when
// the tree executes), goes to eval; cobra's completion command is left as
// it is (yq's main does the same).
func DefaultArgs(root *cobra.Command, args []string) []string {
	if len(args) == 0 || args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd {
		return args
	}
	if _, _, err := root.Find(args); err != nil {
		return append([]string{"eval"}, args...)
	}
	return args
}

// size is a flag value of rclone's SizeSuffix kind: "off", or a number
// with an optional binary suffix ("4Mi", "1.5", "10").
type size struct{ v string }

func (s *size) String() string { return s.v }
func (s *size) Type() string   { return "SizeSuffix" }
func (s *size) Set(v string) error {
	if v == "off" {
		s.v = v
		return nil
	}
	n := strings.TrimRight(v, "KMGTi")
	if _, err := strconv.ParseFloat(n, 64); err != nil || n == "" {
		return fmt.Errorf("bad size %q", v)
	}
	s.v = v
	return nil
}

// tristate is a flag value of rclone's Tristate kind: true, false or
// unset.
type tristate struct{ v string }

func (t *tristate) String() string { return t.v }
func (t *tristate) Type() string   { return "Tristate" }
func (t *tristate) Set(v string) error {
	switch v {
	case "true", "false", "unset":
		t.v = v
		return nil
	}
	return fmt.Errorf("want true, false or unset, not %q", v)
}

// mode is an enum whose Type() is "": pflag prints no type word for it,
// as for a bool.
type mode struct{ v string }

func (m *mode) String() string { return m.v }
func (m *mode) Type() string   { return "" }
func (m *mode) Set(v string) error {
	if v != "ReadWrite" && v != "ReadOnly" {
		return fmt.Errorf("invalid value %q", v)
	}
	m.v = v
	return nil
}

// pairs is a map of the CLI's own (kubectl's mapStringString): KEY=VALUE
// pairs, comma-separated.
type pairs map[string]string

func (p pairs) String() string { return "" }
func (p pairs) Type() string   { return "mapStringString" }
func (p pairs) Set(v string) error {
	for _, kv := range strings.Split(v, ",") {
		k, val, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("%s must be formatted as key=value", kv)
		}
		p[k] = val
	}
	return nil
}

// groupsTemplate prints the root's flags nowhere, and on a command its
// own flags, then the global flags of its group (the "group" annotation
// of the command and of the flag), as rclone's template does.
const groupsTemplate = `Usage:{{if .Runnable}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [command]{{end}}{{if .HasAvailableSubCommands}}

Available Commands:{{range .Commands}}{{if .IsAvailableCommand}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if and .HasParent .HasAvailableLocalFlags}}

Flags:
{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{with groupFlags .}}

{{.}}{{end}}
`

func init() {
	cobra.AddTemplateFunc("groupFlags", func(c *cobra.Command) string {
		g := c.Annotations["group"]
		if g == "" {
			return ""
		}
		fs := pflag.NewFlagSet(g, pflag.ContinueOnError)
		c.InheritedFlags().VisitAll(func(f *pflag.Flag) {
			if len(f.Annotations["group"]) > 0 && f.Annotations["group"][0] == g {
				fs.AddFlag(f)
			}
		})
		return g + " Flags:\n" + strings.TrimRight(fs.FlagUsages(), " \n")
	})
}

// hiddenGlobals gives root rclone's shape (Options.HiddenGlobals).
func hiddenGlobals(root *cobra.Command) {
	pf := root.PersistentFlags()
	group := func(name, g string) { _ = pf.SetAnnotation(name, "group", []string{g}) }
	for i, g := range []string{"Sync", "Sync", "Sync", "Filter", "Filter", "Filter"} {
		name := fmt.Sprintf("%s-size-%d", strings.ToLower(g), i)
		pf.Var(&size{v: "off"}, name, "a size limit")
		group(name, g)
	}
	for i := range 6 {
		pf.Int(fmt.Sprintf("retries-%d", i), 3, "how many times to try")
		pf.Duration(fmt.Sprintf("timeout-%d", i), 0, "how long to wait")
		pf.String(fmt.Sprintf("log-%d", i), "", "where to log")
		pf.Bool(fmt.Sprintf("dry-%d", i), false, "do nothing")
	}
	group("retries-0", "Sync")
	group("timeout-1", "Sync")
	pf.Var(&tristate{v: "unset"}, "checks", "check the files")
	group("checks", "Sync")
	// A placeholder in back quotes (gh's --repo): pflag prints it as the
	// type word, which is no type's name.
	pf.String("remote", "", "use the remote `[HOST/]NAME`")
	group("remote", "Sync")
	root.SetUsageTemplate(groupsTemplate)
	for _, name := range []string{"copy", "sync", "ls"} {
		c := &cobra.Command{
			Use:   name + " SOURCE DEST",
			Short: "Run " + name,
			Run:   func(c *cobra.Command, args []string) { fmt.Println(name, args) },
		}
		switch name {
		case "ls":
			c.Annotations = map[string]string{"group": "Filter"}
			c.Flags().Var(&mode{v: "ReadWrite"}, "access-mode", "Valid values are ReadWrite,ReadOnly")
		default:
			c.Annotations = map[string]string{"group": "Sync"}
			c.Flags().Bool("checksum", false, "compare checksums")
			c.Flags().Var(pairs{}, "header", "headers to set")
		}
		root.AddCommand(c)
	}
}
