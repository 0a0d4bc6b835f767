package bridge_test

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/toolset"
)

// TestUsageOnlyForUsageErrors runs the mcp commands under a root that
// keeps cobra's defaults (usage and error printed): an error found while
// running prints alone, an error in the command line prints the usage too.
func TestUsageOnlyForUsageErrors(t *testing.T) {
	tests := []struct {
		name      string
		load      error // what Options.Load returns
		args      []string
		wantErr   string
		wantUsage bool
	}{
		{"broken config", errors.New("reading acme.yaml: bad indentation"), []string{"tools", "-o", "-"}, "bad indentation", false},
		{"pattern matching no tool", nil, []string{"tools", "-o", "-", "--tools", "nomatch_*"}, "--tools: no tool matches nomatch_*", false},
		{"unknown tool", nil, []string{"call", "acme_nothing"}, "acme_nothing", false},
		{"unknown flag", nil, []string{"tools", "--no-such-flag"}, "unknown flag", true},
		{"too many args", nil, []string{"start", "extra"}, "extra", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newFake()
			root := &cobra.Command{Use: "acme"}
			root.AddCommand(bridge.New(bridge.Options{Tree: func(c *cobra.Command, log *slog.Logger) (*cobra.Command, *toolset.Config, error) {
				if tt.load != nil {
					return nil, nil, tt.load
				}
				return ts.source(c, log)
			}}))
			var out bytes.Buffer
			root.SetOut(&out)
			root.SetErr(&out)
			root.SetIn(strings.NewReader(""))
			root.SetArgs(append([]string{"mcp"}, tt.args...))
			err := root.Execute()
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
			text := out.String()
			if !strings.Contains(text, "Error: ") {
				t.Errorf("output does not show the error:\n%s", text)
			}
			if got := strings.Contains(text, "Usage:"); got != tt.wantUsage {
				t.Errorf("usage printed: %v, want %v; output:\n%s", got, tt.wantUsage, text)
			}
		})
	}
}
