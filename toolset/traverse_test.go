package toolset_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/test/roundtrip"
	"github.com/cobramcp/cobramcp/toolset"
)

// traverseTree is a root with TraverseChildren whose runnable "get" has a
// hidden sub-command; ran records which command ran.
func traverseTree(ran *string) *cobra.Command {
	root := &cobra.Command{Use: "tr", TraverseChildren: true}
	run := func(c *cobra.Command, _ []string) error { *ran = c.CommandPath(); return nil }
	get := &cobra.Command{Use: "get [ARGS...]", RunE: run}
	get.Flags().String("x", "", "x")
	secret := &cobra.Command{Use: "secret", Aliases: []string{"s"}, Hidden: true, RunE: run}
	get.AddCommand(secret)
	root.AddCommand(get)
	return root
}

func TestArgsNeverSelectASubCommand(t *testing.T) {
	tests := []struct {
		args   string
		refuse bool
	}{
		{`{"args":["a","secret"]}`, true},
		{`{"args":["a","s"]}`, true},
		{`{"args":["a","SECRET"]}`, true},
		{`{"args":["a","--y=1","secret"]}`, true},
		{`{"flags":{"x":"v"},"args":["a","secret"]}`, true},
		{`{"args":["secret"]}`, true},
		{`{"args":["a","b","sec"]}`, false},
		{`{"args":["a","b"]}`, false},
	}
	for _, tt := range tests {
		var argv []string
		cfg := &toolset.Config{Middleware: []toolset.Middleware{func(toolset.RunFunc) toolset.RunFunc {
			return func(_ context.Context, c *toolset.Call) (*execResult, error) {
				argv = c.Argv
				return &execResult{}, nil
			}
		}}}
		var ran string
		ts := mustTools(t, traverseTree(&ran), cfg)
		res, err := fullView(ts).Call(context.Background(), "tr_get", json.RawMessage(tt.args))
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError != tt.refuse {
			t.Errorf("%s: isError=%v, want %v: %q", tt.args, res.IsError, tt.refuse, resultText(res))
			continue
		}
		if res.IsError {
			if !strings.Contains(resultText(res), "TraverseChildren") || !strings.Contains(resultText(res), "Nothing was run") {
				t.Errorf("%s: %q", tt.args, resultText(res))
			}
			continue
		}
		root := traverseTree(&ran)
		root.SetArgs(argv)
		root.SetOut(new(strings.Builder))
		root.SetErr(new(strings.Builder))
		_ = root.Execute()
		if ran != "tr get" {
			t.Errorf("%s: argv %q ran %q, want tr get", tt.args, argv, ran)
		}
	}
}

// shorthandTree is a root with TraverseChildren whose global options have
// docker's shorthands (-c, -l, -H, -D, -v), and sub-commands whose own
// flags reuse every one of them, as docker's run (-c cpu-shares, -l label,
// -h hostname, -v volume) and others do.
func shorthandTree() *cobra.Command {
	root := &cobra.Command{Use: "dk", TraverseChildren: true}
	root.Flags().StringP("context", "c", "", "the context to use")
	root.Flags().StringP("log-level", "l", "info", "the logging level")
	root.Flags().StringP("host", "H", "", "the daemon socket")
	root.Flags().BoolP("debug", "D", false, "debug mode")
	root.Flags().BoolP("version", "v", false, "print the version")
	noop := func(*cobra.Command, []string) error { return nil }
	run := &cobra.Command{Use: "run IMAGE [ARG...]", Args: cobra.MinimumNArgs(1), RunE: noop}
	run.Flags().SetInterspersed(false)
	run.Flags().Int64P("cpu-shares", "c", 0, "CPU shares")
	run.Flags().StringArrayP("label", "l", nil, "a label")
	run.Flags().StringP("hostname", "H", "", "the container's host name")
	run.Flags().BoolP("detach-keys-default", "D", false, "a flag of its own on -D")
	run.Flags().StringArrayP("volume", "v", nil, "a volume")
	container := &cobra.Command{Use: "container"}
	ls := &cobra.Command{Use: "ls", Args: cobra.NoArgs, RunE: noop}
	ls.Flags().BoolP("latest", "l", false, "the latest container")
	ls.Flags().BoolP("verbose-columns", "v", false, "more columns")
	update := &cobra.Command{Use: "update CONTAINER", Args: cobra.ExactArgs(1), RunE: noop}
	update.Flags().Int64P("cpu-shares", "c", 0, "CPU shares")
	// Under a group that has a -c flag of its own, read before "update".
	container.Flags().StringP("cgroup", "c", "", "a flag of the group, read by Traverse")
	container.AddCommand(ls, update)
	root.AddCommand(run, container)
	return root
}

