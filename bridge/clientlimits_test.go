package bridge_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/internal/clientcfg"
)

// wideTree is a CLI of n commands, one of them with a long name.
func wideTree(n int) *cobra.Command {
	root := &cobra.Command{Use: "wide", SilenceUsage: true, SilenceErrors: true}
	root.PersistentFlags().StringP("namespace", "n", "", "namespace")
	for i := range n - 1 {
		root.AddCommand(&cobra.Command{Use: fmt.Sprintf("cmd%02d", i), RunE: func(*cobra.Command, []string) error { return nil }})
	}
	root.AddCommand(&cobra.Command{Use: "a-command-whose-name-is-long-enough-to-break-the-limits", RunE: func(*cobra.Command, []string) error { return nil }})
	root.AddCommand(bridge.Command(nil))
	return root
}

// TestEnableFitsTheClient: enable writes the tool mode that fits the
// client and warns where the tools exceed its limits.
func TestEnableFitsTheClient(t *testing.T) {
	tests := []struct {
		name     string
		n        int
		args     []string
		wantArgs []string // written after mcp start
		notes    []string // in the output
		nots     []string // not in the output
	}{
		{"cursor: more tools than it takes", 50, []string{"mcp", "cursor", "enable"},
			[]string{"--tool-mode=search"}, []string{"Tool mode: search: Cursor takes at most 40 tools and this server has 50"}, []string{"Warning"}},
		{"cursor: full asked for", 50, []string{"mcp", "cursor", "enable", "--", "--tool-mode", "full"},
			[]string{"--tool-mode", "full"}, []string{"Warning: Cursor takes at most 40 tools and this server lists 50", "Warning: Cursor takes names of at most 60", "wide_a-command-whose-name-is-long-enough-to-break-the-limits (64)"}, nil},
		{"cursor: few tools", 10, []string{"mcp", "cursor", "enable", "--server-name", "w"},
			nil, []string{`Warning: Cursor takes names of at most 60 characters ("w" plus a tool name); 1 tool(s) are longer, e.g. wide_a-command-whose-name-is-long-enough-to-break-the-limits (61)`}, []string{"Tool mode", "at most 40"}},
		{"claude code: full, long name", 50, []string{"mcp", "claude-code", "enable"},
			[]string{"--tool-mode=full"}, []string{"Tool mode: full (50 tools): Claude Code loads tool definitions on demand", `Warning: Claude Code takes names of at most 64 characters ("mcp__wide__" plus a tool name)`}, nil},
		{"vscode: fits", 50, []string{"mcp", "vscode", "enable"}, nil, nil, []string{"Warning", "Tool mode"}},
		{"vscode: a flag before mcp becomes a pin", 10, []string{"-n", "prod", "mcp", "vscode", "enable"}, []string{"--set=namespace=prod"}, nil, nil},
		{"vscode: --set after --, a value with a comma", 10, []string{"mcp", "vscode", "enable", "--", "--set", "namespace=a,b"}, []string{"--set", "namespace=a,b"}, nil, nil},
		{"windsurf: excluded down to fit", 120, []string{"mcp", "windsurf", "enable", "--", "--exclude-tools", "wide_cmd1*,wide_cmd2*", "--tool-mode", "full"},
			[]string{"--exclude-tools", "wide_cmd1*,wide_cmd2*", "--tool-mode", "full"}, nil, []string{"Warning: Windsurf"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.json")
			i := indexOf(tt.args, "enable")
			args := append(append(append([]string{}, tt.args[:i+1]...), "--config-path", path), tt.args[i+1:]...)
			out, err := execute(wideTree(tt.n), args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			for _, n := range tt.notes {
				if !strings.Contains(out, n) {
					t.Errorf("output lacks %q:\n%s", n, out)
				}
			}
			for _, n := range tt.nots {
				if strings.Contains(out, n) {
					t.Errorf("output has %q:\n%s", n, out)
				}
			}
			cl, _ := clientcfg.Lookup(tt.args[indexOf(tt.args, "enable")-1])
			entries, err := cl.File(path).List()
			if err != nil || len(entries) != 1 {
				t.Fatalf("entries %v: %v", entries, err)
			}
			got := entries[0].Server.Args
			if want := append([]string{"mcp", "start"}, tt.wantArgs...); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("args %q, want %q", got, want)
			}
		})
	}
	_, err := execute(wideTree(5), "mcp", "vscode", "enable", "--config-path", filepath.Join(t.TempDir(), "c.json"), "--", "--exclude-tools", "nope")
	if err == nil || !strings.Contains(err.Error(), "no tool matches nope") {
		t.Errorf("a pattern matching nothing: %v", err)
	}
}

func indexOf(ss []string, s string) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return -1
}
