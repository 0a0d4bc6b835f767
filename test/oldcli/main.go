// Command oldcli is a test fixture for reflection from outside: a Cobra CLI
// built with cobra v1.0.0 and pflag v1.0.5, whose help prints bools
// without a type word (pflag v1.1 prints "[=true|false]"), whose
// completion lists "--name=" for flags that take a value and does not
// parse flags, and whose help command completes nothing. Its echo command
// prints what it parsed as JSON.
package main

import (
	"encoding/json"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func echo(cmd *cobra.Command, args []string) error {
	out := map[string]interface{}{"args": args, "flags": map[string]string{}}
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
	root := &cobra.Command{Use: "oldcli", Short: "A CLI on cobra v1.0.0", SilenceUsage: true}
	root.PersistentFlags().StringP("server", "s", "local", "the server")
	root.PersistentFlags().Bool("debug", false, "debug output")

	e := &cobra.Command{Use: "echo [ARGS...]", Short: "Print what was parsed", RunE: echo}
	f := e.Flags()
	f.String("str", "", "a string")
	f.Int("int", 3, "an int")
	f.Bool("bool", true, "a bool")
	f.Duration("duration", 2*time.Second, "a duration")
	f.StringSlice("slice", []string{"a", "b"}, "a slice")
	f.StringArray("array", nil, "an array")
	f.StringToString("map", nil, "a map")
	f.CountP("verbose", "v", "more output")

	remote := &cobra.Command{Use: "remote", Short: "Manage remotes"}
	add := &cobra.Command{Use: "add NAME URL", Short: "Add a remote", Args: cobra.ExactArgs(2), RunE: echo}
	add.Flags().Bool("fetch", false, "fetch after adding")
	remote.AddCommand(add)
	root.AddCommand(e, remote)
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}
