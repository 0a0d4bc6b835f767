package mycli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"
)

// The commands of this file give "--" a meaning, as kubectl's do: cobra
// records where "--" stood (cmd.ArgsLenAtDash) and they act on it.

// newCreateCmd is "create", a group holding "create namespace".
func newCreateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "create",
		Short:   "Create a resource",
		GroupID: GroupBasic,
	}
	cmd.AddCommand(newCreateNamespaceCmd())
	return cmd
}

// newCreateNamespaceCmd behaves like kubectl's "create namespace NAME": it
// counts only the args before "--" (kubectl's NameFromCommandArgs), so
// "create namespace -- ns1" fails with "exactly one NAME is required, got
// 0". It keeps no namespace objects: it prints what it would create.
func newCreateNamespaceCmd() *cobra.Command {
	var dryRun string
	cmd := &cobra.Command{
		Use:     "namespace NAME [--dry-run=server|client|none]",
		Aliases: []string{"ns"},
		Short:   "Create a namespace with the specified name (prints it; mycli keeps no namespaces)",
		Long: `Create a namespace with the specified name. Like kubectl, it counts only the
arguments before "--": "create namespace -- ns1" is refused.`,
		Example: "  mycli create namespace my-namespace",
		RunE: func(cmd *cobra.Command, args []string) error {
			n := cmd.ArgsLenAtDash()
			if n == -1 {
				n = len(args)
			}
			if n != 1 {
				return fmt.Errorf("exactly one NAME is required, got %d", n)
			}
			suffix := ""
			if dryRun != "" && dryRun != "none" {
				suffix = " (dry run)"
			}
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "namespace/%s created%s\n", args[0], suffix)
			return err
		},
	}
	cmd.Flags().StringVar(&dryRun, "dry-run", "none", `"none", "server" or "client"`)
	return cmd
}

// DebugResult is what `mycli debug` prints, as JSON.
type DebugResult struct {
	// Pod is the arg before "--".
	Pod string `json:"pod"`
	// Container is --container.
	Container string `json:"container"`
	// Command holds the args after "--".
	Command []string `json:"command"`
	// ArgsLenAtDash is cobra's ArgsLenAtDash.
	ArgsLenAtDash int `json:"argsLenAtDash"`
}

// newDebugCmd behaves like kubectl's "exec POD -- COMMAND [args...]": the
// pod before "--", the command after it, both required. It runs nothing
// and prints a [DebugResult].
func newDebugCmd() *cobra.Command {
	var container string
	cmd := &cobra.Command{
		Use:   "debug POD [-c CONTAINER] -- COMMAND [ARGS...]",
		Short: "Run a command in a pod's container, like kubectl exec (prints what it would run, as JSON)",
		Long: `debug takes the pod before "--" and the command after it, as kubectl exec does; it
runs nothing and prints {"pod", "container", "command", "argsLenAtDash"}.`,
		Example: "  mycli debug web-7f9c4d-abc12 -c app -- ls -l /",
		Args:    cobra.MinimumNArgs(2),
		GroupID: GroupTroubleshooting,
		RunE: func(cmd *cobra.Command, args []string) error {
			at := cmd.ArgsLenAtDash()
			if at != 1 {
				return fmt.Errorf("debug POD -- COMMAND: exactly one POD must come before \"--\" (got %d args before it, -1: no \"--\")", at)
			}
			data, err := json.Marshal(DebugResult{Pod: args[0], Container: container, Command: args[1:], ArgsLenAtDash: at})
			if err != nil {
				return fmt.Errorf("encode debug: %w", err)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "%s\n", data)
			return err
		},
	}
	cmd.Flags().StringVarP(&container, "container", "c", "", "container name; empty means the pod's first container")
	return cmd
}
