package docker

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"reflect"
	"slices"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/test/roundtrip"
	"github.com/cobramcp/cobramcp/test/wirelist"
	"github.com/cobramcp/cobramcp/toolset"
)

// toolsOf reflects a fresh docker tree, with a middleware that records
// each call's argv instead of running it.
func toolsOf(t *testing.T, argv *[]string) *toolset.Toolset {
	t.Helper()
	return toolsLogging(t, argv, io.Discard)
}

// toolsLogging is toolsOf with the reflection's warnings (what it left
// out, and why) written to log.
func toolsLogging(t *testing.T, argv *[]string, log io.Writer) *toolset.Toolset {
	t.Helper()
	ts, err := toolset.New(New(), &toolset.Config{
		Logger:          slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelWarn})),
		RepeatableTypes: RepeatableTypes(),
		Middleware: []toolset.Middleware{func(toolset.RunFunc) toolset.RunFunc {
			return func(_ context.Context, c *toolset.Call) (*toolset.Result, error) {
				*argv = c.Argv
				return &toolset.Result{}, nil
			}
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// served reports whether cobramcp promises a tool for c: runnable, neither
// c nor an ancestor hidden or deprecated, not cobra's help or completion.
func served(c *cobra.Command) bool {
	if !c.Runnable() {
		return false
	}
	for p := c; p != nil; p = p.Parent() {
		if p.Hidden || p.Deprecated != "" {
			return false
		}
	}
	if c.Parent() == c.Root() {
		switch c.Name() {
		case "help", "completion", cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd:
			return false
		}
	}
	return true
}

// TestEveryDockerCommandServed: every runnable command of docker's tree is
// a tool, and each serves every global option of docker's root (written
// before the sub-command, where docker's TraverseChildren reads them):
// by its name, or as "docker.NAME" where the command has a flag of that
// name (service create's --host and --config).
func TestEveryDockerCommandServed(t *testing.T) {
	var argv []string
	var problems bytes.Buffer
	ts := toolsLogging(t, &argv, &problems)
	var want, got []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if served(c) {
			want = append(want, c.CommandPath())
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	root := New()
	walk(root)
	for _, tl := range fullView(ts).List() {
		got = append(got, tl.Command.CommandPath())
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("%d tools, want %d; missing %q", len(got), len(want), missing(want, got))
	}
	if len(want) < 150 {
		t.Fatalf("docker's tree has only %d runnable commands: not the real tree", len(want))
	}
	if problems.Len() > 0 {
		t.Errorf("left out or ignored:\n%s", problems.String())
	}
	var globals []string
	root.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
		if f.Name != "help" {
			globals = append(globals, f.Name)
		}
	})
	if len(globals) < 10 {
		t.Fatalf("docker's global options: %q", globals)
	}
	for _, tl := range fullView(ts).List() {
		if tl.Command == tl.Command.Root() {
			continue
		}
		for _, g := range globals {
			name := g
			if tl.Command.Flags().Lookup(g) != nil {
				name = "docker." + g // the command has a --g of its own
			}
			if tl.Flags.Lookup(name) == nil {
				t.Errorf("%s does not serve docker's --%s (as %q)", tl.Name, g, name)
			}
		}
	}
}

func missing(want, got []string) []string {
	var out []string
	for _, w := range want {
		if !slices.Contains(got, w) {
			out = append(out, w)
		}
	}
	return out
}

// sample is a value of a flag's type for the calls below: the JSON value
// and the words a person types after its shorthand (none for a bool).
func sample(t *testing.T, f *pflag.Flag) (any, []string) {
	switch f.Value.Type() {
	case "bool":
		return true, nil
	case "int64":
		return 512, []string{"512"}
	case "string":
		return "v-" + f.Name, []string{"v-" + f.Name}
	case "list", "stringSlice":
		return []string{"a=1", "b=2"}, []string{"a=1", "b=2"}
	}
	t.Fatalf("--%s: no sample for type %q", f.Name, f.Value.Type())
	return nil, nil
}

// TestDockerShorthandsRoundTrip: for every docker command with a flag of
// its own on one of the root's shorthands (run -c/--cpu-shares, ps
// -l/--latest, history -H/--human, rm -v/--volumes...), a call setting
// every global option with a shorthand and every such flag of the
// command's parses, in docker's own tree, to exactly what a person typing
// "docker -c ctx -l debug ... run -c 512 ..." gets.
func TestDockerShorthandsRoundTrip(t *testing.T) {
	var argv []string
	ts := toolsOf(t, &argv)
	root := New()
	var globals []*pflag.Flag
	root.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
		if f.Shorthand != "" {
			globals = append(globals, f)
		}
	})
	if len(globals) != 5 {
		t.Fatalf("docker's global options with a shorthand: %d, want 5 (-c -l -H -D -v)", len(globals))
	}
	checked, aliased := 0, false
	for _, tl := range fullView(ts).List() {
		if tl.Command == tl.Command.Root() {
			continue
		}
		var own []*pflag.Flag
		tl.Command.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Shorthand != "" && root.Flags().ShorthandLookup(f.Shorthand) != nil {
				own = append(own, f)
			}
		})
		if len(own) == 0 {
			continue
		}
		checked++
		flags := map[string]any{}
		typed := []string{}
		nGlobal := 0
		for _, group := range [][]*pflag.Flag{globals, own} {
			for _, f := range group {
				name := f.Name
				if group[0] == globals[0] && tl.Command.LocalFlags().Lookup(f.Name) != nil {
					name = "docker." + f.Name // the command has a --NAME of its own
					aliased = true
				}
				v, words := sample(t, f)
				flags[name] = v
				if group[0] == globals[0] {
					nGlobal++
				}
				if len(words) == 0 {
					typed = append(typed, "-"+f.Shorthand)
				}
				for _, w := range words {
					typed = append(typed, "-"+f.Shorthand, w)
				}
			}
			if group[0] == globals[0] {
				typed = append(typed, tl.Path...)
			}
		}
		var args []string
		if a := tl.Definition().InputSchema.(*jsonschema.Schema).Properties["args"]; a != nil && a.MinItems != nil {
			for i := range *a.MinItems {
				args = append(args, "arg"+string(rune('0'+i)))
			}
		}
		typed = append(typed, args...)
		in, _ := json.Marshal(map[string]any{"flags": flags, "args": args})
		res, err := fullView(ts).Call(context.Background(), tl.Name, in)
		if err != nil || res.IsError {
			t.Errorf("%s %s: %v %+v", tl.Name, in, err, res.Content)
			continue
		}
		person, err := parse(typed)
		if err != nil {
			t.Errorf("%s: docker %q: %v", tl.Name, typed, err)
			continue
		}
		mcp, err := parse(argv)
		if err != nil {
			t.Errorf("%s: argv %q: %v", tl.Name, argv, err)
			continue
		}
		if len(person.root) != nGlobal || len(person.leaf) < len(own) {
			t.Errorf("%s: docker %q set root %v, command %v: not every flag", tl.Name, typed, person.root, person.leaf)
		}
		if !reflect.DeepEqual(person, mcp) {
			t.Errorf("%s: argv %q parses to\n%+v\ndocker %q to\n%+v", tl.Name, argv, mcp, typed, person)
		}
	}
	if !aliased {
		t.Error("no call set a global option served under an alias")
	}
	if checked < 27 { // the 27 left out before
		t.Errorf("only %d commands reuse a root shorthand", checked)
	}
}

