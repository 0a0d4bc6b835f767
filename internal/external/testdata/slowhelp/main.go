// Command slowhelp is a test fixture: a CLI with 16 sub-commands whose
// help hangs (with SLOWHELP_DELAY set, takes that long instead). The
// root's help and every completion answer at once.
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
)

func main() {
	root := &cobra.Command{Use: "slowhelp", Short: "Sub-commands whose help hangs"}
	delay := time.Duration(1<<63 - 1)
	if d, err := time.ParseDuration(os.Getenv("SLOWHELP_DELAY")); err == nil {
		delay = d
	}
	for i := range 16 {
		sub := &cobra.Command{
			Use:   fmt.Sprintf("cmd%02d", i),
			Short: fmt.Sprintf("Command %d", i),
			Run:   func(*cobra.Command, []string) {},
		}
		sub.Flags().Bool("force", false, "force it")
		help := sub.HelpFunc()
		sub.SetHelpFunc(func(c *cobra.Command, args []string) {
			time.Sleep(delay)
			help(c, args)
		})
		root.AddCommand(sub)
	}
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}
