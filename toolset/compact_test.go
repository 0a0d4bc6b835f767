package toolset_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/toolset"
)

// mycliShared are mycli's persistent root flags, which the compact listing
// states once.
var mycliShared = []string{"kubeconfig", "namespace", "output", "state", "verbose"}

func TestCompactStatesSharedFlagsOnce(t *testing.T) {
	ts := myTree()
	var names []string
	for _, f := range fullView(ts).SharedFlags() {
		names = append(names, f.Name)
	}
	if !slices.Equal(names, mycliShared) {
		t.Fatalf("shared flags %v, want %v", names, mycliShared)
	}
	for _, tool := range ts.List() {
		listed := toolset.Compact(tool).InputSchema.(*jsonschema.Schema).Properties["flags"]
		expanded := tool.Definition().InputSchema.(*jsonschema.Schema).Properties["flags"]
		if expanded == nil {
			if listed != nil {
				t.Errorf("%s: a listed flags object without an expanded one", tool.Name)
			}
			continue // DisableFlagParsing: no flags
		}
		for _, n := range mycliShared {
			if _, ok := listed.Properties[n]; ok {
				t.Errorf("%s: shared flag %s repeated in the listed schema", tool.Name, n)
			}
			if _, ok := expanded.Properties[n]; !ok {
				t.Errorf("%s: shared flag %s missing from the expanded schema", tool.Name, n)
			}
		}
		if listed.AdditionalProperties != nil {
			t.Errorf("%s: the listed flags object forbids other names, so a client would refuse the shared flags", tool.Name)
		}
		if expanded.AdditionalProperties == nil {
			t.Errorf("%s: the expanded flags object lets unknown names through", tool.Name)
		}
		// A client validating against the listed schema accepts a shared flag.
		r, err := toolset.Compact(tool).InputSchema.(*jsonschema.Schema).CloneSchemas().Resolve(nil)
		if err != nil {
			t.Fatalf("%s: listed schema: %v", tool.Name, err)
		}
		args := map[string]any{"flags": map[string]any{"namespace": "x", "output": "json"}}
		if req := toolset.Compact(tool).InputSchema.(*jsonschema.Schema).Required; slices.Contains(req, "args") || slices.Contains(req, "flags") && len(listed.Required) > 0 {
			continue // needs more than shared flags to be valid
		}
		if err := r.Validate(args); err != nil {
			t.Errorf("%s: the listed schema refuses shared flags: %v", tool.Name, err)
		}
	}
	if got := expandedWith(nil).SharedFlags(); len(got) != 0 {
		t.Errorf("expanded listing: shared flags %v, want none", got)
	}
}

func myTreeWith(cfg *toolset.Config) *toolset.Toolset {
	root := mycli.New()
	root.AddCommand(bridge.Command(nil))
	ts, err := toolset.New(root, cfg)
	if err != nil {
		panic(err)
	}
	return ts
}

// expandedWith is myTreeWith(cfg) listed expanded.
func expandedWith(cfg *toolset.Config) *toolset.Served {
	v, err := myTreeWith(cfg).View(toolset.Listing{Expanded: true})
	if err != nil {
		panic(err)
	}
	return v
}

