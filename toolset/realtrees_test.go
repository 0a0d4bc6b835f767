package toolset_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/test/roundtrip"
	"github.com/cobramcp/cobramcp/toolset"
)

// listOpts is a custom value like docker's opts.ListOpts: type "list",
// each Set appends, and it is not a pflag.SliceValue.
type listOpts struct{ values *[]string }

func (l listOpts) String() string     { return fmt.Sprint(*l.values) }
func (l listOpts) Set(v string) error { *l.values = append(*l.values, v); return nil }
func (l listOpts) Type() string       { return "list" }

// dockerSeen is what the docker-like tree's run command saw.
type dockerSeen struct {
	context, host string
	debug         bool
	env, volumes  []string
	ran           string
	args          []string
}

// dockerTree is shaped like docker: global options as local flags of a
// root with TraverseChildren, "container run" with repeatable "list"
// flags and SetInterspersed(false), and "container inspect" with a flag
// whose name clashes with a global option.
func dockerTree(s *dockerSeen) *cobra.Command {
	root := &cobra.Command{Use: "docker", TraverseChildren: true}
	root.Flags().StringVar(&s.context, "context", "", "name of the context to use")
	root.Flags().StringVarP(&s.host, "host", "H", "", "daemon socket to connect to")
	root.Flags().BoolVarP(&s.debug, "debug", "D", false, "enable debug mode")
	container := &cobra.Command{Use: "container"}
	run := &cobra.Command{Use: "run [OPTIONS] IMAGE [COMMAND] [ARG...]", Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error { s.ran, s.args = c.CommandPath(), args; return nil }}
	run.Flags().SetInterspersed(false)
	run.Flags().VarP(listOpts{&s.env}, "env", "e", "set environment variables")
	run.Flags().VarP(listOpts{&s.volumes}, "volume", "v", "bind mount a volume")
	run.Flags().String("name", "", "assign a name to the container")
	inspect := &cobra.Command{Use: "inspect NAME", Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { s.ran, s.args = c.CommandPath(), args; return nil }}
	inspect.Flags().Bool("debug", false, "a flag of its own named like the global one")
	container.AddCommand(run, inspect)
	// A CLI plugin's stub, like docker's compose: it parses its own flags.
	compose := &cobra.Command{Use: "compose [ARGS...]", DisableFlagParsing: true,
		RunE: func(c *cobra.Command, args []string) error { s.ran, s.args = c.CommandPath(), args; return nil }}
	root.AddCommand(container, compose)
	return root
}

