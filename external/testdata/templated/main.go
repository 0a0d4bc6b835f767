// Command templated is a test fixture: a Cobra CLI whose help uses a custom
// template that prints flags as kubectl does ("--name=DEFAULT:", no type),
// so that reflection from outside has to probe the flag parser for types.
// Its echo command prints what it parsed as JSON.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

const helpTemplate = `{{with (or .Long .Short)}}{{.}}{{end}}

Usage:
  {{if .Runnable}}{{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
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

func main() {
	cobra.AddTemplateFunc("kflags", kflags)
	root := &cobra.Command{Use: "templated", Short: "A CLI with kubectl-style help", SilenceUsage: true}
	root.SetHelpTemplate(helpTemplate)
	root.PersistentFlags().StringP("context", "c", "default", "the context to use")
	root.PersistentFlags().Uint("v", 0, "log level")

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

	group := &cobra.Command{Use: "config", Short: "Configuration commands"}
	set := &cobra.Command{Use: "set NAME VALUE", Short: "Set a value", Args: cobra.ExactArgs(2), RunE: echo}
	set.Flags().Bool("force", false, "overwrite")
	need := &cobra.Command{Use: "need", Short: "A command with a required flag", Args: cobra.NoArgs, RunE: echo}
	need.Flags().String("name", "", "the name (required)")
	_ = need.MarkFlagRequired("name")
	need.Flags().Int("count", 1, "how many")
	group.AddCommand(set, need)
	root.AddCommand(e, group)
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}
