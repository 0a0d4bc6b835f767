package bridge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/internal/jsonvalue"
	"github.com/cobramcp/cobramcp/toolset"
)

// fakeCLI is a small CLI, fakecli, reflected by the real toolset under the
// tool prefix "fake": fake_get (--output, --limit, args and the words after
// "--"), fake_set-x (--x, a float, in a name the canonical dialect renames),
// fake_label (--labels, a map) and fake_argsflag (a flag named "args" and
// no positional args). Its calls never run: a middleware records each one
// and answers with result.
type fakeCLI struct {
	version, short, long string          // the root's, for the tool set's Info
	omit                 map[string]bool // commands left out of the tree
	timeout              time.Duration   // toolset.Config.Timeout
	prefix               string          // toolset.Config.ToolPrefix
	// build, when set, builds another tree instead of fakecli's.
	build func() *cobra.Command
	// result answers a call; nil answers "ran TOOL\n".
	result func(c *toolset.Call) *toolset.Result

	mu    sync.Mutex
	calls []*toolset.Call
}

func newFake() *fakeCLI {
	return &fakeCLI{version: "0.3.1", short: "A fake CLI.", long: "A fake CLI for cmd's tests.", prefix: "fake"}
}

// tree builds the fake's command tree.
func (f *fakeCLI) tree() *cobra.Command {
	if f.build != nil {
		return f.build()
	}
	noop := func(*cobra.Command, []string) error { return nil }
	root := &cobra.Command{Use: "fakecli", Version: f.version, Short: f.short, Long: f.long}
	get := &cobra.Command{Use: "get [NAME...] -- [COMMAND...]", Short: "Get things.", Args: cobra.ArbitraryArgs, RunE: noop}
	get.Flags().String("output", "table", "output format: table or json")
	get.Flags().Int("limit", 0, "at most this many things")
	setX := &cobra.Command{Use: "set-x", Short: "Set x.", Args: cobra.NoArgs, RunE: noop}
	setX.Flags().Float64("x", 0, "the new x")
	label := &cobra.Command{Use: "label", Short: "Label things.", Args: cobra.NoArgs, RunE: noop}
	label.Flags().StringToString("labels", nil, "labels to set, KEY=VALUE")
	argsFlag := &cobra.Command{Use: "argsflag", Short: "Has a flag named args.", Args: cobra.NoArgs, RunE: noop}
	argsFlag.Flags().String("args", "", "a flag that is named args")
	for _, c := range []*cobra.Command{get, setX, label, argsFlag} {
		if !f.omit[c.Name()] {
			root.AddCommand(c)
		}
	}
	return root
}

// config is the fake's toolset configuration: its prefix, its timeout and
// the middleware that records the calls instead of running them.
func (f *fakeCLI) config() *toolset.Config {
	return &toolset.Config{ToolPrefix: f.prefix, Timeout: f.timeout, Middleware: []toolset.Middleware{f.record}}
}

func (f *fakeCLI) record(toolset.RunFunc) toolset.RunFunc {
	return func(_ context.Context, c *toolset.Call) (*toolset.Result, error) {
		f.mu.Lock()
		f.calls = append(f.calls, c)
		result := f.result
		f.mu.Unlock()
		if result == nil {
			return &toolset.Result{Stdout: "ran " + c.Tool + "\n"}, nil
		}
		return result(c), nil
	}
}

// source is the fake's bridge.Options.Tree: a tree independent of the
// root that runs the mcp group, as a program serving another tree has.
func (f *fakeCLI) source(*cobra.Command, *slog.Logger) (*cobra.Command, *toolset.Config, error) {
	return f.tree(), f.config(), nil
}

// load is the fake's tool set.
func (f *fakeCLI) load(*cobra.Command) (*toolset.Toolset, error) {
	return toolset.New(f.tree(), f.config())
}

// view returns the fake's tools in the shape l asks for, without a policy:
// what the mcp commands list.
func (f *fakeCLI) view(t *testing.T, l toolset.Listing) *toolset.Served {
	t.Helper()
	ts, err := f.load(nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ts.View(l)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// answer makes every call answer res.
func (f *fakeCLI) answer(res toolset.Result) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.result = func(*toolset.Call) *toolset.Result { r := res; return &r }
}

// fakeCall is one recorded call: the tool and what reached the run, as
// JSON {"flags", "args", "argsAfterDash"} (those given), keys sorted.
type fakeCall struct {
	Name string
	Args string
}

func (f *fakeCLI) ncalls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

// lastCall returns the last call.
func (f *fakeCLI) lastCall(t *testing.T) fakeCall {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.calls) == 0 {
		t.Fatal("no call was made")
	}
	return renderCall(f.calls[len(f.calls)-1])
}

// lastCallArgs returns the arguments of the last call.
func (f *fakeCLI) lastCallArgs() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.calls) == 0 {
		return "(no call)"
	}
	return renderCall(f.calls[len(f.calls)-1]).Args
}

func renderCall(c *toolset.Call) fakeCall {
	m := map[string]any{}
	if len(c.Flags) > 0 {
		m["flags"] = c.Flags
	}
	if c.Args != nil {
		m["args"] = c.Args
	}
	if c.ArgsAfterDash != nil {
		m["argsAfterDash"] = c.ArgsAfterDash
	}
	b, err := json.Marshal(m)
	if err != nil {
		return fakeCall{c.Tool, "unencodable: " + err.Error()}
	}
	return fakeCall{c.Tool, string(b)}
}

// canonJSON returns the JSON text s with its object keys sorted and no
// insignificant space, numbers kept as written.
func canonJSON(t *testing.T, s string) string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// runResult is what one run of the command tree gave.
type runResult struct {
	stdout, stderr string
	err            error
}

// runMCP runs `fakecli mcp ARGS...` with f's tools and stdin as its input.
func runMCP(f *fakeCLI, stdin string, args ...string) runResult {
	root := &cobra.Command{Use: "fakecli", SilenceUsage: true, SilenceErrors: true}
	root.AddCommand(bridge.New(bridge.Options{Tree: f.source}))
	var out, errb bytes.Buffer
	root.SetIn(strings.NewReader(stdin))
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(append([]string{"mcp"}, args...))
	err := root.Execute()
	return runResult{out.String(), errb.String(), err}
}

// exportJSON renders v as the mcp commands print JSON.
var exportJSON = jsonvalue.Marshal
