package corpustest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
)

// Adopt adds the mcp group to the tree that newRoot returns (the one line
// of the adoption; skipped when the tree has it already) and runs, each on
// a tree of its own, `mcp --help`, `mcp tools -o -`, `mcp start --help`
// and `mcp claude enable --dry-run` in-process, failing t when one
// panics, fails, or prints what it should not: the help must name the
// CLI (name), the export must hold at least minTools tools. HOME must be
// a temporary directory (t.Setenv): enable reads the client's file there.
// A root that newRoot returns again (a main's package variable) gets the
// group for the run only, and its output writers and args back. prepare,
// when not nil, does to the group what the CLI's own adoption would (gh
// checks authentication before every command not annotated to skip it).
// A help that the CLI prints elsewhere than the command's output writer
// (gh's, to its own streams) is not read.
func Adopt(t *testing.T, name string, newRoot func() *cobra.Command, minTools int, prepare func(group *cobra.Command)) {
	t.Helper()
	run := func(args ...string) (string, error) {
		root := newRoot()
		var group *cobra.Command
		if c, _, err := root.Find([]string{"mcp"}); err != nil || c == root {
			group = bridge.Command(nil)
			if prepare != nil {
				prepare(group)
			}
			root.AddCommand(group)
		}
		var out, errOut bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&errOut)
		root.SetArgs(args)
		defer func() {
			root.SetOut(nil)
			root.SetErr(nil)
			root.SetArgs(nil)
			if group != nil {
				root.RemoveCommand(group)
			}
		}()
		err := func() (err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panic: %v", r)
				}
			}()
			return root.Execute()
		}()
		if err != nil {
			return out.String(), fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, errOut.String())
		}
		return out.String(), nil
	}
	for _, args := range [][]string{{"mcp", "--help"}, {"mcp", "start", "--help"}} {
		out, err := run(args...)
		if err != nil {
			t.Error(err)
			continue
		}
		if want := name + " " + strings.Join(args[:len(args)-1], " "); out != "" && (!strings.Contains(out, want) || strings.Contains(out, "CLINAME")) {
			t.Errorf("%s %s: the help does not name %q:\n%s", name, strings.Join(args, " "), want, out)
		}
	}
	out, err := run("mcp", "tools", "-o", "-")
	if err != nil {
		t.Error(err)
	} else {
		var tools []struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal([]byte(out), &tools); err != nil || len(tools) < minTools || tools[0].Name != name && !strings.HasPrefix(tools[0].Name, name+"_") {
			t.Errorf("%s mcp tools -o -: %d tools (want at least %d, named after the CLI), %v\n%.300s", name, len(tools), minTools, err, out)
		}
	}
	out, err = run("mcp", "claude", "enable", "--dry-run")
	if err != nil {
		t.Error(err)
	} else if !strings.Contains(out, `"`+name+`"`) {
		t.Errorf("%s mcp claude enable --dry-run does not name the server %q:\n%s", name, name, out)
	}
}
