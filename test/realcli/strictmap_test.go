package realcli

import (
	"testing"

	"github.com/cobramcp/cobramcp/test/strictcheck"
)

// strictKeys are map keys that need care on a command line: the
// separators of pflag's map syntax (",", "=", "[", "]"), quotes, blanks
// and control characters.
var strictKeys = []string{"a,b", "a,b,c", ",", "[a", "a]", "[a]", "a[b]", "[", "]", "\x01", "a\tb", "\n", "a\rb", "\x7f", "\"a\"", "a b", "é,日", "a=b", ""}

// TestStrictMapKeys: on mycli and kubectl, for every map flag of every
// command, a call setting it to one entry whose key is each of strictKeys
// is read the same in both forms: when the tool's MCP schema accepts the
// input, the OpenAI strict schema accepts its {key, value} pairs form, the
// call path gives both the same argv (or the same refusal), and the tree
// itself reads that argv back as exactly the map given.
func TestStrictMapKeys(t *testing.T) {
	for _, tr := range Trees {
		t.Run(tr.Name, func(t *testing.T) {
			n := strictcheck.MapKeys(t, strictcheck.Case{New: tr.New, Keys: strictKeys, Reader: tr.Name})
			if n.Inputs == 0 {
				t.Fatalf("no map flag in %s", tr.Name)
			}
			t.Logf("%d inputs with unusual map keys valid for the MCP schema: %d refused by the strict schema, %d read back", n.Inputs, n.Refused, n.Read)
		})
	}
}