// TestCompactValidatesExactly runs the same calls through a compact and an
// expanded toolset of mycli, on every tool, with middleware that records
// the argv instead of running: the results and argv must be identical, and
// the calls that set a shared flag wrongly, or a flag that does not exist,
// are refused.
func TestCompactValidatesExactly(t *testing.T) {
	record := func(argv *[]string) toolset.Middleware {
		return func(toolset.RunFunc) toolset.RunFunc {
			return func(_ context.Context, c *toolset.Call) (*toolset.Result, error) {
				*argv = slices.Clone(c.Argv)
				return &toolset.Result{Stdout: strings.Join(c.Argv, " ")}, nil
			}
		}
	}
	var argvC, argvE []string
	compact := myTreeWith(&toolset.Config{Middleware: []toolset.Middleware{record(&argvC)}, Executable: "/nonexistent"})
	expanded := expandedWith(&toolset.Config{Middleware: []toolset.Middleware{record(&argvE)}, Executable: "/nonexistent"})
	calls := []struct {
		args    string
		refused bool // on every tool that parses flags
	}{
		{`{"flags":{"namespace":"prod","output":"json"}}`, false},
		{`{"flags":{"verbose":2,"state":"/tmp/s.json"}}`, false},
		{`{"flags":{"output":"xml"}}`, true},
		{`{"flags":{"verbose":-1}}`, true},
		{`{"flags":{"namespace":7}}`, true},
		{`{"flags":{"no-such-flag":true}}`, true},
	}
	ctx := context.Background()
	refusals := 0
	for _, tool := range compact.List() {
		name := tool.Name
		for _, c := range calls {
			argvC, argvE = nil, nil
			rc, err := fullView(compact).Call(ctx, name, json.RawMessage(c.args))
			if err != nil {
				t.Fatal(err)
			}
			re, err := expanded.Call(ctx, name, json.RawMessage(c.args))
			if err != nil {
				t.Fatal(err)
			}
			if rc.IsError != re.IsError || resultText(rc) != resultText(re) || !slices.Equal(argvC, argvE) {
				t.Errorf("%s %s: compact gave %v %q %q, expanded %v %q %q", name, c.args, rc.IsError, resultText(rc), argvC, re.IsError, resultText(re), argvE)
			}
			if c.refused && !tool.Command.DisableFlagParsing {
				if !rc.IsError || argvC != nil {
					t.Errorf("%s %s: not refused (argv %q)", name, c.args, argvC)
				}
				refusals++
			}
		}
	}
	if refusals < 40 {
		t.Errorf("only %d refusals checked", refusals)
	}
	// A shared flag reaches the command line as any flag does.
	argvC = nil
	if r, _ := fullView(compact).Call(ctx, "mycli_version", json.RawMessage(`{"flags":{"output":"json","namespace":"prod"}}`)); r.IsError {
		t.Fatalf("mycli_version with shared flags: %s", resultText(r))
	}
	if s := strings.Join(argvC, " "); !strings.Contains(s, "--output=json") || !strings.Contains(s, "--namespace=prod") {
		t.Errorf("argv %q lacks the shared flags", argvC)
	}
}

func TestCompactDescription(t *testing.T) {
	long := "First paragraph says what it does.\n\nSecond paragraph, left out.\n\n" + strings.Repeat("More. ", 50)
	var ex []string
	for i := range 10 {
		ex = append(ex, fmt.Sprintf("  # example %d\n  tt run --n %d", i, i))
	}
	huge := strings.Repeat("word ", 1000)
	tests := []struct {
		name             string
		c                *cobra.Command
		want, notWant    []string
		wantMax, wantCut bool
	}{
		{"first paragraph and three examples",
			&cobra.Command{Use: "run", Short: "Run it", Long: long, Example: strings.Join(ex, "\n\n")},
			[]string{"First paragraph says what it does. …", "Usage: tt run", "# example 2\n  tt run --n 2", "…7 more examples"},
			[]string{"Second paragraph", "example 3", "Run it"}, false, false},
		{"short when no long; one-line examples split",
			&cobra.Command{Use: "ls", Short: "List things", Example: "  tt ls\n  tt ls -a\n  tt ls -l\n  tt ls -la"},
			[]string{"List things", "  tt ls -l", "…1 more example"},
			[]string{"tt ls -la"}, false, false},
		{"cut at 2 KB with a mark",
			&cobra.Command{Use: "big", Long: huge},
			[]string{"word word"}, nil, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := &cobra.Command{Use: "tt"}
			tc.c.RunE = noop
			root.AddCommand(tc.c, &cobra.Command{Use: "other", RunE: noop})
			ts := mustTools(t, root, nil)
			tool, ok := ts.Lookup("tt_" + tc.c.Name())
			if !ok {
				t.Fatalf("no tool; problems %v", ts.Problems())
			}
			d := toolset.Compact(tool).Description
			for _, w := range tc.want {
				if !strings.Contains(d, w) {
					t.Errorf("description lacks %q:\n%s", w, d)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(d, w) {
					t.Errorf("description has %q:\n%s", w, d)
				}
			}
			if len(d) > toolset.MaxDescription {
				t.Errorf("description of %d bytes, over %d", len(d), toolset.MaxDescription)
			}
			if tc.wantCut != strings.HasSuffix(d, "…(cut)") {
				t.Errorf("cut mark: %v, want %v (%d bytes)", strings.HasSuffix(d, "…(cut)"), tc.wantCut, len(d))
			}
			if !strings.Contains(tool.Definition().Description, strings.TrimSpace(tc.c.Long)) {
				t.Error("the expanded description lacks the whole Long")
			}
		})
	}
}