// parsed is what docker's tree read from a command line.
type parsed struct {
	command    string
	root, leaf map[string]any
	args       []string
}

// parse runs argv through a fresh docker tree, its commands' Run replaced
// by a recorder.
func parse(argv []string) (parsed, error) {
	res, err := roundtrip.Execute(New(), argv)
	if err != nil {
		return parsed{}, err
	}
	return parsed{
		command: res.Command.CommandPath(),
		root:    roundtrip.Values(res.Command.Root().Flags()),
		leaf:    res.Flags,
		args:    res.Args,
	}, nil
}

// TestDockerRepeatableTypes: with RepeatableTypes, every flag of docker's
// accumulating custom types is an array in its tool's schema, and a call
// giving several values parses as a person giving the flag once per value.
func TestDockerRepeatableTypes(t *testing.T) {
	var argv []string
	ts := toolsOf(t, &argv)
	repeatable := append([]string{"list"}, RepeatableTypes()...)
	slots, other := 0, 0
	for _, tl := range fullView(ts).List() {
		props := tl.Definition().InputSchema.(*jsonschema.Schema).Properties["flags"]
		tl.Command.LocalFlags().VisitAll(func(f *pflag.Flag) {
			s := props.Properties[f.Name]
			if s == nil || tl.Flags.Lookup(f.Name) == nil {
				return
			}
			if !slices.Contains(repeatable, f.Value.Type()) {
				return
			}
			slots++
			if f.Value.Type() != "list" {
				other++
			}
			if s.Type != "array" {
				t.Errorf("%s --%s (%s): schema type %q, want array", tl.Name, f.Name, f.Value.Type(), s.Type)
			}
		})
	}
	t.Logf("%d repeatable flag slots, %d of them not \"list\"", slots, other)
	if other < 36 {
		t.Errorf("%d repeatable slots of types other than list, want at least 36", other)
	}
	tests := []struct {
		tool  string
		flags map[string]any
		args  []string
		typed []string
	}{
		{"docker_ps", map[string]any{"filter": []string{"status=running", "name=web"}, "latest": true},
			nil, []string{"ps", "--filter", "status=running", "-l", "--filter", "name=web"}},
		{"docker_run", map[string]any{"mount": []string{"type=bind,source=/a,target=/b", "type=volume,target=/c"}, "network": []string{"front", "name=back,alias=db"}, "label-file": []string{"f1"}},
			[]string{"nginx"}, []string{"run", "--mount", "type=bind,source=/a,target=/b", "--network", "front", "--mount", "type=volume,target=/c", "--network", "name=back,alias=db", "--label-file", "f1", "nginx"}},
		{"docker_service_create", map[string]any{"placement-pref": []string{"spread=node.labels.a", "spread=node.labels.b"}, "publish": []string{"80:80", "443:443"}, "env": []string{"A=1"}},
			[]string{"nginx"}, []string{"service", "create", "--placement-pref", "spread=node.labels.a", "--publish", "80:80", "--placement-pref", "spread=node.labels.b", "--publish", "443:443", "--env", "A=1", "nginx"}},
	}
	for _, tt := range tests {
		in, _ := json.Marshal(map[string]any{"flags": tt.flags, "args": tt.args})
		res, err := fullView(ts).Call(context.Background(), tt.tool, in)
		if err != nil || res.IsError {
			t.Fatalf("%s %s: %v %+v", tt.tool, in, err, res.Content)
		}
		person, err := parse(tt.typed)
		if err != nil {
			t.Fatalf("docker %q: %v", tt.typed, err)
		}
		mcp, err := parse(argv)
		if err != nil {
			t.Fatalf("argv %q: %v", argv, err)
		}
		if len(person.leaf) != len(tt.flags) {
			t.Errorf("docker %q set %v", tt.typed, person.leaf)
		}
		if !reflect.DeepEqual(person, mcp) {
			t.Errorf("%s: argv %q parses to\n%+v\ndocker %q to\n%+v", tt.tool, argv, mcp, tt.typed, person)
		}
	}
}

