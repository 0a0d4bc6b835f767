package bridge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/toolset"
)

// levelTree is a CLI with its own persistent --log-level (a level name of
// its own, "trace") and --namespace, and two commands; its calls never
// run: the last argv is recorded.
func levelTree(argv *[]string) *cobra.Command {
	root := &cobra.Command{Use: "lvl", SilenceUsage: true, SilenceErrors: true}
	root.PersistentFlags().String("log-level", "trace", "the CLI's own log level: trace, debug or info")
	root.PersistentFlags().StringP("namespace", "n", "default", "namespace")
	root.PersistentFlags().StringToString("labels", nil, "labels")
	get := &cobra.Command{Use: "get", RunE: func(*cobra.Command, []string) error { return nil },
		Annotations: map[string]string{bridge.AnnotationReadOnly: "true"}}
	del := &cobra.Command{Use: "delete", RunE: func(*cobra.Command, []string) error { return nil }}
	root.AddCommand(get, del)
	root.AddCommand(bridge.Command(&bridge.Config{Middleware: []toolset.Middleware{func(toolset.RunFunc) toolset.RunFunc {
		return func(_ context.Context, c *toolset.Call) (*toolset.Result, error) {
			*argv = c.Argv
			return &toolset.Result{Stdout: "ran"}, nil
		}
	}}}))
	return root
}

