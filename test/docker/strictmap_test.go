package docker

import (
	"testing"

	"github.com/cobramcp/cobramcp/test/strictcheck"
	"github.com/cobramcp/cobramcp/toolset"
)

// strictKeys are map keys that need care on a command line: the
// separators of pflag's map syntax (",", "=", "[", "]"), quotes, blanks
// and control characters.
var strictKeys = []string{"a,b", "a,b,c", ",", "[a", "a]", "[a]", "a[b]", "[", "]", "\x01", "a\tb", "\n", "a\rb", "a\r\nb", "a\x00b", "\x7f", "\"a\"", "a b", " a ", "é,日", "a\u2028b", "\U0001F600", "a=b", ""}

// TestDockerStrictMapKeys: for every map flag of every docker command
// (context create and update's --docker, ...), a call setting it to one
// entry whose key is each of strictKeys is read the same in both forms:
// when the tool's MCP schema accepts the input, the OpenAI strict schema
// accepts its {key, value} pairs form, the call path gives both the same
// argv (or the same refusal), and docker's own tree reads that argv back
// as exactly the map given.
func TestDockerStrictMapKeys(t *testing.T) {
	n := strictcheck.MapKeys(t, strictcheck.Case{
		New:    New,
		Config: toolset.Config{RepeatableTypes: RepeatableTypes()},
		Keys:   strictKeys,
		Reader: "docker",
	})
	if n.Inputs < 20 || n.Read < 10 {
		t.Errorf("%d inputs valid for the MCP schema, %d read back by docker: too few to say anything", n.Inputs, n.Read)
	}
	t.Logf("%d inputs with unusual map keys valid for the MCP schema: %d refused by the strict schema, %d read back by docker", n.Inputs, n.Refused, n.Read)
}
