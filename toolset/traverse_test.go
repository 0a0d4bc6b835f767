package toolset_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
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
		cfg := &bridge.Config{Middleware: []toolset.Middleware{func(toolset.RunFunc) toolset.RunFunc {
			return func(_ context.Context, c *toolset.Call) (*execResult, error) {
				argv = c.Argv
				return &execResult{}, nil
			}
		}}}
		var ran string
		ts := mustTools(t, traverseTree(&ran), cfg)
		res, err := ts.Call(context.Background(), "tr_get", json.RawMessage(tt.args))
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
