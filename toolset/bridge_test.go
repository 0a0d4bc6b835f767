package toolset_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/toolset"
)

func noop(*cobra.Command, []string) error { return nil }

// testTree is a small tree with one command for each case the walk handles.
func testTree() *cobra.Command {
	root := &cobra.Command{Use: "tt", Short: "test tree", Version: "1.2.3"}
	root.PersistentFlags().StringP("namespace", "n", "default", "the namespace")
	root.PersistentFlags().Bool("debug", false, "debug output")
	root.PersistentFlags().String("old", "", "old flag")
	_ = root.PersistentFlags().MarkDeprecated("old", "use --namespace")

	get := &cobra.Command{Use: "get", Short: "Get things"}
	pods := &cobra.Command{Use: "pods [NAME]", Short: "List pods", Args: cobra.MaximumNArgs(1), RunE: noop,
		Annotations: map[string]string{bridge.AnnotationReadOnly: "true", bridge.AnnotationTitle: "List pods"}}
	pods.Flags().Bool("headers", true, "print headers")
	pods.Flags().String("namespace", "local", "shadows the inherited one")
	pods.Flags().String("secret", "", "hidden flag")
	_ = pods.Flags().MarkHidden("secret")
	get.AddCommand(pods)

	exact := &cobra.Command{Use: "describe NAME", Args: cobra.ExactArgs(1), RunE: noop}
	rng := &cobra.Command{Use: "cp SRC [DST]", Args: cobra.RangeArgs(1, 2), RunE: noop}
	minimum := &cobra.Command{Use: "touch FILE...", Args: cobra.MinimumNArgs(1), RunE: noop}
	none := &cobra.Command{Use: "version", Args: cobra.NoArgs, RunE: noop}
	free := &cobra.Command{Use: "echo [ARGS...]", RunE: noop}
	valid := &cobra.Command{Use: "use CONTEXT", Args: cobra.MatchAll(cobra.ExactArgs(1), cobra.OnlyValidArgs),
		ValidArgs: []string{"prod\tproduction", "dev"}, RunE: noop}
	hidden := &cobra.Command{Use: "secret", Hidden: true, RunE: noop}
	deprecated := &cobra.Command{Use: "old", Deprecated: "use new", RunE: noop}
	helpers := &cobra.Command{Use: "show-helpers", RunE: noop}
	under := &cobra.Command{Use: "cluster_info", RunE: noop}
	del := &cobra.Command{Use: "delete NAME", Args: cobra.ExactArgs(1), RunE: noop,
		Annotations: map[string]string{bridge.AnnotationDestructive: "true"}}
	del.Flags().Bool("all", false, "all")
	del.Flags().String("selector", "", "selector")
	del.Flags().String("user", "", "user")
	del.Flags().String("password", "", "password")
	del.Flags().Bool("now", false, "now")
	del.Flags().Bool("force", false, "force")
	del.MarkFlagsMutuallyExclusive("all", "selector")
	del.MarkFlagsRequiredTogether("user", "password")
	del.MarkFlagsOneRequired("now", "force")
	apply := &cobra.Command{Use: "apply", Args: cobra.NoArgs, RunE: noop}
	apply.Flags().StringP("filename", "f", "", "file")
	_ = apply.MarkFlagRequired("filename")
	raw := &cobra.Command{Use: "exec POD -- CMD", DisableFlagParsing: true, RunE: noop}

	root.AddCommand(get, exact, rng, minimum, none, free, valid, hidden, deprecated, helpers, under, del, apply, raw)
	root.AddCommand(bridge.Command(nil))
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	return root
}

