// Command kubelite is a small kubectl-like CLI for the benchmark program
// (test/bench): a root with kubectl's persistent flags and a handful of
// commands. Built with the default tags it adopts cobramcp in one line
// (mcp.go); built with -tags nobridge it is the same CLI without it, so the
// cost of linking cobramcp can be measured.
package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// addMCP adds the mcp command group; nil when built with -tags nobridge.
var addMCP func(root *cobra.Command)

// stopProfile ends the CPU profile (profile.go); nil without one.
var stopProfile func()

func main() {
	root := newRoot()
	if addMCP != nil {
		addMCP(root)
	}
	err := root.Execute()
	if stopProfile != nil {
		stopProfile()
	}
	if err != nil {
		os.Exit(1)
	}
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "kubelite",
		Short:         "kubelite controls a pretend cluster",
		SilenceUsage:  true,
		SilenceErrors: false,
	}
	pf := root.PersistentFlags()
	pf.StringP("namespace", "n", "default", "the namespace scope for this request")
	pf.String("context", "", "the name of the kubeconfig context to use")
	pf.String("kubeconfig", "", "path to the kubeconfig file")
	pf.IntP("v", "v", 0, "log level verbosity")
	pf.Duration("request-timeout", 0, "how long to wait for one server request")

	get := &cobra.Command{
		Use:   "get TYPE [NAME...]",
		Short: "Display one or many resources",
		Args:  cobra.MinimumNArgs(1),
		Annotations: map[string]string{
			"mcp.readOnlyHint": "true",
		},
		RunE: func(c *cobra.Command, args []string) error {
			out, _ := c.Flags().GetString("output")
			fmt.Fprintf(c.OutOrStdout(), "NAME\tKIND\tOUTPUT\n%s\t%s\t%s\n", strings.Join(args[1:], ","), args[0], out)
			return nil
		},
	}
	get.Flags().StringP("output", "o", "", "output format: json, yaml, wide, name")
	get.Flags().StringP("selector", "l", "", "label selector")
	get.Flags().BoolP("all-namespaces", "A", false, "list across all namespaces")
	get.Flags().Bool("watch", false, "watch for changes")
	get.Flags().StringSlice("sort-by", nil, "sort by these fields")

	describe := &cobra.Command{
		Use:   "describe TYPE NAME",
		Short: "Show details of a resource",
		Args:  cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			fmt.Fprintf(c.OutOrStdout(), "Name: %s\nKind: %s\n", args[1], args[0])
			return nil
		},
	}
	describe.Flags().Bool("show-events", true, "show events")

	logs := &cobra.Command{
		Use:   "logs POD",
		Short: "Print the logs of a container",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			n, _ := c.Flags().GetInt("tail")
			for i := range max(n, 1) {
				fmt.Fprintf(c.OutOrStdout(), "%s line %d\n", args[0], i)
			}
			return nil
		},
	}
	logs.Flags().IntP("tail", "t", 10, "lines of recent log to show")
	logs.Flags().StringP("container", "c", "", "container name")
	logs.Flags().BoolP("follow", "f", false, "stream the logs")
	logs.Flags().Duration("since", 0, "only logs newer than this")

	apply := &cobra.Command{
		Use:   "apply",
		Short: "Apply a configuration to a resource",
		RunE: func(c *cobra.Command, _ []string) error {
			files, _ := c.Flags().GetStringSlice("filename")
			fmt.Fprintf(c.OutOrStdout(), "applied %d files\n", len(files))
			return nil
		},
	}
	apply.Flags().StringSliceP("filename", "f", nil, "files to apply")
	apply.Flags().Bool("dry-run", false, "only print what would be sent")

	del := &cobra.Command{
		Use:   "delete TYPE NAME",
		Short: "Delete resources",
		Args:  cobra.ExactArgs(2),
		Annotations: map[string]string{
			"mcp.destructiveHint": "true",
		},
		RunE: func(c *cobra.Command, args []string) error {
			fmt.Fprintf(c.OutOrStdout(), "%s %q deleted\n", args[0], args[1])
			return nil
		},
	}
	del.Flags().Int("grace-period", -1, "seconds given to the resource to end")

	version := &cobra.Command{
		Use:   "version",
		Short: "Print the client version",
		Args:  cobra.NoArgs,
		Run: func(c *cobra.Command, _ []string) {
			fmt.Fprintln(c.OutOrStdout(), "kubelite v1.0.0")
		},
	}

	echo := &cobra.Command{
		Use:   "echo [WORD...]",
		Short: "Print the words given",
		Run: func(c *cobra.Command, args []string) {
			fmt.Fprintln(c.OutOrStdout(), strings.Join(args, " "))
		},
	}

	sleep := &cobra.Command{
		Use:   "sleep",
		Short: "Wait, then print done",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			d, _ := c.Flags().GetDuration("for")
			time.Sleep(d)
			fmt.Fprintln(c.OutOrStdout(), "done")
			return nil
		},
	}
	sleep.Flags().Duration("for", time.Second, "how long to wait")

	dump := &cobra.Command{
		Use:   "dump",
		Short: "Print this many bytes of log lines",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			n, _ := c.Flags().GetInt("bytes")
			line := []byte(strings.Repeat("x", 99) + "\n")
			buf := make([]byte, 0, 64<<10)
			for n > 0 {
				buf = buf[:0]
				for len(buf)+len(line) <= cap(buf) && n > 0 {
					k := min(len(line), n)
					buf = append(buf, line[:k]...)
					n -= k
				}
				if _, err := c.OutOrStdout().Write(buf); err != nil {
					return err
				}
			}
			return nil
		},
	}
	dump.Flags().Int("bytes", 1<<20, "bytes to print")

	cfg := &cobra.Command{Use: "config", Short: "Modify kubeconfig files"}
	cfg.AddCommand(&cobra.Command{
		Use:   "view",
		Short: "Display merged kubeconfig settings",
		Run:   func(c *cobra.Command, _ []string) { fmt.Fprintln(c.OutOrStdout(), "apiVersion: v1") },
	}, &cobra.Command{
		Use:   "use-context NAME",
		Short: "Set the current context",
		Args:  cobra.ExactArgs(1),
		Run:   func(c *cobra.Command, args []string) { fmt.Fprintln(c.OutOrStdout(), "Switched to", args[0]) },
	})

	root.AddCommand(get, describe, logs, apply, del, version, echo, sleep, dump, cfg)
	return root
}