func execute(root *cobra.Command, args ...string) (string, error) {
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetIn(strings.NewReader(""))
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

// TestLogLevelOfTheCLI: a CLI with its own persistent --log-level can use
// mcp call, and its flag reaches the command like any other; the server's
// own level is --mcp-log-level.
func TestLogLevelOfTheCLI(t *testing.T) {
	var argv []string
	out, err := execute(levelTree(&argv), "mcp", "call", "--mcp-log-level", "error", "lvl_get", `{"flags":{"log-level":"debug"}}`)
	if err != nil {
		t.Fatalf("mcp call: %v\n%s", err, out)
	}
	if !slices.Contains(argv, "--log-level=debug") {
		t.Errorf("argv %q lacks the CLI's --log-level=debug", argv)
	}
	// The CLI's own level, given before mcp, is the CLI's (a pin), not
	// the server's: "trace" is no level of the server's.
	argv = nil
	if out, err := execute(levelTree(&argv), "--log-level", "trace", "mcp", "call", "lvl_get"); err != nil || !slices.Contains(argv, "--log-level=trace") {
		t.Errorf("--log-level trace before mcp call: %v, argv %q\n%s", err, argv, out)
	}
	if _, err := execute(levelTree(&argv), "mcp", "call", "--mcp-log-level", "loud", "lvl_get"); err == nil || !strings.Contains(err.Error(), "--mcp-log-level") {
		t.Errorf("bad --mcp-log-level: %v", err)
	}
}

// TestFlagsBeforeTheGroup: the CLI's own flags given on the command line
// (before or after mcp call) become pins instead of being ignored; one
// that cannot be written back is refused.
func TestFlagsBeforeTheGroup(t *testing.T) {
	var argv []string
	out, err := execute(levelTree(&argv), "--namespace", "prod", "mcp", "call", "lvl_get")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !slices.Contains(argv, "--namespace=prod") {
		t.Errorf("argv %q lacks --namespace=prod given before mcp call", argv)
	}
	argv = nil
	out, err = execute(levelTree(&argv), "-n", "prod", "mcp", "call", "lvl_get", `{"flags":{"namespace":"dev"}}`)
	if err == nil || !strings.Contains(out, "is pinned by whoever started this server") || argv != nil {
		t.Errorf("a call overriding a flag given before mcp call: err %v, argv %q\n%s", err, argv, out)
	}
	_, err = execute(levelTree(&argv), "--labels", "a=b", "mcp", "call", "lvl_get")
	if err == nil || !strings.Contains(err.Error(), "--labels was given to lvl itself") || !strings.Contains(err.Error(), "--set labels=") {
		t.Errorf("a map flag before mcp call: %v", err)
	}
	// Twice: --set and before.
	_, err = execute(levelTree(&argv), "-n", "prod", "mcp", "call", "--set", "namespace=dev", "lvl_get")
	if err == nil || !strings.Contains(err.Error(), "pinned twice") {
		t.Errorf("a flag pinned twice: %v", err)
	}
}

// TestPolicyFromEnvironment: each policy flag has a variable named after
// the CLI; the flag wins over it.
func TestPolicyFromEnvironment(t *testing.T) {
	var argv []string
	t.Setenv("LVL_MCP_READ_ONLY", "true")
	out, err := execute(levelTree(&argv), "mcp", "call", "lvl_delete")
	if err == nil || !strings.Contains(err.Error(), "not served") {
		t.Errorf("LVL_MCP_READ_ONLY=true: delete: %v\n%s", err, out)
	}
	if _, err := execute(levelTree(&argv), "mcp", "call", "--read-only=false", "lvl_delete"); err != nil {
		t.Errorf("--read-only=false over the variable: %v", err)
	}
	t.Setenv("LVL_MCP_READ_ONLY", "maybe")
	if _, err := execute(levelTree(&argv), "mcp", "call", "lvl_get"); err == nil || !strings.Contains(err.Error(), "LVL_MCP_READ_ONLY") {
		t.Errorf("LVL_MCP_READ_ONLY=maybe: %v", err)
	}
	t.Setenv("LVL_MCP_READ_ONLY", "")
	// A bad value names the variable, not the flag that was not given.
	t.Setenv("LVL_MCP_TOOL_MODE", "sideways")
	if _, err := execute(levelTree(&argv), "mcp", "call", "lvl_get"); err == nil || !strings.Contains(err.Error(), "$LVL_MCP_TOOL_MODE: tool mode \"sideways\"") {
		t.Errorf("LVL_MCP_TOOL_MODE=sideways: %v", err)
	}
	if _, err := execute(levelTree(&argv), "mcp", "call", "--tool-mode", "sideways", "lvl_get"); err == nil || !strings.Contains(err.Error(), "--tool-mode: tool mode") {
		t.Errorf("--tool-mode sideways: %v", err)
	}
	t.Setenv("LVL_MCP_TOOL_MODE", "")
	t.Setenv("LVL_MCP_EXCLUDE_TOOLS", "lvl_get")
	if _, err := execute(levelTree(&argv), "mcp", "call", "lvl_get"); err == nil || !strings.Contains(err.Error(), "not served") {
		t.Errorf("LVL_MCP_EXCLUDE_TOOLS: %v", err)
	}
	t.Setenv("LVL_MCP_EXCLUDE_TOOLS", "lvl_nothing")
	if _, err := execute(levelTree(&argv), "mcp", "call", "lvl_get"); err == nil || !strings.Contains(err.Error(), "no tool matches lvl_nothing (from $LVL_MCP_EXCLUDE_TOOLS=lvl_nothing)") {
		t.Errorf("a variable pattern matching nothing: %v", err)
	}
	if _, err := execute(levelTree(&argv), "mcp", "tools", "-o", "-"); err == nil || !strings.Contains(err.Error(), "(from $LVL_MCP_EXCLUDE_TOOLS=lvl_nothing)") {
		t.Errorf("a variable pattern matching nothing, in the export: %v", err)
	}
	if _, err := execute(levelTree(&argv), "mcp", "call", "--exclude-tools", "lvl_none", "lvl_get"); err == nil || !strings.Contains(err.Error(), "no tool matches lvl_none") || strings.Contains(err.Error(), "LVL_MCP_EXCLUDE_TOOLS") {
		t.Errorf("the flag over the variable, matching nothing: %v", err)
	}
	t.Setenv("LVL_MCP_EXCLUDE_TOOLS", "")
	t.Setenv("LVL_MCP_TOOLS", "lvl_delete")
	out, err = execute(levelTree(&argv), "mcp", "tools", "-o", "-")
	if err != nil || strings.Contains(out, "lvl_get") || !strings.Contains(out, "lvl_delete") {
		t.Errorf("LVL_MCP_TOOLS in the export: %v\n%s", err, out)
	}
}

// TestPinsFromEnvironment: <ROOT>_MCP_SET gives the pins of --set as a
// comma-separated list, "\," carrying a comma inside a value; --set on the
// command line wins over it, and a pin given before mcp call adds to it.
func TestPinsFromEnvironment(t *testing.T) {
	var argv []string
	t.Setenv("LVL_MCP_SET", `namespace=dev, labels=a=b\,c=d,,`)
	out, err := execute(levelTree(&argv), "mcp", "call", "lvl_get")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !slices.Contains(argv, "--namespace=dev") || !slices.Contains(argv, "--labels=a=b,c=d") {
		t.Errorf("argv %q lacks the pins of LVL_MCP_SET", argv)
	}
	argv = nil
	out, err = execute(levelTree(&argv), "mcp", "call", "lvl_get", `{"flags":{"namespace":"prod"}}`)
	if err == nil || !strings.Contains(out, "is pinned by whoever started this server") || argv != nil {
		t.Errorf("a call overriding a pin of LVL_MCP_SET: err %v, argv %q\n%s", err, argv, out)
	}
	// --set wins over the variable, as every flag over its variable.
	argv = nil
	if out, err := execute(levelTree(&argv), "mcp", "call", "--set", "namespace=prod", "lvl_get"); err != nil || !slices.Contains(argv, "--namespace=prod") || slices.ContainsFunc(argv, func(a string) bool { return strings.HasPrefix(a, "--labels") }) {
		t.Errorf("--set over LVL_MCP_SET: %v, argv %q\n%s", err, argv, out)
	}
	// Before mcp call and in the variable: pinned twice, and the message
	// names the variable.
	if _, err := execute(levelTree(&argv), "-n", "x", "mcp", "call", "lvl_get"); err == nil || !strings.Contains(err.Error(), "pinned twice") || !strings.Contains(err.Error(), "$LVL_MCP_SET") {
		t.Errorf("a flag pinned before mcp call and in LVL_MCP_SET: %v", err)
	}
	for _, bad := range []string{"namespace", "=dev", "namespace=dev,verbose"} {
		t.Setenv("LVL_MCP_SET", bad)
		if _, err := execute(levelTree(&argv), "mcp", "call", "lvl_get"); err == nil || !strings.Contains(err.Error(), "$LVL_MCP_SET") || !strings.Contains(err.Error(), "FLAG=VALUE") {
			t.Errorf("LVL_MCP_SET=%s: %v", bad, err)
		}
	}
	t.Setenv("LVL_MCP_SET", "nosuch=1")
	if _, err := execute(levelTree(&argv), "mcp", "call", "lvl_get"); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("LVL_MCP_SET pinning a flag no tool takes: %v", err)
	}
}

