package toolset_test

import (
	"context"
	"slices"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cobramcp/cobramcp/internal/flagschema"
	"github.com/cobramcp/cobramcp/toolset"
)

// TestPinsCheckedByEveryKind: for every pflag type that the table of flag
// kinds makes a fresh value of, a pin that the flag's own parser refuses
// is refused when the view is made, and the kind's sample is pinned and
// written as given.
func TestPinsCheckedByEveryKind(t *testing.T) {
	bad := []string{"cobramcp-bad", `"`, "=", "-1", "[", ""}
	for _, k := range flagschema.Kinds() {
		fs := pflag.NewFlagSet("", pflag.ContinueOnError)
		if !k.Define(fs, "x", "") {
			continue // func and boolfunc: only their author makes one
		}
		if _, ok := k.Fresh(fs.Lookup("x").Value); !ok {
			continue // time: its layouts are its flag's own
		}
		t.Run(k.Name(), func(t *testing.T) {
			var argvs [][]string
			cfg := &toolset.Config{Middleware: []toolset.Middleware{func(toolset.RunFunc) toolset.RunFunc {
				return func(_ context.Context, c *toolset.Call) (*execResult, error) {
					argvs = append(argvs, c.Argv)
					return &execResult{Stdout: "ok"}, nil
				}
			}}}
			root := &cobra.Command{Use: "cli"}
			run := &cobra.Command{Use: "run", RunE: noop}
			k.Define(run.Flags(), "x", "a flag of the kind")
			root.AddCommand(run)
			ts, err := toolset.New(root, cfg)
			if err != nil {
				t.Fatal(err)
			}

			sample, _ := k.Sample()
			v, err := ts.View(toolset.Listing{}, toolset.Policy{Pins: []toolset.Pin{{Flag: "x", Value: sample, From: "--set"}}})
			if err != nil {
				t.Fatalf("the sample %q is refused: %v", sample, err)
			}
			if res, err := v.Call(context.Background(), "cli_run", nil); err != nil || res.IsError {
				t.Fatalf("call: %v %s", err, resultText(res))
			}
			if want := "--x=" + sample; len(argvs) != 1 || !slices.Contains(argvs[0], want) {
				t.Errorf("argv %q lacks %s", argvs, want)
			}

			for _, text := range bad {
				real := pflag.NewFlagSet("", pflag.ContinueOnError)
				k.Define(real, "x", "")
				if real.Set("x", text) == nil {
					continue
				}
				if _, err := ts.View(toolset.Listing{}, toolset.Policy{Pins: []toolset.Pin{{Flag: "x", Value: text, From: "--set"}}}); err == nil {
					t.Errorf("pin %q: accepted, but the flag's parser refuses it", text)
				}
			}
		})
	}
}