// TestDockerLikeTraversedFlagsAndLists: a root's local flags under
// TraverseChildren are served on its descendants and written before the
// sub-command path, where cobra reads them; "list" values are arrays
// written one --name=element each; a clash is reported, not merged.
func TestDockerLikeTraversedFlagsAndLists(t *testing.T) {
	var argv []string
	ts := mustTools(t, dockerTree(&dockerSeen{}), captureArgv(&argv))
	tool, ok := ts.Lookup("docker_container_run")
	if !ok {
		t.Fatal("no docker_container_run")
	}
	for _, name := range []string{"context", "host", "debug", "env", "volume", "name"} {
		if tool.Flags.Lookup(name) == nil {
			t.Errorf("docker_container_run does not serve --%s", name)
		}
	}
	in := `{"flags":{"context":"prod","debug":true,"env":["A=1","B=x,y","-n"],"volume":["/a:/b"],"name":"web"},"args":["nginx","echo","-n"]}`
	res, err := fullView(ts).Call(context.Background(), "docker_container_run", json.RawMessage(in))
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, resultText(res))
	}
	// run's flags stop at its first arg (SetInterspersed(false)): "-n"
	// after "nginx" is an arg, and no "--" is needed, as a person types it.
	want := []string{"--context=prod", "--debug=true", "container", "run", "--env=A=1", "--env=B=x,y", "--env=-n", "--name=web", "--volume=/a:/b", "nginx", "echo", "-n"}
	if !slices.Equal(argv, want) {
		t.Fatalf("argv %q\nwant %q", argv, want)
	}
	var seen dockerSeen
	root := dockerTree(&seen)
	root.SetArgs(argv)
	root.SetOut(new(strings.Builder))
	root.SetErr(new(strings.Builder))
	if err := root.Execute(); err != nil {
		t.Fatalf("argv %q: %v", argv, err)
	}
	if seen.ran != "docker container run" || seen.context != "prod" || !seen.debug || seen.host != "" ||
		!slices.Equal(seen.env, []string{"A=1", "B=x,y", "-n"}) || !slices.Equal(seen.volumes, []string{"/a:/b"}) ||
		!slices.Equal(seen.args, []string{"nginx", "echo", "-n"}) {
		t.Fatalf("argv %q: the command saw %+v", argv, seen)
	}
	// The env schema is an array.
	env := toolset.Compact(tool).InputSchema.(*jsonschema.Schema).Properties["flags"].Properties["env"]
	if env.Type != "array" {
		t.Errorf("--env schema type %q, want array", env.Type)
	}
	// inspect has its own --debug: the global one is served as
	// "docker.debug", written --debug before the sub-command, not merged.
	if len(ts.Problems()) != 0 {
		t.Errorf("problems: %v", ts.Problems())
	}
	res, _ = fullView(ts).Call(context.Background(), "docker_container_inspect", json.RawMessage(`{"flags":{"debug":false,"docker.debug":true,"context":"c"},"args":["web"]}`))
	if want := []string{"--context=c", "--debug=true", "container", "inspect", "--debug=false", "web"}; res.IsError || !slices.Equal(argv, want) {
		t.Fatalf("inspect argv %q, want %q %s", argv, want, resultText(res))
	}
	got, err := roundtrip.Execute(dockerTree(&dockerSeen{}), argv)
	if err != nil {
		t.Fatal(err)
	}
	if g := roundtrip.Values(got.Command.Root().Flags()); !reflect.DeepEqual(g, map[string]any{"context": "c", "debug": true}) {
		t.Errorf("argv %q: the root read %v", argv, g)
	}
	if !reflect.DeepEqual(got.Flags, map[string]any{"debug": false}) {
		t.Errorf("argv %q: inspect read %v", argv, got.Flags)
	}
	// When the alias is taken as well, the global flag is left out and
	// reported.
	taken := dockerTree(&dockerSeen{})
	in2, _, _ := taken.Find([]string{"container", "inspect"})
	in2.Flags().Bool("docker.debug", false, "a flag named like the alias")
	found := false
	for _, p := range mustTools(t, taken, nil).Problems() {
		if p.Tool == "docker_container_inspect" && p.Flag == "debug" && strings.Contains(p.Err.Error(), "TraverseChildren") {
			found = true
		}
	}
	if !found {
		t.Error("no problem reported for the --debug clash with the alias taken")
	}
	// A command that parses its own flags still has the root's flags read
	// by cobra's Traverse before its name: they are served and written
	// there, and the args go verbatim after the name.
	compose, _ := ts.Lookup("docker_compose")
	for _, name := range []string{"context", "host", "debug"} {
		if compose.Flags.Lookup(name) == nil {
			t.Errorf("docker_compose does not serve --%s", name)
		}
	}
	res, _ = fullView(ts).Call(context.Background(), "docker_compose", json.RawMessage(`{"flags":{"host":"-H","debug":true},"args":["up","--context","x","-d"]}`))
	if want := []string{"--debug=true", "--host=-H", "compose", "up", "--context", "x", "-d"}; res.IsError || !slices.Equal(argv, want) {
		t.Fatalf("compose argv %q, want %q %s", argv, want, resultText(res))
	}
	seen = dockerSeen{}
	root = dockerTree(&seen)
	root.SetArgs(argv)
	root.SetOut(new(strings.Builder))
	root.SetErr(new(strings.Builder))
	if err := root.Execute(); err != nil {
		t.Fatalf("argv %q: %v", argv, err)
	}
	if seen.ran != "docker compose" || seen.host != "-H" || !seen.debug || seen.context != "" || !slices.Equal(seen.args, []string{"up", "--context", "x", "-d"}) {
		t.Fatalf("argv %q: the command saw %+v", argv, seen)
	}
	// Without TraverseChildren the root's local flags are not served.
	plain := dockerTree(&dockerSeen{})
	plain.TraverseChildren = false
	if tl, _ := mustTools(t, plain, nil).Lookup("docker_container_run"); tl.Flags.Lookup("context") != nil {
		t.Error("--context served without TraverseChildren")
	}
	if tl, _ := mustTools(t, plain, nil).Lookup("docker_compose"); tl.Flags.Lookup("context") != nil || toolset.Compact(tl).InputSchema.(*jsonschema.Schema).Properties["flags"] != nil {
		t.Error("docker_compose serves flags without TraverseChildren")
	}
}

