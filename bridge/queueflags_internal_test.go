package bridge

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/internal/toolmeta"
	"github.com/cobramcp/cobramcp/toolset"
)

func TestReadQueueLimits(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		env  map[string]string
		want toolset.Limits
		err  string
	}{
		{"defaults", nil, nil, toolset.Limits{MaxQueue: toolmeta.DefaultMaxQueue, MaxQueuePerCaller: toolmeta.DefaultMaxQueuePerCaller}, ""},
		{"flags", []string{"--max-queue=10", "--max-queue-per-caller=3", "--caller-share=4"}, nil, toolset.Limits{MaxQueue: 10, MaxQueuePerCaller: 3, CallerShare: 4}, ""},
		{"variables", nil, map[string]string{"CLI_MCP_MAX_QUEUE": "7", "CLI_MCP_CALLER_SHARE": " 2 "}, toolset.Limits{MaxQueue: 7, MaxQueuePerCaller: toolmeta.DefaultMaxQueuePerCaller, CallerShare: 2}, ""},
		{"a flag wins over its variable", []string{"--max-queue=9"}, map[string]string{"CLI_MCP_MAX_QUEUE": "7"}, toolset.Limits{MaxQueue: 9, MaxQueuePerCaller: toolmeta.DefaultMaxQueuePerCaller}, ""},
		{"no queue", []string{"--max-queue=0"}, nil, toolset.Limits{}, "--max-queue 0: want a number of at least 1"},
		{"a negative share", []string{"--caller-share=-1"}, nil, toolset.Limits{}, "--caller-share -1: want a number of at least 0"},
		{"a bad variable", nil, map[string]string{"CLI_MCP_MAX_QUEUE_PER_CALLER": "lots"}, toolset.Limits{}, `$CLI_MCP_MAX_QUEUE_PER_CALLER="lots": want a whole number`},
		{"a variable below the floor", nil, map[string]string{"CLI_MCP_MAX_QUEUE": "0"}, toolset.Limits{}, "$CLI_MCP_MAX_QUEUE 0: want a number of at least 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := &cobra.Command{Use: "start"}
			f := addQueueFlags(cmd, true)
			if err := cmd.ParseFlags(c.args); err != nil {
				t.Fatal(err)
			}
			got, err := readQueueLimits(cmd, "cli", f, func(k string) (string, bool) { v, ok := c.env[k]; return v, ok })
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %+v %v, want %+v", got, err, c.want)
			}
		})
	}
}

// On stdio (start) there is one caller: only --max-queue.
func TestStartHasNoCallerFlags(t *testing.T) {
	cmd := &cobra.Command{Use: "start"}
	f := addQueueFlags(cmd, false)
	if cmd.Flags().Lookup(flagCallerShare) != nil || cmd.Flags().Lookup(flagMaxQueuePerCaller) != nil {
		t.Fatal("start has flags of the callers' shares")
	}
	got, err := readQueueLimits(cmd, "cli", f, func(string) (string, bool) { return "3", true })
	want := toolset.Limits{MaxQueue: 3, MaxQueuePerCaller: toolmeta.DefaultMaxQueuePerCaller}
	if err != nil || got != want {
		t.Fatalf("got %+v %v, want %+v", got, err, want)
	}
}
