package toolset_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/toolset"
)

// Inputs that ask for nothing are read as nothing: "args": [] on a
// command that takes no positional args (models send it by habit), and {}
// (or [] in the strict pairs form) for a map flag, which no command line
// can set to no entries. Anything else stays refused as before.
func TestEmptyInputsMeanNotSet(t *testing.T) {
	var argv []string
	root := &cobra.Command{Use: "app"}
	set := &cobra.Command{Use: "set", Args: cobra.NoArgs, Run: func(*cobra.Command, []string) {}}
	set.Flags().StringToString("labels", nil, "labels")
	set.Flags().String("name", "", "name")
	root.AddCommand(set)
	ts := mustTools(t, root, &toolset.Config{Middleware: []toolset.Middleware{func(toolset.RunFunc) toolset.RunFunc {
		return func(_ context.Context, c *toolset.Call) (*toolset.Result, error) {
			argv = c.Argv
			return &toolset.Result{}, nil
		}
	}}})
	v := fullView(ts)
	tests := []struct {
		name, args string
		want       []string // the argv, nil for a refusal
		refusal    string
	}{
		{"empty args", `{"args": []}`, []string{"set"}, ""},
		{"empty args and a flag", `{"args": [], "flags": {"name": "x"}}`, []string{"set", "--name=x"}, ""},
		{"empty map", `{"flags": {"labels": {}}}`, []string{"set"}, ""},
		{"empty pairs", `{"flags": {"labels": []}}`, []string{"set"}, ""},
		{"a map entry", `{"flags": {"labels": {"a": "b"}}}`, []string{"set", "--labels=a=b"}, ""},
		{"an arg", `{"args": ["x"]}`, nil, "takes no positional args"},
		{"args not an array", `{"args": {}}`, nil, "takes no positional args"},
		{"empty object for a string", `{"flags": {"name": {}}}`, nil, "name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			argv = nil
			res, err := v.Call(context.Background(), "app_set", []byte(tt.args))
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == nil {
				if !res.IsError || !strings.Contains(resultText(res), tt.refusal) {
					t.Errorf("%s: want a refusal saying %q, got isError %v: %s", tt.args, tt.refusal, res.IsError, resultText(res))
				}
				return
			}
			if res.IsError || !slices.Equal(argv, tt.want) {
				t.Errorf("%s: argv %q (isError %v: %s), want %q", tt.args, argv, res.IsError, resultText(res), tt.want)
			}
		})
	}
}

// A policy that leaves nothing names the settings that chose what is
// served (PolicyError.Active), so that a caller can explain --read-only
// without reading the message.
func TestPolicyErrorNamesActiveSettings(t *testing.T) {
	root := &cobra.Command{Use: "app"}
	root.AddCommand(&cobra.Command{Use: "set", Run: func(*cobra.Command, []string) {}})
	ts := mustTools(t, root, nil)
	tests := []struct {
		ps   []toolset.Policy
		want []toolset.Setting
	}{
		{[]toolset.Policy{{ReadOnly: true}}, []toolset.Setting{toolset.SettingReadOnly}},
		{[]toolset.Policy{{Tools: []string{"app_*"}}, {ExcludeTools: []string{"app_set"}}}, []toolset.Setting{toolset.SettingTools, toolset.SettingExcludeTools}},
		{[]toolset.Policy{{ExcludeTools: []string{"app_*"}, ReadOnly: true}}, []toolset.Setting{toolset.SettingExcludeTools, toolset.SettingReadOnly}},
	}
	for _, tt := range tests {
		_, err := ts.View(toolset.Listing{}, tt.ps...)
		var pe *toolset.PolicyError
		if !errors.As(err, &pe) || !errors.Is(err, toolset.ErrNothingServed) || !slices.Equal(pe.Active, tt.want) {
			t.Errorf("%+v: %v, active %v; want %v", tt.ps, err, pe, tt.want)
		}
	}
}
