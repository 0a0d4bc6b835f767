package toolset_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/toolset"

	"github.com/cobramcp/cobramcp/test/roundtrip"
)

// noInterspersedTree is shaped like docker's run and exec, whose flags
// stop at the first positional arg (SetInterspersed(false), so that the
// container's command keeps its own flags): "run IMAGE [COMMAND]
// [ARG...]" takes at least one arg, "ssh HOST -- COMMAND [ARG...]" shows
// "--" in its usage (argsAfterDash) and takes exactly n args, as cobra
// counts them, and "ssh-raw" is ssh parsing its own flags.
func noInterspersedTree(n int) *cobra.Command {
	run := func(*cobra.Command, []string) error { return nil }
	root := &cobra.Command{Use: "ctr"}
	r := &cobra.Command{Use: "run [OPTIONS] IMAGE [COMMAND] [ARG...]", Args: cobra.MinimumNArgs(1), RunE: run}
	r.Flags().SetInterspersed(false)
	r.Flags().StringP("name", "n", "", "container name")
	r.Flags().BoolP("tty", "t", false, "allocate a tty")
	s := &cobra.Command{Use: "ssh [OPTIONS] HOST -- COMMAND [ARG...]", Args: cobra.ExactArgs(n), RunE: run}
	s.Flags().SetInterspersed(false)
	s.Flags().StringP("user", "u", "", "login user")
	raw := &cobra.Command{Use: "ssh-raw HOST -- COMMAND [ARG...]", Args: cobra.ExactArgs(n), DisableFlagParsing: true, RunE: run}
	root.AddCommand(r, s, raw)
	return root
}

// TestNoInterspersedRoundTrip: for commands whose flags stop at the first
// positional arg, the argv the bridge builds is read back by cobra exactly
// as the same words typed by a person: the flags' values, the args
// (after the first positional, "--" is an arg like any other, so
// argsAfterDash reaches the command behind a literal "--") and
// ArgsLenAtDash. The bridge refuses a call exactly when cobra would
// refuse its count of args.
func TestNoInterspersedRoundTrip(t *testing.T) {
	tests := []struct {
		tool     string
		flags    map[string]any
		args     []string
		after    []string
		wantArgs []string // what cobra passes the command
		atDash   int
	}{
		{"ctr_run", map[string]any{"name": "web", "tty": true}, []string{"nginx", "echo", "-n", "--x"}, nil, []string{"nginx", "echo", "-n", "--x"}, -1},
		{"ctr_run", map[string]any{"name": "-web"}, []string{"nginx", "--", "-n"}, nil, []string{"nginx", "--", "-n"}, -1},
		{"ctr_run", nil, []string{"-nginx", "x"}, nil, []string{"-nginx", "x"}, 0},
		{"ctr_run", nil, []string{"", "-n"}, nil, []string{"", "-n"}, -1},
		{"ctr_run", nil, []string{"-"}, nil, []string{"-"}, -1},
		{"ctr_ssh", map[string]any{"user": "root"}, []string{"host"}, []string{"ls", "-l"}, []string{"host", "--", "ls", "-l"}, -1},
		{"ctr_ssh", nil, []string{"host", "-x"}, []string{"--", "-y"}, []string{"host", "-x", "--", "--", "-y"}, -1},
		{"ctr_ssh", nil, nil, []string{"ls", "-l"}, []string{"ls", "-l"}, 0},
		{"ctr_ssh", nil, []string{"host", "ls"}, nil, []string{"host", "ls"}, -1},
		{"ctr_ssh-raw", nil, []string{"host"}, []string{"ls", "-l"}, []string{"host", "--", "ls", "-l"}, -1},
		{"ctr_ssh-raw", nil, nil, []string{"ls"}, []string{"--", "ls"}, -1},
	}
	for _, tt := range tests {
		for n := 1; n <= 6; n++ {
			name := fmt.Sprintf("%s %q %q n=%d", tt.tool, tt.args, tt.after, n)
			var argv []string
			ts := mustTools(t, noInterspersedTree(n), captureArgv(&argv))
			tool, _ := ts.Lookup(tt.tool)
			in, _ := json.Marshal(map[string]any{"flags": tt.flags, "args": tt.args, "argsAfterDash": tt.after})
			if tt.after == nil {
				in, _ = json.Marshal(map[string]any{"flags": tt.flags, "args": tt.args})
			}
			res, err := fullView(ts).Call(context.Background(), tt.tool, in)
			if err != nil {
				t.Fatal(err)
			}
			cobraOK := tt.tool == "ctr_run" || len(tt.wantArgs) == n
			if res.IsError {
				if cobraOK || !strings.Contains(resultText(res), "Nothing was run") {
					t.Errorf("%s: refused (%s), but cobra takes %d args", name, resultText(res), len(tt.wantArgs))
				}
				continue
			}
			if !cobraOK {
				t.Errorf("%s: argv %q accepted, but cobra refuses %d args", name, argv, len(tt.wantArgs))
				continue
			}
			got, err := roundtrip.Execute(noInterspersedTree(n), argv)
			if err != nil {
				t.Errorf("%s: argv %q: %v", name, argv, err)
				continue
			}
			w, err := roundtrip.Want(tool.Flags, tt.flags)
			if err != nil {
				t.Fatal(err)
			}
			atDash := tt.atDash
			if tt.tool == "ctr_ssh-raw" {
				atDash = -1 // no flag parsing: cobra records no "--"
			}
			if d := roundtrip.Diff(w, got.Flags); d != "" || !slices.Equal(got.Args, tt.wantArgs) || got.ArgsLenAtDash != atDash {
				t.Errorf("%s: argv %q: flags %s, args %q (want %q), ArgsLenAtDash %d (want %d)", name, argv, d, got.Args, tt.wantArgs, got.ArgsLenAtDash, atDash)
			}
		}
	}
}

