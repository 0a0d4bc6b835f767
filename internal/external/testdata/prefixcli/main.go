// Command prefixcli is a test fixture: a CLI that turns on cobra's
// EnablePrefixMatching and EnableCaseInsensitive, whose "show" runs and
// has a sub-command "secret-wipe" (alias "sw") that must never run when
// only "show" is served: "show sec", "show SECRET-WIPE" and "show sw"
// would all run it, were the arg not written after "--". PREFIXCLI_MATCHING
// turns on only the matching it names ("prefix", "case", "none"); "show"
// prints its args and where "--" stood (ArgsLenAtDash).
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

func main() {
	switch m := os.Getenv("PREFIXCLI_MATCHING"); m {
	case "":
		cobra.EnablePrefixMatching, cobra.EnableCaseInsensitive = true, true
	default:
		cobra.EnablePrefixMatching = m == "prefix"
		cobra.EnableCaseInsensitive = m == "case"
	}
	root := &cobra.Command{Use: "prefixcli", Short: "A CLI that matches sub-commands by prefix, in any case"}
	show := &cobra.Command{
		Use:   "show [NAME...]",
		Short: "Show things",
		Run: func(c *cobra.Command, args []string) {
			fmt.Printf("show %s\n", strings.Join(args, " "))
			fmt.Fprintf(os.Stderr, "at dash %d\n", c.ArgsLenAtDash())
		},
	}
	wipe := &cobra.Command{
		Use:     "secret-wipe",
		Aliases: []string{"sw"},
		Short:   "Wipe the secrets",
		Run: func(*cobra.Command, []string) {
			fmt.Println("WIPED")
		},
	}
	show.AddCommand(wipe)
	root.AddCommand(show)
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}