// TestTraversedFlagsWithReusedShorthands: the root's options under
// TraverseChildren are served on every command even where the command's own
// flags (or another ancestor's) use the same shorthands, since the argv
// writes every flag by its long name; each call parses back to exactly the
// values asked, the root's and the command's.
func TestTraversedFlagsWithReusedShorthands(t *testing.T) {
	var argv []string
	ts := mustTools(t, shorthandTree(), captureArgv(&argv))
	if got := names(ts); !slices.Equal(got, []string{"dk_container_ls", "dk_container_update", "dk_run"}) {
		t.Fatalf("tools %q; problems %v", got, ts.Problems())
	}
	for _, p := range ts.Problems() {
		t.Errorf("problem: %v", p)
	}
	global := []string{"context", "log-level", "host", "debug", "version"}
	tests := []struct {
		tool, in string
		path     []string
		root     map[string]any // what the root's flags read
		group    map[string]any // what the container group's flags read
		own      map[string]any // what the command's flags read
		args     []string
	}{
		{"dk_run", `{"flags":{"context":"ctx","cpu-shares":512,"log-level":"debug","label":["a=1","b"],"host":"tcp://h:1","hostname":"web","debug":true,"detach-keys-default":true,"version":false,"volume":["/a:/b"]},"args":["nginx","-c","1"]}`,
			[]string{"run"},
			map[string]any{"context": "ctx", "log-level": "debug", "host": "tcp://h:1", "debug": true, "version": false}, nil,
			map[string]any{"cpu-shares": int64(512), "label": []string{"a=1", "b"}, "hostname": "web", "detach-keys-default": true, "volume": []string{"/a:/b"}},
			[]string{"nginx", "-c", "1"}},
		{"dk_container_ls", `{"flags":{"latest":true,"log-level":"warn","verbose-columns":true,"version":true,"cgroup":"g"}}`,
			[]string{"container", "ls"},
			map[string]any{"log-level": "warn", "version": true}, map[string]any{"cgroup": "g"},
			map[string]any{"latest": true, "verbose-columns": true}, []string{}},
		{"dk_container_update", `{"flags":{"context":"x","cgroup":"y","cpu-shares":2},"args":["web"]}`,
			[]string{"container", "update"},
			map[string]any{"context": "x"}, map[string]any{"cgroup": "y"},
			map[string]any{"cpu-shares": int64(2)}, []string{"web"}},
	}
	for _, tt := range tests {
		tool, _ := ts.Lookup(tt.tool)
		for _, name := range global {
			if tool.Flags.Lookup(name) == nil {
				t.Errorf("%s does not serve the root's --%s", tt.tool, name)
			}
		}
		res, err := fullView(ts).Call(context.Background(), tt.tool, json.RawMessage(tt.in))
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %s", tt.tool, err, resultText(res))
		}
		got, err := roundtrip.Execute(shorthandTree(), argv)
		if err != nil {
			t.Fatalf("%s: argv %q: %v", tt.tool, argv, err)
		}
		if p := strings.Fields(got.Command.CommandPath())[1:]; !slices.Equal(p, tt.path) {
			t.Errorf("%s: argv %q ran %q", tt.tool, argv, got.Command.CommandPath())
		}
		own := map[string]any{}
		got.Command.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if v, ok := got.Flags[f.Name]; ok {
				own[f.Name] = v
			}
		})
		group := map[string]any{}
		if p := got.Command.Parent(); p != got.Command.Root() {
			group = roundtrip.Values(p.Flags())
		}
		for _, c := range []struct {
			what      string
			want, got map[string]any
		}{{"root", tt.root, roundtrip.Values(got.Command.Root().Flags())}, {"group", tt.group, group}, {"own", tt.own, own}} {
			if c.want == nil {
				c.want = map[string]any{}
			}
			if d := roundtrip.Diff(c.want, c.got); d != "" {
				t.Errorf("%s: argv %q: the %s flags: %s", tt.tool, argv, c.what, d)
			}
		}
		if !slices.Equal(got.Args, tt.args) {
			t.Errorf("%s: argv %q: args %q, want %q", tt.tool, argv, got.Args, tt.args)
		}
	}
}
