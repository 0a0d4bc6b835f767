package toolset

import (
	"encoding/json"
	"fmt"

	"github.com/cobramcp/cobramcp/internal/schemacheck"
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
	fast = show(t.decodeInput(arguments))
	if _, err := t.validator(); err != nil {
		panic(err)
	}
	quick := t.quick
	covered = quick != nil && quick.Check(map[string]any{}) != schemacheck.Unknown
	t.quick = nil
	general = show(t.decodeInput(arguments))
	t.quick = quick
	return fast, general, covered
}
