package toolset_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/test/roundtrip"
	"github.com/cobramcp/cobramcp/toolset"
)

// captureArgv is a Config whose middleware records the argv of a call
// instead of running it.
func captureArgv(argv *[]string) *toolset.Config {
	return &toolset.Config{Middleware: []toolset.Middleware{func(toolset.RunFunc) toolset.RunFunc {
		return func(_ context.Context, c *toolset.Call) (*execResult, error) {
			*argv = c.Argv
			return &execResult{}, nil
		}
	}}}
}

// runMycli runs argv on a fresh mycli tree in-process and returns its
// stdout and error.
func runMycli(argv []string) (string, error) {
	root := mycli.New()
	var out, errOut strings.Builder
	root.SetArgs(argv)
	root.SetOut(&out)
	root.SetErr(&errOut)
	err := root.Execute()
	return out.String(), err
}

// TestDashKubectlLike: args go where a person types them, so mycli's
// kubectl-like commands, which act on where "--" stood, succeed; the call
// is refused, with nothing run, when args and argsAfterDash both need "--"
// or their count is out of the command's range.
func TestDashKubectlLike(t *testing.T) {
	tests := []struct {
		tool, in   string
		wantArgv   []string // nil: the call is refused
		wantOut    string   // the real command's stdout, when it succeeds
		wantErr    string   // the real command's error, or the refusal
		wantAtDash int
	}{
		{"mycli_create_namespace", `{"args":["ns1"]}`, []string{"create", "namespace", "ns1"}, "namespace/ns1 created\n", "", -1},
		{"mycli_create_namespace", `{"args":["ns1","ns2"]}`, []string{"create", "namespace", "ns1", "ns2"}, "", "exactly one NAME is required, got 2", -1},
		// An arg that begins with "-" goes after "--", as a person types it,
		// and stays an arg: kubectl refuses it in the same words.
		{"mycli_create_namespace", `{"args":["-ns1"]}`, []string{"create", "namespace", "--", "-ns1"}, "", "exactly one NAME is required, got 0", 0},
		{"mycli_debug", `{"args":["web-0"],"argsAfterDash":["ls","-l"]}`, []string{"debug", "web-0", "--", "ls", "-l"},
			`{"pod":"web-0","container":"","command":["ls","-l"],"argsLenAtDash":1}` + "\n", "", 1},
		{"mycli_debug", `{"flags":{"container":"-c"},"args":["web-0"],"argsAfterDash":["--","-it"]}`, []string{"debug", "--container=-c", "web-0", "--", "--", "-it"},
			`{"pod":"web-0","container":"-c","command":["--","-it"],"argsLenAtDash":1}` + "\n", "", 1},
		{"mycli_debug", `{"args":["-web-0"],"argsAfterDash":["ls"]}`, nil, "", `args element 0 ("-web-0") begins with "-"`, 0},
		{"mycli_debug", `{"args":["web-0"]}`, nil, "", "args and argsAfterDash hold 1 words together, and the command takes at least 2", 0},
		{"mycli_debug", `{"argsAfterDash":["ls"]}`, nil, "", "hold 1 words together", 0},
		{"mycli_get_pods", `{"argsAfterDash":["ls"]}`, nil, "", "takes no argsAfterDash", 0},
		// exec parses its own args: verbatim, then "--" and the rest.
		{"mycli_exec", `{"args":["web-0"],"argsAfterDash":["ls","-l"]}`, []string{"exec", "web-0", "--", "ls", "-l"},
			`["web-0","--","ls","-l"]` + "\n", "", -1},
	}
	for _, tt := range tests {
		var argv []string
		ts := mustTools(t, mycli.New(), captureArgv(&argv))
		res, err := fullView(ts).Call(context.Background(), tt.tool, json.RawMessage(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		if tt.wantArgv == nil {
			if !res.IsError || argv != nil || !strings.Contains(resultText(res), tt.wantErr) || !strings.Contains(resultText(res), "Nothing was run") {
				t.Errorf("%s %s: want refused with %q, got isError=%v argv=%q %q", tt.tool, tt.in, tt.wantErr, res.IsError, argv, resultText(res))
			}
			continue
		}
		if res.IsError || !slices.Equal(argv, tt.wantArgv) {
			t.Errorf("%s %s: argv %q, want %q (%s)", tt.tool, tt.in, argv, tt.wantArgv, resultText(res))
			continue
		}
		out, err := runMycli(argv)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s %s: argv %q: error %v, want %q", tt.tool, tt.in, argv, err, tt.wantErr)
			}
		} else if err != nil || out != tt.wantOut {
			t.Errorf("%s %s: argv %q: stdout %q err %v, want %q", tt.tool, tt.in, argv, out, err, tt.wantOut)
		}
		if tt.tool == "mycli_exec" {
			continue // no flag parsing: no ArgsLenAtDash
		}
		got, err := roundtrip.Execute(mycli.New(), argv)
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
		} else if got.ArgsLenAtDash != tt.wantAtDash {
			t.Errorf("%s %s: ArgsLenAtDash %d, want %d", tt.tool, tt.in, got.ArgsLenAtDash, tt.wantAtDash)
		}
	}
}