func TestCompactFlagDescriptions(t *testing.T) {
	long := "Must be one of: strict, warn or ignore. \"strict\" validates the input and fails the request if it is invalid, falling back to less reliable checks when the server cannot."
	root := &cobra.Command{Use: "tt"}
	a := &cobra.Command{Use: "a", RunE: noop}
	a.Flags().String("validate", "strict", long)
	a.Flags().Duration("wait", 0, "How long to wait. Zero means that the command does not wait at all, whatever the server does, however long it takes and whoever asks for it.")
	a.Flags().String("short", "", "A short one. It stays whole.")
	root.AddCommand(a, &cobra.Command{Use: "b", RunE: noop})
	ts := mustTools(t, root, nil)
	tool, _ := ts.Lookup("tt_a")
	props := toolset.Compact(tool).InputSchema.(*jsonschema.Schema).Properties["flags"].Properties
	for name, want := range map[string]string{
		"validate": "Must be one of: strict, warn or ignore. …",
		"wait":     "How long to wait. … (Go duration such as 30s, 5m, 1h30m)",
		"short":    "A short one. It stays whole.",
	} {
		if got := props[name].Description; got != want {
			t.Errorf("--%s: %q, want %q", name, got, want)
		}
	}
	full := tool.Definition().InputSchema.(*jsonschema.Schema).Properties["flags"].Properties
	if full["validate"].Description != long {
		t.Errorf("the expanded schema's description changed: %q", full["validate"].Description)
	}
}

func TestInstructions(t *testing.T) {
	ts := myTreeWith(&toolset.Config{Instructions: "Use --state to work on a scratch file."})
	got := fullView(ts).Instructions()
	for _, w := range []string{"Use --state to work on a scratch file.", "mycli 1.4.2: mycli is a small", "Each tool runs one mycli command",
		"--namespace string: namespace of the objects (default \"default\")", "--verbose count", "stdout, stderr, exitCode"} {
		if !strings.Contains(got, w) {
			t.Errorf("instructions lack %q:\n%s", w, got)
		}
	}
	if !strings.HasPrefix(got, "Use --state") {
		t.Errorf("the author's text does not come first:\n%s", got)
	}
	if exp := expandedWith(nil).Instructions(); strings.Contains(exp, "Shared flags") || !strings.Contains(exp, "Each tool runs") {
		t.Errorf("expanded listing's instructions:\n%s", exp)
	}

	// A long author's text is cut, with a mark, so that the shared flags
	// still fit; the whole stays within 2 KB.
	big := fullView(myTreeWith(&toolset.Config{Instructions: strings.Repeat("Author words. ", 400)})).Instructions()
	if len(big) > toolset.MaxInstructions || !strings.Contains(big, "…(cut)") {
		t.Errorf("instructions of %d bytes, cut mark %v", len(big), strings.Contains(big, "…(cut)"))
	}
	for _, n := range mycliShared {
		if !strings.Contains(big, "--"+n) {
			t.Errorf("cut instructions lack --%s:\n%s", n, big)
		}
	}

	// 27 shared flags with long usages: stated in a shorter form, every
	// name still there, within 2 KB.
	large, err := toolset.New(largeTree(), nil)
	if err != nil {
		t.Fatal(err)
	}
	li := fullView(large).Instructions()
	if len(li) > toolset.MaxInstructions {
		t.Errorf("large tree: %d bytes of instructions", len(li))
	}
	if n := len(fullView(large).SharedFlags()); n != 27 {
		t.Errorf("large tree: %d shared flags, want 27", n)
	}
	for _, f := range fullView(large).SharedFlags() {
		if !strings.Contains(li, "--"+f.Name+" ") {
			t.Errorf("large tree: instructions lack --%s", f.Name)
		}
	}
}