// TestSearchNamesAreNotDockers: docker has its own run and search
// commands; search mode's tool names are none of docker's full-mode names.
func TestSearchNamesAreNotDockers(t *testing.T) {
	var argv []string
	ts := toolsOf(t, &argv)
	v, err := ts.View(toolset.Listing{Mode: toolset.ToolModeSearch})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"docker_run", "docker_search"} {
		if _, ok := lookup(fullView(ts), want); !ok {
			t.Fatalf("%s is not a full-mode tool: the check below checks nothing", want)
		}
	}
	for _, st := range v.Tools() {
		if _, clash := lookup(fullView(ts), st.Name); clash {
			t.Errorf("search mode's %s is also a docker tool in full mode", st.Name)
		}
	}
	n, err := wirelist.Bytes(v.NewServer(toolset.ServerOptions{}))
	t.Logf("docker: search mode's tools/list response is %d bytes", n)
	if err != nil || n > 4096 {
		t.Errorf("search mode's tools/list response is %d bytes, over 4 KB (%v)", n, err)
	}
}

// lookup returns the tool of v named name (as defined).
func lookup(v *toolset.Served, name string) (*toolset.Tool, bool) {
	for _, t := range v.List() {
		if t.Name == name {
			return t, true
		}
	}
	return nil, false
}
