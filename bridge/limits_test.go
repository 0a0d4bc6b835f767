package bridge_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/toolset"
)

// limitsTree is a CLI whose author chose a 3-minute timeout and a 4 KiB
// output cap; its calls never run: the limits of the last one are
// recorded.
func limitsTree(got *toolset.RunOptions) *cobra.Command {
	root := &cobra.Command{Use: "lim", SilenceUsage: true, SilenceErrors: true}
	root.AddCommand(&cobra.Command{Use: "get", RunE: func(*cobra.Command, []string) error { return nil }})
	root.AddCommand(bridge.Command(&bridge.Config{
		Timeout:   3 * time.Minute,
		MaxOutput: 4096,
		Middleware: []toolset.Middleware{func(toolset.RunFunc) toolset.RunFunc {
			return func(_ context.Context, c *toolset.Call) (*toolset.Result, error) {
				*got = c.Options
				return &toolset.Result{Stdout: "ran"}, nil
			}
		}},
	}))
	return root
}

// TestLimitFlags: --timeout and --max-output, or their LIM_MCP_*
// variables, change the author's limits for the calls; the flag wins over
// the variable; unset, the author's Config stands; 0 means no limit; a
// value that is not one is refused, naming where it came from.
func TestLimitFlags(t *testing.T) {
	tests := []struct {
		name        string
		env         map[string]string
		flags       []string
		wantTimeout time.Duration
		wantOutput  int
		wantErr     string
	}{
		{"the author's", nil, nil, 3 * time.Minute, 4096, ""},
		{"flags", nil, []string{"--timeout", "1s", "--max-output", "10"}, time.Second, 10, ""},
		{"variables", map[string]string{"LIM_MCP_TIMEOUT": "30m", "LIM_MCP_MAX_OUTPUT": "99"}, nil, 30 * time.Minute, 99, ""},
		{"the flag wins", map[string]string{"LIM_MCP_TIMEOUT": "30m"}, []string{"--timeout", "2s"}, 2 * time.Second, 4096, ""},
		{"no limit", nil, []string{"--timeout", "0", "--max-output", "0"}, 0, -1, ""},
		{"max-parallel", nil, []string{"--max-parallel", "2"}, 3 * time.Minute, 4096, ""},
		{"bad variable", map[string]string{"LIM_MCP_TIMEOUT": "soon"}, nil, 0, 0, `$LIM_MCP_TIMEOUT "soon"`},
		{"bad max-parallel", nil, []string{"--max-parallel", "0"}, 0, 0, `--max-parallel "0": want a number of calls, at least 1`},
		{"negative output", map[string]string{"LIM_MCP_MAX_OUTPUT": "-5"}, nil, 0, 0, `$LIM_MCP_MAX_OUTPUT "-5"`},
		{"bad parallel variable", map[string]string{"LIM_MCP_MAX_PARALLEL": "many"}, nil, 0, 0, `$LIM_MCP_MAX_PARALLEL "many": want a number of calls, at least 1`},
		{"negative timeout", nil, []string{"--timeout", "-1s"}, 0, 0, `--timeout "-1s": want a duration`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			var got toolset.RunOptions
			args := append([]string{"mcp", "call", "lim_get", "{}"}, tt.flags...)
			_, err := execute(limitsTree(&got), args...)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Timeout != tt.wantTimeout || got.MaxOutput != tt.wantOutput {
				t.Errorf("timeout %v, max output %d; want %v, %d", got.Timeout, got.MaxOutput, tt.wantTimeout, tt.wantOutput)
			}
		})
	}
}

// The serving commands have the limit flags; the export does not.
func TestLimitFlagsWhereCallsRun(t *testing.T) {
	var got toolset.RunOptions
	root := limitsTree(&got)
	for _, path := range [][]string{{"mcp", "start"}, {"mcp", "stream"}, {"mcp", "call"}, {"mcp", "tool"}} {
		c, _, err := root.Find(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"timeout", "max-output", "max-parallel"} {
			if c.Flags().Lookup(f) == nil {
				t.Errorf("%s has no --%s", c.CommandPath(), f)
			}
		}
	}
}
