package toolset_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/test/roundtrip"
)

// TestNoParseSubCommandArg: a command that parses its own flags and has
// sub-commands gets its args verbatim, so a first arg naming a
// sub-command would run that sub-command instead; the call is refused,
// and other args reach the command itself.
func TestNoParseSubCommandArg(t *testing.T) {
	tree := func() *cobra.Command {
		root := &cobra.Command{Use: "np"}
		x := &cobra.Command{Use: "x [ARGS...]", DisableFlagParsing: true, RunE: noop}
		x.AddCommand(&cobra.Command{Use: "sub", Aliases: []string{"s"}, RunE: noop})
		root.AddCommand(x)
		return root
	}
	for _, tt := range []struct {
		args []string
		runs bool
	}{
		{[]string{"sub"}, false},
		{[]string{"s", "a"}, false},
		{[]string{"", "sub"}, false}, // cobra's Find skips ""
		{[]string{"other", "sub"}, true},
		{[]string{"--flag", "v"}, true},
		{[]string{"-", "sub"}, false},
		{[]string{"--opt", "sub"}, true},       // cobra takes sub for --opt's value
		{[]string{"--opt", "v", "sub"}, false}, // and here v
		{[]string{"-o", "v", "w", "sub"}, true},
		{[]string{"--", "sub"}, true},
	} {
		var argv []string
		ts := mustTools(t, tree(), captureArgv(&argv))
		in, _ := json.Marshal(map[string]any{"args": tt.args})
		res, err := fullView(ts).Call(context.Background(), "np_x", in)
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError {
			if tt.runs {
				t.Errorf("%q: refused: %s", tt.args, resultText(res))
			}
			continue
		}
		got, err := roundtrip.Execute(tree(), argv)
		if err != nil {
			t.Errorf("%q: argv %q: %v", tt.args, argv, err)
			continue
		}
		if got.Command.Name() != "x" || !slices.Equal(got.Args, tt.args) {
			t.Errorf("%q: argv %q ran %q with args %q", tt.args, argv, got.Command.CommandPath(), got.Args)
		}
	}
}