// etcdctlTree is shaped like etcdctl: its connection flags are hidden
// persistent flags of the root.
func etcdctlTree() *cobra.Command {
	root := &cobra.Command{Use: "etcdctl"}
	pf := root.PersistentFlags()
	pf.StringSlice("endpoints", []string{"127.0.0.1:2379"}, "gRPC endpoints")
	pf.String("user", "", "username[:password] for authentication")
	pf.String("cacert", "", "verify certificates of TLS-enabled secure servers using this CA bundle")
	pf.StringP("write-out", "w", "simple", "set the output format (fields, json, protobuf, simple, table)")
	for _, n := range []string{"endpoints", "user", "cacert", "write-out"} {
		if err := pf.MarkHidden(n); err != nil {
			panic(err)
		}
	}
	root.AddCommand(&cobra.Command{Use: "get KEY [RANGE_END]", Args: cobra.RangeArgs(1, 2), RunE: func(*cobra.Command, []string) error { return nil }})
	return root
}

// TestEtcdctlLikeHiddenFlags: hidden flags stay out by default and are
// served when a selector's HiddenFlag opts in; their values round-trip.
func TestEtcdctlLikeHiddenFlags(t *testing.T) {
	def, _ := mustTools(t, etcdctlTree(), nil).Lookup("etcdctl_get")
	if def.Flags.Lookup("endpoints") != nil {
		t.Fatal("a hidden flag is served by default")
	}
	var argv []string
	cfg := captureArgv(&argv)
	cfg.Selectors = []toolset.Selector{{HiddenFlag: func(f *pflag.Flag) bool { return f.Name != "cacert" }}}
	ts := mustTools(t, etcdctlTree(), cfg)
	tool, _ := ts.Lookup("etcdctl_get")
	for n, want := range map[string]bool{"endpoints": true, "user": true, "write-out": true, "cacert": false} {
		if (tool.Flags.Lookup(n) != nil) != want {
			t.Errorf("--%s served: %v, want %v", n, !want, want)
		}
	}
	flags := map[string]any{"endpoints": []any{"10.0.0.1:2379", "10.0.0.2:2379"}, "user": "root:-x", "write-out": "json"}
	in, _ := json.Marshal(map[string]any{"flags": flags, "args": []string{"foo"}})
	res, err := fullView(ts).Call(context.Background(), "etcdctl_get", in)
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, resultText(res))
	}
	got, err := roundtrip.Execute(etcdctlTree(), argv)
	if err != nil {
		t.Fatal(err)
	}
	w, err := roundtrip.Want(tool.Flags, flags)
	if err != nil {
		t.Fatal(err)
	}
	if d := roundtrip.Diff(w, got.Flags); d != "" || !slices.Equal(got.Args, []string{"foo"}) || got.ArgsLenAtDash != -1 {
		t.Fatalf("argv %q: %s args %q dash %d", argv, d, got.Args, got.ArgsLenAtDash)
	}
}