// TestExportCarriesThePolicy: mcp tools applies the policy, and the
// external scripts pass it on to mcp tool, so that they enforce it too.
func TestExportCarriesThePolicy(t *testing.T) {
	var argv []string
	out, err := execute(levelTree(&argv), "mcp", "tools", "-o", "-", "--read-only", "--set", "namespace=prod")
	if err != nil {
		t.Fatal(err)
	}
	var tools []struct {
		Name        string
		InputSchema json.RawMessage
	}
	if err := json.Unmarshal([]byte(out), &tools); err != nil {
		t.Fatal(err)
	}
	if len(tools) != 1 || tools[0].Name != "lvl_get" || strings.Contains(string(tools[0].InputSchema), "namespace") {
		t.Errorf("export with --read-only --set namespace=prod: %s", out)
	}
	dir := t.TempDir()
	if _, err := execute(levelTree(&argv), "-n", "prod", "mcp", "tools", "--format", "external", "--dir", dir, "--read-only"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "lvl-get"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "'--read-only' '--set=namespace=prod' 'lvl_get'") {
		t.Errorf("the script does not pass the policy on:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "lvl-delete")); err == nil {
		t.Error("a script was written for a tool the policy hides")
	}
}

// TestCallLeftOutToolNamesThePolicy: `mcp call` of a tool the policy
// leaves out tells its user which settings did, in the flags' words (over
// MCP such a tool is unknown like any other).
func TestCallLeftOutToolNamesThePolicy(t *testing.T) {
	r := runMCP(newFake(), "", "call", "--tools", "fake_get", "--read-only=false", "fake_label", "{}")
	want := `tool "fake_label" is not served: the server's policy (--tools fake_get) leaves it out`
	if r.err == nil || !strings.Contains(r.err.Error()+r.stderr, want) {
		t.Errorf("err %v, stderr %q; want %q", r.err, r.stderr, want)
	}
}

// TestReadOnlyVariableTakesYes: the variable takes the words the
// annotations take (yes, no), not only strconv's.
func TestReadOnlyVariableTakesYes(t *testing.T) {
	for _, v := range []string{"yes", "YES", "on", "true", "1"} {
		t.Setenv("FAKECLI_MCP_READ_ONLY", v)
		r := runMCP(newFake(), "", "tools", "-o", "-")
		if r.err == nil || !strings.Contains(r.err.Error(), "--read-only") {
			t.Errorf("FAKECLI_MCP_READ_ONLY=%s: %v; want the read-only policy applied (no fake tool is read-only)", v, r.err)
		}
	}
	t.Setenv("FAKECLI_MCP_READ_ONLY", "maybe")
	if r := runMCP(newFake(), "", "tools", "-o", "-"); r.err == nil || !strings.Contains(r.err.Error(), `$FAKECLI_MCP_READ_ONLY="maybe": want true or false (or yes or no)`) {
		t.Errorf("maybe: %v", r.err)
	}
}
