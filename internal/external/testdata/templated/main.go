// Command templated is a test fixture: a Cobra CLI whose help uses a custom
// template that prints flags as kubectl does ("--name=DEFAULT:", no type),
// so that reflection from outside has to probe the flag parser for types.
// Its echo command prints what it parsed as JSON. TEMPLATED_NAME names its
// root command (templated by default), whatever the file is called.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

const helpTemplate = `{{with (or .Long .Short)}}{{.}}{{end}}

Usage:
  {{if .Runnable}}{{.UseLine}}{{if .HasAvailableFlags}} [options]{{end}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [command]

Commands:{{range .Commands}}{{if .IsAvailableCommand}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}
{{if .HasAvailableLocalFlags}}
Options:
{{kflags .LocalFlags}}{{end}}
`

// kflags prints flags as kubectl's templates do.
func kflags(fs *pflag.FlagSet) string {
	var b strings.Builder
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		short := "    "
		if f.Shorthand != "" {
			short = "-" + f.Shorthand + ", "
		}
		def := f.DefValue
		if f.Value.Type() == "string" {
			def = "'" + def + "'"
		}
		fmt.Fprintf(&b, "    %s--%s=%s:\n\t%s\n\n", short, f.Name, def, f.Usage)
	})
	return b.String()
}

func echo(cmd *cobra.Command, args []string) error {
	out := map[string]any{"args": args, "flags": map[string]string{}}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		v := f.Value.String()
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			v = strings.Join(sv.GetSlice(), "|")
		}
		out["flags"].(map[string]string)[f.Name] = v
	})
	return json.NewEncoder(cmd.OutOrStdout()).Encode(out)
}

// pathValue is a custom flag type: its help default is not quoted, so its
// type is probed.
type pathValue string

func (p *pathValue) String() string     { return string(*p) }
func (p *pathValue) Set(v string) error { *p = pathValue(v); return nil }
func (p *pathValue) Type() string       { return "path" }

// levelValue is an int read in base 10 only, like klog's verbosity level.
type levelValue int

func (l *levelValue) String() string { return strconv.Itoa(int(*l)) }
func (l *levelValue) Set(v string) error {
	n, err := strconv.ParseInt(v, 10, 32)
	*l = levelValue(n)
	return err
}
func (l *levelValue) Type() string { return "Level" }

// readRC reads the file that --rc names before cobra parses anything, as
// kubectl reads its --kuberc file, and fails as kubectl does when it is
// missing.
func readRC(args []string) {
	for i, a := range args {
		v, ok := strings.CutPrefix(a, "--rc=")
		if !ok && a == "--rc" && i+1 < len(args) {
			v, ok = args[i+1], true
		}
		if !ok || v == "" {
			continue
		}
		if _, err := os.Stat(v); err != nil {
			fmt.Fprintf(os.Stderr, "error: loading rc file %s: no such file\n", v)
			os.Exit(1)
		}
	}
}

func main() {
	// TEMPLATED_HANG lists command lines ("|" between) on which it hangs,
	// for the test of discovery's timeouts.
	if hang := os.Getenv("TEMPLATED_HANG"); hang != "" {
		line := strings.Join(os.Args[1:], " ")
		for _, h := range strings.Split(hang, "|") {
			if strings.Contains(line, h) {
				time.Sleep(time.Hour)
			}
		}
	}
	if log := os.Getenv("TEMPLATED_LOG"); log != "" {
		// One line per run, for the test that counts discovery's processes.
		if f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			fmt.Fprintln(f, strings.Join(os.Args[1:], " "))
			f.Close()
		}
	}
	readRC(os.Args[1:])
	cobra.AddTemplateFunc("kflags", kflags)
	name := "templated"
	if n := os.Getenv("TEMPLATED_NAME"); n != "" {
		name = n // the root command's name, whatever the file is called
	}
	root := &cobra.Command{Use: name, Short: "A CLI with kubectl-style help", SilenceUsage: true}
	root.SetHelpTemplate(helpTemplate)
	root.PersistentFlags().StringP("context", "c", "default", "the context to use")
	root.PersistentFlags().Uint("v", 0, "log level")
	var rc pathValue
	root.PersistentFlags().Var(&rc, "rc", "the rc file to read first")
	root.PersistentFlags().Int("retries", 3, "how many times to try")
	root.PersistentFlags().Int("page", 10, "items a page")

	e := &cobra.Command{Use: "echo [ARGS...]", Aliases: []string{"e"}, Short: "Print what was parsed", RunE: echo}
	f := e.Flags()
	f.String("str", "", "a string")
	f.Int("int", 7, "an int")
	f.Float64("float", 0, "a float")
	f.Bool("bool", true, "a bool")
	f.Duration("duration", time.Second, "a duration")
	f.IP("ip", nil, "an IP")
	f.StringSlice("slice", nil, "a slice")
	f.StringArray("array", nil, "an array")
	f.StringToString("map", nil, "a map")
	f.Float64("ratio", 1.5, "a float with a default")
	f.Int64("offset", -3, "an int64 with a negative default")
	var level levelValue
	f.Var(&level, "level", "an int read in base 10")

	group := &cobra.Command{Use: "config", Short: "Configuration commands"}
	set := &cobra.Command{Use: "set NAME VALUE", Short: "Set a value", Args: cobra.ExactArgs(2), RunE: echo, DisableFlagsInUseLine: true}
	set.Flags().Bool("force", false, "overwrite")
	need := &cobra.Command{Use: "need", Short: "A command with a required flag", Args: cobra.NoArgs, RunE: echo}
	need.Flags().String("name", "", "the name (required)")
	_ = need.MarkFlagRequired("name")
	need.Flags().Int("count", 1, "how many")
	need.Flags().Bool("dry", false, "print only")
	need.Flags().StringSlice("tags", nil, "tags to add")
	need.Flags().StringArray("notes", nil, "notes to add")
	group.AddCommand(set, need)
	// Two commands with a flag of the same name, usage and default but of
	// different types: each is asked of its own command.
	arr := &cobra.Command{Use: "arr", Short: "An --env array", RunE: echo}
	arr.Flags().StringArray("env", nil, "environment variables")
	kv := &cobra.Command{Use: "kv", Short: "An --env map", RunE: echo}
	kv.Flags().StringToString("env", nil, "environment variables")
	// A command that parses its own flags, with a flag the help does not type.
	raw := &cobra.Command{Use: "raw [ARGS...]", Short: "Parses its own flags", DisableFlagParsing: true, RunE: echo}
	raw.Flags().Int("level", 0, "a level")
	root.AddCommand(e, group, arr, kv, raw)
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}