// TestSharedFlagsCutFits: when the shared flags' meanings do not fit in
// full, each is cut to the largest length that fits the budget left (the
// next length up does not fit), not to a fixed length; below the shortest
// useful cut they are stated by name and type.
func TestSharedFlagsCutFits(t *testing.T) {
	large, err := toolset.New(largeTree(), nil)
	if err != nil {
		t.Fatal(err)
	}
	flags := fullView(large).SharedFlags()
	for _, budget := range []int{1500, 1600, 1700, 2048 - 440} {
		text, n := toolset.SharedFlagsText(flags, budget)
		if n <= 0 || len(text) > budget {
			t.Fatalf("budget %d: cut %d, %d bytes", budget, n, len(text))
		}
		if text != toolset.SharedIntro+"\n"+toolset.FlagLines(flags, n) {
			t.Errorf("budget %d: the text is not the flags cut to %d", budget, n)
		}
		// A cut a few bytes longer no longer fits (lengths grow by words,
		// so the next few lengths may give the same text).
		longer := toolset.SharedIntro + "\n" + toolset.FlagLines(flags, n+8)
		if len(longer) <= budget {
			t.Errorf("budget %d: cut %d leaves room: a cut of %d takes %d bytes", budget, n, n+8, len(longer))
		}
	}
	if text, n := toolset.SharedFlagsText(flags, 900); n != -1 || !strings.HasPrefix(text, toolset.SharedIntro+" --") {
		t.Errorf("a budget too small for any cut: n %d, %q", n, text)
	}
	if _, n := toolset.SharedFlagsText(flags, 1<<20); n != 0 {
		t.Errorf("a budget that fits everything: cut %d, want the full form", n)
	}
	// With the whole 2 KB, the kubectl-sized large tree gets a longer cut
	// than the fixed 32 bytes of before.
	li := fullView(large).Instructions()
	_, after, _ := strings.Cut(li, toolset.SharedIntro+"\n")
	if _, n := toolset.SharedFlagsText(flags, len(after)+len(toolset.SharedIntro)+1); n <= 32 || len(li) > toolset.MaxInstructions {
		t.Errorf("large tree: cut %d, %d bytes:\n%s", n, len(li), li)
	}
}

// TestInstructionsInInitialize checks that a client receives the
// instructions in the initialize result.
func TestInstructionsInInitialize(t *testing.T) {
	ts := myTreeWith(&toolset.Config{Instructions: "Author's note."})
	srv := fullView(ts).NewServer(toolset.ServerOptions{})
	cs := connect(t, srv)
	if got := cs.InitializeResult().Instructions; got != fullView(ts).Instructions() || !strings.HasPrefix(got, "Author's note.") {
		t.Errorf("initialize instructions:\n%s\nwant:\n%s", got, fullView(ts).Instructions())
	}
}

// TestToolsExportListing runs `mycli mcp tools` in-process: the mcp format
// is the compact listing, --expanded (or its variable) the expanded one,
// and the dialects, which have no server instructions, are expanded.
func TestToolsExportListing(t *testing.T) {
	run := func(args ...string) string {
		t.Helper()
		root := mycli.New()
		root.AddCommand(bridge.Command(nil))
		var out, errb strings.Builder
		root.SetOut(&out)
		root.SetErr(&errb)
		root.SetArgs(append([]string{"mcp", "tools", "-o", "-"}, args...))
		if err := root.Execute(); err != nil {
			t.Fatalf("mcp tools %v: %v\n%s", args, err, errb.String())
		}
		return out.String()
	}
	compact, err := exportJSON(fullView(myTree()).Tools())
	if err != nil {
		t.Fatal(err)
	}
	expanded, _ := exportJSON(fullViewExpanded(myTree()).Tools())
	if got := run(); got != string(compact) {
		t.Error("mcp tools is not the compact listing")
	}
	if got := run("--expanded"); got != string(expanded) {
		t.Error("mcp tools --expanded is not the expanded listing")
	}
	t.Setenv("MYCLI_MCP_EXPANDED", "true")
	if got := run(); got != string(expanded) {
		t.Error("MYCLI_MCP_EXPANDED=true: not the expanded listing")
	}
	t.Setenv("MYCLI_MCP_EXPANDED", "")
	// The anthropic dialect keeps the MCP schema: its mycli_get_pods has
	// the shared flags.
	var anthropic []struct {
		Name        string
		InputSchema *jsonschema.Schema `json:"input_schema"`
	}
	if err := json.Unmarshal([]byte(run("--format", "anthropic")), &anthropic); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range anthropic {
		if f.Name == "mycli_get_pods" {
			found = true
			if _, ok := f.InputSchema.Properties["flags"].Properties["namespace"]; !ok {
				t.Errorf("anthropic export of mycli_get_pods lacks the shared flag namespace")
			}
		}
	}
	if !found {
		t.Error("anthropic export lacks mycli_get_pods")
	}
}

