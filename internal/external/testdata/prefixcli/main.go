// Command prefixcli is a test fixture: a CLI that turns on cobra's
// EnablePrefixMatching and EnableCaseInsensitive, whose "show" runs and
// has a sub-command "secret-wipe" (alias "sw") that must never run when
// only "show" is served: "show sec", "show SECRET-WIPE" and "show sw"
// would all run it, were the arg not written after "--".
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

func main() {
	cobra.EnablePrefixMatching = true
	cobra.EnableCaseInsensitive = true
	root := &cobra.Command{Use: "prefixcli", Short: "A CLI that matches sub-commands by prefix, in any case"}
	show := &cobra.Command{
		Use:   "show [NAME...]",
		Short: "Show things",
		Run: func(c *cobra.Command, args []string) {
			fmt.Printf("show %s\n", strings.Join(args, " "))
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
