package mycli

import (
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/spf13/cobra"
)

// Version is the version mycli reports, both through `mycli version` and `mycli --version`.
const Version = "1.4.2"

// Command group IDs on the root command.
const (
	GroupBasic           = "basic"
	GroupTroubleshooting = "troubleshooting"
	GroupTesting         = "testing"
)

// Annotation keys mycli sets on its commands; cobramcp reads them as MCP tool annotations.
const (
	annReadOnly    = "mcp.readOnlyHint"
	annDestructive = "mcp.destructiveHint"
	annIdempotent  = "mcp.idempotentHint"
	annTitle       = "mcp.title"
	annTags        = "mcp.tags"
)

// outputSchema is the jsonschema annotation on --output: it lists the allowed formats.
const outputSchema = `{"type":"string","enum":["table","json","yaml","name"]}`

// validOutput reports whether s is a value --output accepts.
func validOutput(s string) bool {
	switch s {
	case "table", "json", "yaml", "name":
		return true
	}
	return false
}

// ExitError asks main to exit with Code. Err, when non-nil, is the cause.
//
// Commands return it (wrapped or not) when the exit code itself matters; any other error means
// exit code 1. Use [ExitCode] to turn the error of Execute into a process exit code.
type ExitError struct {
	Code int
	Err  error
}

// Error returns the cause's message, or "exit code N" when there is none.
func (e *ExitError) Error() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	return fmt.Sprintf("exit code %d", e.Code)
}

// Unwrap returns the cause.
func (e *ExitError) Unwrap() error { return e.Err }

// ExitCode maps the error returned by Execute to a process exit code: 0 for nil, the Code of an
// [*ExitError] found in the chain, and 1 for any other error.
func ExitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return 1
}

// app holds the values of the root's persistent flags for one command tree.
type app struct {
	namespace  string
	output     string
	kubeconfig string
	statePath  string
	verbose    int
}

// New returns a fresh mycli command tree. Each call builds new commands and flag sets, so trees
// can be used concurrently and independently.
func New() *cobra.Command {
	a := &app{}
	root := &cobra.Command{
		Use:   "mycli",
		Short: "mycli is a small, offline, kubectl-like CLI",
		Long: `mycli manages pods, services and deployments kept in a local JSON state file.

It is the demo and the end-to-end fixture of cobramcp: every kind of flag, argument
validator and annotation that cobramcp maps appears on at least one command.`,
		Version:      Version,
		SilenceUsage: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if !validOutput(a.output) {
				return fmt.Errorf("invalid --output %q: must be one of table, json, yaml, name", a.output)
			}
			return nil
		},
	}
	root.AddGroup(
		&cobra.Group{ID: GroupBasic, Title: "Basic Commands:"},
		&cobra.Group{ID: GroupTroubleshooting, Title: "Troubleshooting Commands:"},
		&cobra.Group{ID: GroupTesting, Title: "Test Fixtures (for cobramcp's end-to-end tests):"},
	)

	pf := root.PersistentFlags()
	pf.StringVarP(&a.namespace, "namespace", "n", "default", "namespace of the objects")
	pf.StringVarP(&a.output, "output", "o", "table", "output format: table, json, yaml or name")
	_ = pf.SetAnnotation("output", "jsonschema", []string{outputSchema})
	pf.StringVar(&a.kubeconfig, "kubeconfig", "", "path to a kubeconfig file (accepted, not used: mycli is offline)")
	pf.StringVar(&a.statePath, "state", "", "state file (default $MYCLI_STATE, else <user config dir>/mycli/state.json)")
	pf.CountVarP(&a.verbose, "verbose", "v", "log more to stderr; repeat for more (-vv)")

	root.AddCommand(
		newGetCmd(a),
		newListCmd(a),
		newDescribeCmd(a),
		newDeleteCmd(a),
		newApplyCmd(a),
		newRunCmd(a),
		newScaleCmd(a),
		newLabelCmd(a),
		newLogsCmd(a),
		newExecCmd(),
		newCreateCmd(),
		newDebugCmd(),
		newPortForwardCmd(a),
		newTopNodesCmd(a),
		newDebugDumpCmd(a),
		newVersionCmd(a),
		newShowHelpersCmd(a),
		newSleepCmd(),
		newFloodCmd(),
		newFailCmd(),
		newStrayPrintCmd(),
		newEnvGetCmd(),
		newEchoCmd(),
	)
	return root
}

// logger returns a logger writing to the command's stderr at a level chosen by -v.
func (a *app) logger(cmd *cobra.Command) *slog.Logger {
	if a.verbose == 0 {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	level := slog.LevelInfo
	if a.verbose > 1 {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: level}))
}

// annotations builds a command annotation map from key/value pairs.
func annotations(kv ...string) map[string]string {
	m := make(map[string]string, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// readOnly is the annotation map of a read-only command, plus extra key/value pairs.
func readOnly(kv ...string) map[string]string {
	return annotations(append([]string{annReadOnly, "true"}, kv...)...)
}

// mustFlag panics when a flag helper returns an error: these errors only mean a misspelt flag
// name in this package, a programming error caught by every test.
func mustFlag(err error) {
	if err != nil {
		panic(err)
	}
}
