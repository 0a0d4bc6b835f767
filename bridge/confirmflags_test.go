package bridge

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/toolset"
)

// TestConfirmFlags: --confirm and --confirm-destructive, or their
// variables when the flags are not given, say what is confirmed; a
// pattern that matches no served tool and a variable that is not a
// boolean are refused, naming what to fix.
func TestConfirmFlags(t *testing.T) {
	noop := func(*cobra.Command, []string) error { return nil }
	root := &cobra.Command{Use: "fakecli"}
	for _, n := range []string{"get", "label", "set-x"} {
		root.AddCommand(&cobra.Command{Use: n, RunE: noop})
	}
	ts, err := toolset.New(root, &toolset.Config{ToolPrefix: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	v, err := ts.View(toolset.Listing{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		env  map[string]string
		want toolset.Confirm
		err  string
	}{
		{nil, nil, toolset.Confirm{}, ""},
		{[]string{"--confirm", "fake_set-*", "--confirm", "fake_label"}, nil, toolset.Confirm{Tools: []string{"fake_set-*", "fake_label"}}, ""},
		{[]string{"--confirm-destructive"}, nil, toolset.Confirm{Destructive: true}, ""},
		{nil, map[string]string{"FAKECLI_MCP_CONFIRM": "fake_get,fake_label", "FAKECLI_MCP_CONFIRM_DESTRUCTIVE": "yes"}, toolset.Confirm{Tools: []string{"fake_get", "fake_label"}, Destructive: true}, ""},
		{[]string{"--confirm", "fake_get"}, map[string]string{"FAKECLI_MCP_CONFIRM": "fake_label"}, toolset.Confirm{Tools: []string{"fake_get"}}, ""},
		{[]string{"--confirm", "fake_delete_*"}, nil, toolset.Confirm{}, `--confirm: confirm pattern "fake_delete_*" matches no served tool`},
		{nil, map[string]string{"FAKECLI_MCP_CONFIRM_DESTRUCTIVE": "maybe"}, toolset.Confirm{}, `$FAKECLI_MCP_CONFIRM_DESTRUCTIVE="maybe": want true or false`},
	}
	for _, tt := range tests {
		c := &cobra.Command{Use: "start", RunE: func(*cobra.Command, []string) error { return nil }}
		addConfirmFlags(c)
		if err := c.ParseFlags(tt.args); err != nil {
			t.Fatal(err)
		}
		got, err := readConfirm(c, "fakecli", func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok })
		if err == nil {
			got, err = checkConfirm(got, v)
		}
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%q %v: err %v, want %q", tt.args, tt.env, err, tt.err)
		case tt.err == "" && err != nil:
			t.Errorf("%q %v: %v", tt.args, tt.env, err)
		case tt.err == "" && (!slices.Equal(got.Tools, tt.want.Tools) || got.Destructive != tt.want.Destructive):
			t.Errorf("%q %v: %+v, want %+v", tt.args, tt.env, got, tt.want)
		}
	}
}