// subTree is a root whose runnable "parent" takes any args and has the
// sub-command "child" (alias "kid"); the root takes args too. ran
// records the command that ran and its args.
func subTree(ran *[]string) *cobra.Command {
	run := func(c *cobra.Command, args []string) error {
		*ran = append([]string{c.CommandPath()}, args...)
		return nil
	}
	root := &cobra.Command{Use: "app [ARGS...]", Args: cobra.ArbitraryArgs, RunE: run}
	parent := &cobra.Command{Use: "parent [ARGS...]", Args: cobra.ArbitraryArgs, RunE: run}
	parent.AddCommand(&cobra.Command{Use: "child", Aliases: []string{"kid"}, RunE: run})
	root.AddCommand(parent)
	return root
}

// TestDashFirstArgNamesSubCommand: a first arg that names a sub-command
// (or alias) of the tool's command would make cobra run that command: the
// args go after "--", and the tool's command runs with them as args. Any
// other args stand as a person types them (ArgsLenAtDash -1): cobra looks
// up only the first word that is not "" or "-", and with its prefix and
// case-insensitive matching off (see prefixmatch_test.go for them on)
// "children" names nothing. The root also has the commands cobra adds
// when it runs (help).
func TestDashFirstArgNamesSubCommand(t *testing.T) {
	tests := []struct {
		tool, in string
		wantRan  []string
		dash     bool
	}{
		{"app_parent", `{"args":["child"]}`, []string{"app parent", "child"}, true},
		{"app_parent", `{"args":["kid","x"]}`, []string{"app parent", "kid", "x"}, true},
		{"app_parent", `{"args":["","child"]}`, []string{"app parent", "", "child"}, true},
		{"app_parent", `{"args":["x","child"]}`, []string{"app parent", "x", "child"}, false},
		{"app_parent", `{"args":["children"]}`, []string{"app parent", "children"}, false},
		{"app_parent", `{"args":["chi"]}`, []string{"app parent", "chi"}, false},
		{"app_parent", `{"args":["CHILD"]}`, []string{"app parent", "CHILD"}, false},
		{"app_parent", `{"args":["","-"]}`, []string{"app parent", "", "-"}, false},
		{"app", `{"args":["help"]}`, []string{"app", "help"}, true},
		{"app", `{"args":["parent"]}`, []string{"app", "parent"}, true},
		{"app", `{"args":["x"]}`, []string{"app", "x"}, false},
		{"app", `{"args":["completion"]}`, []string{"app", "completion"}, true},
		{"app", `{"args":["__complete"]}`, []string{"app", "__complete"}, true},
	}
	for _, tt := range tests {
		var argv, ran []string
		ts := mustTools(t, subTree(&ran), captureArgv(&argv))
		res, err := fullView(ts).Call(context.Background(), tt.tool, json.RawMessage(tt.in))
		if err != nil || res.IsError {
			t.Fatalf("%s %s: %v %s", tt.tool, tt.in, err, resultText(res))
		}
		if slices.Contains(argv, "--") != tt.dash {
			t.Errorf("%s %s: argv %q, want \"--\": %v", tt.tool, tt.in, argv, tt.dash)
		}
		root := subTree(&ran)
		root.SetArgs(argv)
		root.SetOut(new(strings.Builder))
		root.SetErr(new(strings.Builder))
		if err := root.Execute(); err != nil {
			t.Errorf("%s %s: argv %q: %v", tt.tool, tt.in, argv, err)
		}
		if !slices.Equal(ran, tt.wantRan) {
			t.Errorf("%s %s: argv %q ran %q, want %q", tt.tool, tt.in, argv, ran, tt.wantRan)
		}
	}
}

