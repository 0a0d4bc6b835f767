// Command netcli is a test fixture: a Cobra CLI that dials $NETCLI_ADDR
// whenever any code of its own runs other than start-up: completion
// functions (of args and of flags), PersistentPreRun and Run. Reflection
// from outside must not make it dial.
package main

import (
	"net"
	"os"
	"time"

	"github.com/spf13/cobra"
)

func dial(what string) {
	if c, err := net.DialTimeout("tcp", os.Getenv("NETCLI_ADDR"), 5*time.Second); err == nil {
		c.Write([]byte(what))
		c.Close()
	}
}

func main() {
	complete := func(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		dial("complete " + cmd.Name())
		return []cobra.Completion{"pods"}, cobra.ShellCompDirectiveNoFileComp
	}
	root := &cobra.Command{
		Use:               "netcli",
		Short:             "A CLI that reaches the network",
		ValidArgsFunction: complete,
		PersistentPreRun:  func(cmd *cobra.Command, _ []string) { dial("prerun " + cmd.Name()) },
	}
	get := &cobra.Command{
		Use:               "get TYPE [NAME]",
		Short:             "Get resources from the server",
		Args:              cobra.RangeArgs(1, 2),
		ValidArgsFunction: complete,
		Run:               func(cmd *cobra.Command, _ []string) { dial("run get") },
	}
	get.Flags().String("selector", "", "label selector")
	_ = get.RegisterFlagCompletionFunc("selector", complete)
	get.Flags().Int("limit", 0, "at most this many")
	sub := &cobra.Command{Use: "logs POD", Short: "Logs", ValidArgsFunction: complete, Run: func(*cobra.Command, []string) { dial("run logs") }}
	sub.Flags().Bool("follow", false, "follow")
	_ = sub.MarkFlagRequired("follow")
	_ = sub.RegisterFlagCompletionFunc("follow", complete)
	get.AddCommand(sub)
	root.AddCommand(get)
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}