func mustTools(t *testing.T, root *cobra.Command, cfg *toolset.Config) *toolset.Toolset {
	t.Helper()
	ts, err := toolset.New(root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func names(ts *toolset.Toolset) []string {
	var out []string
	for _, tool := range ts.List() {
		out = append(out, tool.Name)
	}
	return out
}

func TestWalkSelectsRunnableCommands(t *testing.T) {
	ts := mustTools(t, testTree(), nil)
	want := []string{"tt_apply", "tt_cluster_info", "tt_cp", "tt_delete", "tt_describe", "tt_echo", "tt_exec",
		"tt_get_pods", "tt_show-helpers", "tt_touch", "tt_use", "tt_version"}
	if got := names(ts); !slices.Equal(got, want) {
		t.Errorf("tools = %v\nwant    %v", got, want)
	}
	for _, tool := range ts.List() {
		if p := strings.Join(tool.Path, " "); tool.Command.CommandPath() != strings.TrimSpace("tt "+p) {
			t.Errorf("%s: path %q does not lead to %q", tool.Name, p, tool.Command.CommandPath())
		}
	}
}

// schemaJSON returns a tool's input schema as generic JSON.
func schemaJSON(t *testing.T, ts *toolset.Toolset, name string) map[string]any {
	t.Helper()
	tool, ok := ts.Lookup(name)
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	b, err := json.Marshal(tool.Definition().InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestArgsInference(t *testing.T) {
	ts := mustTools(t, testTree(), nil)
	tests := []struct {
		tool     string
		present  bool
		min, max any // float64 or nil
		enum     []any
	}{
		{"tt_get_pods", true, nil, 1.0, nil},
		{"tt_describe", true, 1.0, 1.0, nil},
		{"tt_cp", true, 1.0, 2.0, nil},
		{"tt_touch", true, 1.0, nil, nil},
		{"tt_version", false, nil, nil, nil},
		{"tt_apply", false, nil, nil, nil},
		{"tt_echo", true, nil, nil, nil},
		{"tt_use", true, 1.0, 1.0, []any{"prod", "dev"}},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			props := schemaJSON(t, ts, tt.tool)["properties"].(map[string]any)
			args, ok := props["args"].(map[string]any)
			if ok != tt.present {
				t.Fatalf("args present = %v, want %v", ok, tt.present)
			}
			if !ok {
				return
			}
			if args["minItems"] != tt.min || args["maxItems"] != tt.max {
				t.Errorf("minItems, maxItems = %v, %v; want %v, %v", args["minItems"], args["maxItems"], tt.min, tt.max)
			}
			items := args["items"].(map[string]any)
			if tt.enum != nil && !slices.Equal(items["enum"].([]any), tt.enum) {
				t.Errorf("enum = %v, want %v", items["enum"], tt.enum)
			}
			if tt.enum == nil && items["enum"] != nil {
				t.Errorf("unexpected enum %v", items["enum"])
			}
			if !strings.Contains(args["description"].(string), "Positional arguments") {
				t.Errorf("description %q lacks the usage", args["description"])
			}
		})
	}
}

func TestFlagsSchema(t *testing.T) {
	ts := mustTools(t, testTree(), nil)
	pods := schemaJSON(t, ts, "tt_get_pods")
	flags := pods["properties"].(map[string]any)["flags"].(map[string]any)
	props := flags["properties"].(map[string]any)
	var got []string
	for k := range props {
		got = append(got, k)
	}
	slices.Sort(got)
	if want := []string{"debug", "headers", "namespace"}; !slices.Equal(got, want) {
		t.Errorf("flags = %v, want %v (hidden, deprecated and help left out)", got, want)
	}
	if d := props["namespace"].(map[string]any)["default"]; d != "local" {
		t.Errorf("local flag does not shadow the inherited one: default %v", d)
	}
	if flags["additionalProperties"] != false || pods["additionalProperties"] != false {
		t.Errorf("additionalProperties not false: %v %v", flags["additionalProperties"], pods["additionalProperties"])
	}
	if _, ok := pods["required"]; ok {
		t.Errorf("flags required although no flag is: %v", pods["required"])
	}

	apply := schemaJSON(t, ts, "tt_apply")
	if r := apply["required"]; !slices.Equal(r.([]any), []any{"flags"}) {
		t.Errorf("apply required = %v", r)
	}
	af := apply["properties"].(map[string]any)["flags"].(map[string]any)
	if r := af["required"]; !slices.Equal(r.([]any), []any{"filename"}) {
		t.Errorf("apply flags.required = %v", r)
	}
}

func TestFlagGroups(t *testing.T) {
	ts := mustTools(t, testTree(), nil)
	tool, _ := ts.Lookup("tt_delete")
	for _, s := range []string{"At most one of --all, --selector", "--user, --password must be set together", "At least one of --now, --force"} {
		if !strings.Contains(toolset.Compact(tool).Description, s) {
			t.Errorf("description lacks %q:\n%s", s, toolset.Compact(tool).Description)
		}
	}
	r, err := toolset.Compact(tool).InputSchema.(*jsonschema.Schema).Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		flags string
		ok    bool
	}{
		{`{"now":true}`, true},
		{`{"force":true,"all":true}`, true},
		{`{}`, false},
		{`{"now":true,"all":true,"selector":"a"}`, false},
		{`{"now":true,"user":"u"}`, false},
		{`{"now":true,"user":"u","password":"p"}`, true},
	}
	for _, tt := range tests {
		var flags any
		_ = json.Unmarshal([]byte(tt.flags), &flags)
		err := r.Validate(map[string]any{"flags": flags, "args": []any{"x"}})
		if (err == nil) != tt.ok {
			t.Errorf("flags %s: err = %v, want ok=%v", tt.flags, err, tt.ok)
		}
	}
}

func TestAnnotationsAndOutputSchema(t *testing.T) {
	ts := mustTools(t, testTree(), nil)
	pods, _ := ts.Lookup("tt_get_pods")
	if a := pods.Definition().Annotations; a == nil || !a.ReadOnlyHint || a.Title != "List pods" || pods.Definition().Title != "List pods" {
		t.Errorf("annotations = %+v", pods.Definition().Annotations)
	}
	del, _ := ts.Lookup("tt_delete")
	if a := del.Definition().Annotations; a == nil || a.DestructiveHint == nil || !*a.DestructiveHint {
		t.Errorf("delete annotations = %+v", del.Definition().Annotations)
	}
	b, _ := json.Marshal(toolset.Compact(del).OutputSchema)
	var out struct {
		Type       string
		Required   []string
		Properties map[string]struct{ Type string }
	}
	_ = json.Unmarshal(b, &out)
	if out.Type != "object" || !slices.Equal(out.Required, []string{"stdout", "stderr", "exitCode"}) ||
		out.Properties["stdout"].Type != "string" || out.Properties["stderr"].Type != "string" || out.Properties["exitCode"].Type != "integer" {
		t.Errorf("output schema = %s", b)
	}
}

func TestSelectors(t *testing.T) {
	cfg := &toolset.Config{Selectors: []toolset.Selector{
		{Cmd: bridge.AllowCmds("get"), InheritedFlag: bridge.ExcludeFlags("debug")},
		{Cmd: bridge.AllowCmds("delete", "version"), LocalFlag: bridge.AllowFlags("all")},
	}}
	ts := mustTools(t, testTree(), cfg)
	if got, want := names(ts), []string{"tt_delete", "tt_get_pods", "tt_version"}; !slices.Equal(got, want) {
		t.Fatalf("tools = %v, want %v", got, want)
	}
	pods, _ := ts.Lookup("tt_get_pods")
	if pods.Flags.Lookup("debug") != nil || pods.Flags.Lookup("headers") == nil {
		t.Error("inherited flag selector not applied")
	}
	del, _ := ts.Lookup("tt_delete")
	if del.Flags.Lookup("selector") != nil || del.Flags.Lookup("all") == nil || del.Flags.Lookup("debug") == nil {
		t.Error("local flag selector not applied")
	}
	// An excluded flag cannot be set by a call, not even through args.
	res, err := fullView(ts).Call(context.Background(), "tt_delete", json.RawMessage(`{"flags":{"selector":"x"},"args":["a"]}`))
	if err != nil || !res.IsError || !strings.Contains(resultText(res), `unknown flag "selector"`) {
		t.Errorf("excluded flag accepted: %v %v", err, resultText(res))
	}
}

func TestToolPrefixAndNames(t *testing.T) {
	ts := mustTools(t, testTree(), &toolset.Config{ToolPrefix: "k8s.x"})
	if _, ok := ts.Lookup("k8s_x_get_pods"); !ok {
		t.Errorf("prefix not applied: %v", names(ts))
	}
	tests := []struct{ in, want string }{
		{"a_b-c", "a_b-c"},
		{"a b.c:d", "a_b_c_d"},
		{"", "_"},
		{"ünï", "_n_"},
	}
	for _, tt := range tests {
		if got := toolset.ToolName(tt.in); got != tt.want {
			t.Errorf("ToolName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	long := strings.Repeat("x", 100)
	a, b := toolset.ToolName(long), toolset.ToolName(long+"y")
	if len(a) != toolset.MaxNameLen || len(b) != toolset.MaxNameLen || a == b || a != toolset.ToolName(long) {
		t.Errorf("long names not shortened deterministically and distinctly: %q %q", a, b)
	}
}

func TestNameClashIsReported(t *testing.T) {
	root := &cobra.Command{Use: "r"}
	root.AddCommand(&cobra.Command{Use: "a_b", RunE: noop})
	a := &cobra.Command{Use: "a"}
	a.AddCommand(&cobra.Command{Use: "b", RunE: noop})
	root.AddCommand(a)
	ts := mustTools(t, root, nil)
	if got := names(ts); len(got) != 1 {
		t.Errorf("tools = %v, want one of the clashing pair", got)
	}
	ps := ts.Problems()
	if len(ps) != 1 || !strings.Contains(ps[0].String(), "already taken") {
		t.Errorf("problems = %v", ps)
	}
}

func TestInputErrors(t *testing.T) {
	ts := mustTools(t, testTree(), &toolset.Config{Executable: "/nonexistent/never-run"})
	tests := []struct {
		tool, args, want string
	}{
		{"tt_get_pods", `{"flags":{"nope":1}}`, `unknown flag "nope"`},
		{"tt_get_pods", `{"flags":{"headers":"yes"}}`, `invalid arguments`},
		{"tt_get_pods", `{"flags":[1]}`, `"flags" must be an object`},
		{"tt_get_pods", `{"args":["a","b"]}`, `invalid arguments`},
		{"tt_get_pods", `{"args":[1]}`, `"args" must be an array of strings`},
		{"tt_get_pods", `{"args":[null]}`, `"args" must be an array of strings: element 0 is null`},
		{"tt_cp", `{"args":["a",null]}`, `"args" must be an array of strings: element 1 is null`},
		{"tt_exec", `{"args":["a","b\u0000c"]}`, `positional argument 1: a NUL byte`},
		{"tt_get_pods", `{"flags":{"namespace":1e400}}`, `flag --namespace: json: cannot unmarshal number 1e400`},
		{"tt_get_pods", `{"extra":1}`, `unknown argument "extra"`},
		{"tt_get_pods", `[1,2]`, `must be a JSON object`},
		{"tt_get_pods", `{"flags":`, `must be a JSON object`},
		{"tt_apply", `{}`, `invalid arguments`},
		{"tt_version", `{"args":["x"]}`, `takes no positional args`},
		{"tt_describe", `{}`, `invalid arguments`},
		{"tt_delete", `{"flags":{"now":true,"all":true,"selector":"x"},"args":["a"]}`, `flags --all, --selector cannot be used together`},
		{"tt_delete", `{"flags":{"now":true,"user":"u"},"args":["a"]}`, `flags --user, --password must be set together (--user set)`},
		{"tt_delete", `{"args":["a"]}`, `at least one of the flags --now, --force must be set`},
	}
	for _, tt := range tests {
		res, err := fullView(ts).Call(context.Background(), tt.tool, json.RawMessage(tt.args))
		if err != nil {
			t.Fatalf("%s %s: %v", tt.tool, tt.args, err)
		}
		text := resultText(res)
		if !res.IsError || !strings.Contains(text, tt.want) || !strings.Contains(text, "Nothing was run") {
			t.Errorf("%s %s: isError=%v text=%q, want %q", tt.tool, tt.args, res.IsError, text, tt.want)
		}
	}
	if _, err := fullView(ts).Call(context.Background(), "tt_nope", nil); err == nil || err.Error() != `unknown tool "tt_nope"` {
		t.Errorf("unknown tool: %v", err)
	}
	// A name without the CLI's prefix, or with '_' for '-', gets the one
	// tool it most likely means.
	for name, want := range map[string]string{"get_pods": `unknown tool "get_pods"; did you mean "tt_get_pods"?`, "TT_GET_PODS": `did you mean "tt_get_pods"?`} {
		if _, err := fullView(ts).Call(context.Background(), name, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("unknown tool %s: %v, want %q", name, err, want)
		}
	}
	// null flags are "not set" (OpenAI strict mode); a valid call reaches the
	// process, which cannot start here.
	res, _ := fullView(ts).Call(context.Background(), "tt_get_pods", json.RawMessage(`{"flags":{"headers":null}}`))
	if !res.IsError || !strings.Contains(resultText(res), "could not start") {
		t.Errorf("valid call did not reach the runner: %q", resultText(res))
	}
}

func TestMiddlewareSeesArgv(t *testing.T) {
	var seen *toolset.Call
	cfg := &toolset.Config{Middleware: []toolset.Middleware{func(next toolset.RunFunc) toolset.RunFunc {
		return func(ctx context.Context, c *toolset.Call) (*execResult, error) {
			seen = c
			return &execResult{Stdout: "ok", ExitCode: 0}, nil
		}
	}}}
	ts := mustTools(t, testTree(), cfg)
	res, err := fullView(ts).Call(context.Background(), "tt_get_pods", json.RawMessage(`{"flags":{"headers":false,"namespace":"-n"},"args":["--debug=true"]}`))
	if err != nil || res.IsError {
		t.Fatalf("call: %v %v", err, resultText(res))
	}
	want := []string{"get", "pods", "--headers=false", "--namespace=-n", "--", "--debug=true"}
	if !slices.Equal(seen.Argv, want) {
		t.Errorf("argv = %q, want %q", seen.Argv, want)
	}
	// The command's own parser reads it back exactly.
	root := testTree()
	var gotNS string
	var gotArgs []string
	var gotHeaders bool
	pods, _, _ := root.Find([]string{"get", "pods"})
	pods.RunE = func(c *cobra.Command, args []string) error {
		gotNS, _ = c.Flags().GetString("namespace")
		gotHeaders, _ = c.Flags().GetBool("headers")
		gotArgs = args
		return nil
	}
	root.SetArgs(seen.Argv)
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if gotNS != "-n" || gotHeaders || !slices.Equal(gotArgs, []string{"--debug=true"}) {
		t.Errorf("parsed back namespace=%q headers=%v args=%q", gotNS, gotHeaders, gotArgs)
	}
	if debug, _ := root.PersistentFlags().GetBool("debug"); debug {
		t.Error("an arg became a flag")
	}
	_ = pflag.CommandLine
}