// TestNoParseArity: cobra applies cmd.Args to a command with
// DisableFlagParsing (gh extension exec needs at least one arg), so its
// arity is probed like any other's and a call without args is refused.
func TestNoParseArity(t *testing.T) {
	root := &cobra.Command{Use: "gh"}
	ext := &cobra.Command{Use: "extension"}
	ext.AddCommand(&cobra.Command{Use: "exec NAME [ARGS...]", DisableFlagParsing: true, Args: cobra.MinimumNArgs(1), RunE: func(*cobra.Command, []string) error { return nil }})
	root.AddCommand(ext)
	var argv []string
	ts := mustTools(t, root, captureArgv(&argv))
	tool, ok := ts.Lookup("gh_extension_exec")
	if !ok {
		t.Fatal("no tool gh_extension_exec")
	}
	args := toolset.Compact(tool).InputSchema.(*jsonschema.Schema).Properties["args"]
	if args == nil || args.MinItems == nil || *args.MinItems != 1 || !strings.Contains(args.Description, "At least 1.") {
		t.Fatalf("args schema %+v, want minItems 1", args)
	}
	res, _ := fullView(ts).Call(context.Background(), "gh_extension_exec", json.RawMessage(`{}`))
	if !res.IsError || argv != nil || !strings.Contains(resultText(res), "Nothing was run") {
		t.Fatalf("a call without args: isError=%v argv=%q %s", res.IsError, argv, resultText(res))
	}
	res, _ = fullView(ts).Call(context.Background(), "gh_extension_exec", json.RawMessage(`{"args":["x","--flag"]}`))
	if res.IsError || !slices.Equal(argv, []string{"extension", "exec", "x", "--flag"}) {
		t.Fatalf("argv %q: %s", argv, resultText(res))
	}
}

// TestMapPairsSameArgv: the strict form of a map flag, [{key, value}],
// gives exactly the argv of the map; a key given twice is refused.
func TestMapPairsSameArgv(t *testing.T) {
	var a1, a2 []string
	ts1 := mustTools(t, mycli.New(), captureArgv(&a1))
	ts2 := mustTools(t, mycli.New(), captureArgv(&a2))
	for _, tt := range []struct{ tool, asMap, asPairs string }{
		{"mycli_echo", `{"flags":{"map":{"a":"1,2","b=":"x"}}}`, `{"flags":{"map":[{"key":"b=","value":"x"},{"key":"a","value":"1,2"}]}}`},
		{"mycli_run", `{"flags":{"image":"nginx","labels":{"team":"blue"}},"args":["web"]}`, `{"flags":{"image":"nginx","labels":[{"key":"team","value":"blue"}]},"args":["web"]}`},
	} {
		r1, _ := fullView(ts1).Call(context.Background(), tt.tool, json.RawMessage(tt.asMap))
		r2, _ := fullView(ts2).Call(context.Background(), tt.tool, json.RawMessage(tt.asPairs))
		if r1.IsError != r2.IsError || !slices.Equal(a1, a2) {
			t.Errorf("%s: map gives %q (%s), pairs give %q (%s)", tt.tool, a1, resultText(r1), a2, resultText(r2))
		}
	}
	for _, in := range []string{
		`{"flags":{"map":[{"key":"a","value":"1"},{"key":"a","value":"2"}]}}`,
		`{"flags":{"map":[{"key":"a"}]}}`,
		`{"flags":{"map":[{"key":"a","value":"1","x":1}]}}`,
	} {
		a1 = nil
		res, _ := fullView(ts1).Call(context.Background(), "mycli_echo", json.RawMessage(in))
		if !res.IsError || a1 != nil || !strings.Contains(resultText(res), "Nothing was run") {
			t.Errorf("%s: want refused, got %q %s", in, a1, resultText(res))
		}
	}
}
