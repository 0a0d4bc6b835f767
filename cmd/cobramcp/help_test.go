package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestHelpNamesTheServedCLI shows the help of every command of cobramcp,
// at the top and under mcp, without a binary and with one named after --:
// no help shows the placeholders the texts are written with; without a
// binary they say BINARY, with one they name it.
func TestHelpNamesTheServedCLI(t *testing.T) {
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		if len(path) > 0 && c.Name() != "help" && c.Name() != "completion" {
			paths = append(paths, path)
		}
		for _, s := range c.Commands() {
			walk(s, append(append([]string(nil), path...), s.Name()))
		}
	}
	walk(newRoot(&bytes.Buffer{}, &target{}), nil)
	for _, tc := range []struct {
		binary []string
		names  []string
	}{
		{nil, []string{"BINARY_get_*", "BINARY_MCP_TOKEN"}},
		{[]string{"--", "/no/such/dir/acme"}, []string{"acme_get_*", "ACME_MCP_TOKEN"}},
	} {
		var all strings.Builder
		for _, p := range paths {
			var out bytes.Buffer
			_ = execute(append(append(append([]string(nil), p...), "--help"), tc.binary...), &out, &out)
			text := out.String()
			if strings.Contains(text, "CLINAME") || strings.Contains(text, "CLIENV") {
				t.Errorf("cobramcp %s --help %s shows a placeholder:\n%s", strings.Join(p, " "), strings.Join(tc.binary, " "), text)
			}
			all.WriteString(text)
		}
		for _, want := range tc.names {
			if !strings.Contains(all.String(), want) {
				t.Errorf("with %q, no help shows %q", tc.binary, want)
			}
		}
	}
}