// TestNoInterspersedSchema: the tools say how cobra counts the "--", and
// probing the flag set for SetInterspersed(false) leaves the command as
// it was: the very tree reflected runs the argv.
func TestNoInterspersedSchema(t *testing.T) {
	root := noInterspersedTree(3)
	var argv []string
	ts := mustTools(t, root, captureArgv(&argv))
	for tool, want := range map[string]string{
		"ctr_ssh":     `the "--" between them when args is not empty: the command's flags stop at its first arg`,
		"ctr_ssh-raw": `the "--" before argsAfterDash: the command parses its own arguments`,
	} {
		tl, _ := ts.Lookup(tool)
		props := toolset.Compact(tl).InputSchema.(*jsonschema.Schema).Properties
		for _, p := range []string{"args", "argsAfterDash"} {
			if !strings.Contains(props[p].Description, want) || !strings.Contains(props[p].Description, "exactly 3") {
				t.Errorf("%s %s: description %q does not say %q", tool, p, props[p].Description, want)
			}
		}
	}
	if tl, _ := ts.Lookup("ctr_run"); !strings.Contains(toolset.Compact(tl).InputSchema.(*jsonschema.Schema).Properties["args"].Description, ": IMAGE [COMMAND] [ARG...].") {
		t.Errorf("ctr_run args: %q", toolset.Compact(tl).InputSchema.(*jsonschema.Schema).Properties["args"].Description)
	}
	res, err := fullView(ts).Call(context.Background(), "ctr_ssh", json.RawMessage(`{"flags":{"user":"u"},"args":["h"],"argsAfterDash":["ls"]}`))
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, resultText(res))
	}
	got, err := roundtrip.Execute(root, argv)
	if err != nil || !slices.Equal(got.Args, []string{"h", "--", "ls"}) || got.Flags["user"] != "u" || got.ArgsLenAtDash != -1 {
		t.Fatalf("argv %q on the reflected tree: %+v %v", argv, got, err)
	}
}

// TestNoInterspersedAfterRun: a command that already ran (its flag set
// parsed a "--", so pflag's ArgsLenAtDash is 0 until the next parse) is
// still seen to stop its flags at its first arg.
func TestNoInterspersedAfterRun(t *testing.T) {
	root := noInterspersedTree(3)
	root.SetArgs([]string{"ssh", "--", "a", "b", "c"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	tl, _ := mustTools(t, root, nil).Lookup("ctr_ssh")
	want := `the "--" between them when args is not empty: the command's flags stop at its first arg`
	if d := toolset.Compact(tl).InputSchema.(*jsonschema.Schema).Properties["args"].Description; !strings.Contains(d, want) {
		t.Errorf("ctr_ssh args after a run: description %q does not say %q", d, want)
	}
}
