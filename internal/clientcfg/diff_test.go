package clientcfg

import (
	"strings"
	"testing"
)

// A dry run's diff says whether the file is made or changed.
func TestDiffLabels(t *testing.T) {
	for _, tt := range []struct {
		name          string
		before, after string
		want, notWant string
	}{
		{"a new file", "", "{\"mcpServers\": {}}\n", "+++ c.json (new)\n", "(updated)"},
		{"an existing file", "{\n  \"a\": 1\n}\n", "{\n  \"a\": 1,\n  \"b\": 2\n}\n", "+++ c.json (updated)\n", "(new)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := Diff("c.json", []byte(tt.before), []byte(tt.after))
			if !strings.Contains(d, tt.want) || strings.Contains(d, tt.notWant) {
				t.Errorf("diff:\n%s\nwant %q, not %q", d, tt.want, tt.notWant)
			}
		})
	}
}
