package toolset

import (
	"encoding/json"
	"fmt"

	"github.com/cobramcp/cobramcp/internal/schemacheck"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ArgsUsage exposes argsUsage to the external tests.
var ArgsUsage = argsUsage

// SharedFlagsText, FlagLines and SharedIntro expose the statement of the
// shared flags to the external tests.
var (
	SharedFlagsText = sharedFlagsText
	FlagLines       = flagLines
)

const SharedIntro = sharedIntro

// DecodeBoth decodes a call's arguments for the tool name as calls do (the
// fast checker first, internal/schemacheck) and with jsonschema-go alone,
// and returns both outcomes printed, and whether the fast checker
// evaluates the tool's schema at all (then it decides every call, valid or
// not: the documents validated hold only JSON's types).
func DecodeBoth(ts *Toolset, name string, arguments json.RawMessage) (fast, general string, covered bool) {
	t, ok := ts.Lookup(name)
	if !ok {
		panic("no tool " + name)
	}
	show := func(in *input, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		return fmt.Sprintf("%v %q %q", in.flags, in.args, in.afterDash)
	}
	fast = show(t.decodeInput(arguments, nil, nil))
	_, quick, err := t.check.get()
	if err != nil {
		panic(err)
	}
	covered = quick != nil && quick.Check(map[string]any{}) != schemacheck.Unknown
	t.check.quick = nil
	general = show(t.decodeInput(arguments, nil, nil))
	t.check.quick = quick
	return fast, general, covered
}

// Compact returns t's compact form, as a view lists it without pins.
func Compact(t *Tool) *mcp.Tool { return t.compact }
