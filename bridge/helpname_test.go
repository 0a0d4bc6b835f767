package bridge_test

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
)

// TestHelpNamesTheCLI shows the help of every mcp command, through --help,
// the help command and the usage of a bad command line, in a CLI named
// acme: none names mycli, and the examples name acme.
func TestHelpNamesTheCLI(t *testing.T) {
	newRoot := func() (*cobra.Command, *bytes.Buffer) {
		root := &cobra.Command{Use: "acme"}
		root.AddCommand(bridge.New(bridge.Options{Tree: newFake().source}))
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&out)
		return root, &out
	}
	root, _ := newRoot()
	group, _, err := root.Find([]string{"mcp"})
	if err != nil {
		t.Fatal(err)
	}
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		paths = append(paths, path)
		for _, s := range c.Commands() {
			walk(s, append(append([]string(nil), path...), s.Name()))
		}
	}
	walk(group, []string{"mcp"})
	var all strings.Builder
	for _, p := range paths {
		for _, args := range [][]string{append(append([]string(nil), p...), "--help"), append([]string{"help"}, p...), append(append([]string(nil), p...), "--no-such-flag")} {
			root, out := newRoot()
			root.SetArgs(args)
			_ = root.Execute()
			text := out.String()
			if strings.Contains(strings.ToLower(text), "mycli") {
				t.Errorf("acme %s names mycli:\n%s", strings.Join(args, " "), text)
			}
			all.WriteString(text)
		}
	}
	for _, want := range []string{"acme mcp stream --addr", "ACME_MCP_TOKEN", "acme_get_*", "env ACME_MCP_READ_ONLY"} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("no help shows %q", want)
		}
	}
}

// TestCompletionNamesTheCLI: shell completion shows the flags' usages
// without asking for help, before the group knows its root: they name the
// program as it was called, never a placeholder.
func TestCompletionNamesTheCLI(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"/usr/local/bin/acme", "__complete", "mcp", "start", "--"}, []string{"ACME_MCP_TOOLS", "acme_get_*", "ACME_MCP_READ_ONLY"}},
		{[]string{"acme", "__completeNoDesc", "mcp", "start", "--t"}, []string{"--tools", "--tool-mode"}},
		{[]string{"acme", "__complete", "mcp", ""}, []string{"start", "stream"}},
	} {
		saved := os.Args
		os.Args = tt.args
		root := &cobra.Command{Use: "acme"}
		root.AddCommand(bridge.New(bridge.Options{Tree: newFake().source}))
		os.Args = saved
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(io.Discard)
		root.SetArgs(tt.args[1:])
		if err := root.Execute(); err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		text := out.String()
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("%v: no %q in\n%s", tt.args, w, text)
			}
		}
		if strings.Contains(text, "CLINAME") || strings.Contains(text, "CLIENV") {
			t.Errorf("%v: a placeholder in\n%s", tt.args, text)
		}
	}
}