// TestPinTraversedFlagOnSelfParsingCommand: a pin on a root flag served
// on a command that parses its own flags is written before the command's
// name like any other call's, and a call cannot override it.
func TestPinTraversedFlagOnSelfParsingCommand(t *testing.T) {
	var argv []string
	ts := mustTools(t, dockerTree(&dockerSeen{}), captureArgv(&argv))
	v, err := ts.View(toolset.Listing{}, toolset.Policy{Pins: []toolset.Pin{{Flag: "context", Value: "prod", From: "--set"}}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := v.Call(context.Background(), "docker_compose", json.RawMessage(`{"args":["ps"]}`))
	if err != nil || res.IsError || !slices.Equal(argv, []string{"--context=prod", "compose", "ps"}) {
		t.Fatalf("argv %q: %v %s", argv, err, resultText(res))
	}
	argv = nil
	res, _ = v.Call(context.Background(), "docker_compose", json.RawMessage(`{"flags":{"context":"dev"},"args":["ps"]}`))
	if !res.IsError || argv != nil || !strings.Contains(resultText(res), "is pinned by whoever started this server") {
		t.Fatalf("a call overriding the pin: argv %q %s", argv, resultText(res))
	}
}

// filterOpt is a custom value like docker's opts.FilterOpt: each Set adds
// one "key=value" filter; its type name is not "list".
type filterOpt struct{ values *[]string }

func (o filterOpt) String() string { return strings.Join(*o.values, " ") }
func (o filterOpt) Set(v string) error {
	if !strings.Contains(v, "=") {
		return fmt.Errorf("bad format of filter (expected name=value)")
	}
	*o.values = append(*o.values, v)
	return nil
}
func (o filterOpt) Type() string { return "filter" }

// filterTree has a persistent and a local flag of the custom type
// "filter", on two commands, so the persistent one is shared.
func filterTree(global, local *[]string) *cobra.Command {
	root := &cobra.Command{Use: "ft"}
	root.PersistentFlags().Var(filterOpt{global}, "where", "a filter for every command")
	noop := func(*cobra.Command, []string) error { return nil }
	ps := &cobra.Command{Use: "ps", Args: cobra.NoArgs, RunE: noop}
	ps.Flags().VarP(filterOpt{local}, "filter", "f", "filter the output")
	images := &cobra.Command{Use: "images", Args: cobra.NoArgs, RunE: noop}
	root.AddCommand(ps, images)
	return root
}

// TestRepeatableTypes: Config.RepeatableTypes names, once, the custom
// value types whose Set accumulates; their flags, local or inherited,
// become arrays written one --name=element each, the inherited one is
// still a shared flag of the compact listing, and the values round-trip.
func TestRepeatableTypes(t *testing.T) {
	var plainG, plainL []string
	plain, _ := mustTools(t, filterTree(&plainG, &plainL), nil).Lookup("ft_ps")
	if s := plain.Definition().InputSchema.(*jsonschema.Schema).Properties["flags"].Properties["filter"]; s.Type != "string" {
		t.Fatalf("without RepeatableTypes --filter is %q, want string", s.Type)
	}

	var argv []string
	cfg := captureArgv(&argv)
	cfg.RepeatableTypes = []string{"filter"}
	var g, l []string
	tree := filterTree(&g, &l)
	ts := mustTools(t, tree, cfg)
	tool, _ := ts.Lookup("ft_ps")
	props := tool.Definition().InputSchema.(*jsonschema.Schema).Properties["flags"].Properties
	for _, name := range []string{"filter", "where"} {
		if props[name].Type != "array" {
			t.Errorf("--%s schema %q, want array", name, props[name].Type)
		}
	}
	if shared := fullView(ts).SharedFlags(); len(shared) != 1 || shared[0].Name != "where" {
		t.Errorf("shared flags %v, want [where]", shared)
	}
	if _, listed := toolset.Compact(tool).InputSchema.(*jsonschema.Schema).Properties["flags"].Properties["where"]; listed {
		t.Error("the shared --where is in ft_ps's compact schema")
	}
	res, err := fullView(ts).Call(context.Background(), "ft_ps", json.RawMessage(`{"flags":{"filter":["status=up","name=a b"],"where":["x=1","y=2"]}}`))
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, resultText(res))
	}
	if want := []string{"ps", "--filter=status=up", "--filter=name=a b", "--where=x=1", "--where=y=2"}; !slices.Equal(argv, want) {
		t.Fatalf("argv %q, want %q", argv, want)
	}
	var gotG, gotL []string
	root := filterTree(&gotG, &gotL)
	root.SetArgs(argv)
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(gotL, []string{"status=up", "name=a b"}) || !slices.Equal(gotG, []string{"x=1", "y=2"}) {
		t.Errorf("argv %q: the command saw --filter %q --where %q", argv, gotL, gotG)
	}
	// The adopter's flags are not changed.
	if f := tree.PersistentFlags().Lookup("where"); len(f.Annotations) != 0 {
		t.Errorf("the adopter's flag was annotated: %v", f.Annotations)
	}
}