// TestPolicyAndCompact: a pinned shared flag leaves the instructions, a
// tool whose own flags are all pinned or shared keeps its open flags
// object, and Policy.Expanded lists the expanded definitions.
func TestPolicyAndCompact(t *testing.T) {
	ts := myTree()
	v, err := ts.View(toolset.Listing{}, toolset.Policy{Pins: []toolset.Pin{{Flag: "namespace", Value: "prod", From: "--set"}}})
	if err != nil {
		t.Fatal(err)
	}
	if in := v.Instructions(); strings.Contains(in, "--namespace") || !strings.Contains(in, "--output") {
		t.Errorf("instructions with namespace pinned:\n%s", in)
	}
	for _, tool := range v.Tools() {
		in := tool.InputSchema.(*jsonschema.Schema)
		orig, _ := ts.Lookup(tool.Name)
		if toolset.Compact(orig).InputSchema.(*jsonschema.Schema).Properties["flags"] != nil && in.Properties["flags"] == nil {
			t.Errorf("%s: the pin removed the open flags object", tool.Name)
		}
	}
	r, err := v.Call(context.Background(), "mycli_version", json.RawMessage(`{"flags":{"namespace":"x"}}`))
	if err != nil || !r.IsError {
		t.Errorf("a call setting the pinned shared flag was not refused: %v %v", err, r)
	}
	e, err := ts.View(toolset.Listing{Expanded: true})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := exportJSON(e.Tools())
	b, _ := exportJSON(fullViewExpanded(ts).Tools())
	if string(a) != string(b) {
		t.Error("Policy.Expanded does not list the expanded definitions")
	}
	if in := e.Instructions(); strings.Contains(in, "Shared flags") {
		t.Errorf("expanded policy: instructions state shared flags:\n%s", in)
	}
}

// namedShared reads the shared flags a compact "flags" description names,
// name to type, from its "(TYPE: a, b; TYPE: c)" part.
func namedShared(d string) map[string]string {
	out := map[string]string{}
	open, end := strings.Index(d, "("), strings.LastIndex(d, ")")
	if open < 0 || end < open {
		return out
	}
	for _, group := range strings.Split(d[open+1:end], "; ") {
		typ, names, ok := strings.Cut(group, ": ")
		if !ok {
			continue
		}
		for _, n := range strings.Split(names, ", ") {
			out[n] = typ
		}
	}
	return out
}

// TestListedToolsNameSharedFlags: a client may drop the server
// instructions, and an export has none, so each compact tool names in its
// "flags" description every shared flag it accepts but does not list,
// with its JSON type, and none that a pin fixes.
func TestListedToolsNameSharedFlags(t *testing.T) {
	ts := myTree()
	for _, pins := range [][]toolset.Pin{nil, {{Flag: "namespace", Value: "prod", From: "--set"}}} {
		v, err := ts.View(toolset.Listing{}, toolset.Policy{Pins: pins})
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range v.Tools() {
			listed := tool.InputSchema.(*jsonschema.Schema).Properties["flags"]
			orig, _ := ts.Lookup(tool.Name)
			expanded := orig.Definition().InputSchema.(*jsonschema.Schema).Properties["flags"]
			if listed == nil {
				continue
			}
			want := map[string]string{}
			for _, f := range v.SharedFlags() {
				if _, own := listed.Properties[f.Name]; own || slices.ContainsFunc(pins, func(p toolset.Pin) bool { return p.Flag == f.Name }) {
					continue
				}
				if s := expanded.Properties[f.Name]; s != nil {
					want[f.Name] = s.Type
				}
			}
			if len(want) == 0 {
				t.Fatalf("%s: no shared flag to name", tool.Name)
			}
			if got := namedShared(listed.Description); !maps.Equal(got, want) {
				t.Errorf("pins %v: %s names %v in %q, want %v", pins, tool.Name, got, listed.Description, want)
			}
		}
	}
}
