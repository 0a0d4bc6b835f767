package toolset

import (
	"encoding/json"
	"fmt"

	"github.com/cobramcp/cobramcp/internal/schemacheck"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/pflag"
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
	t, ok := ts.lookup(name)
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

// The names below are the package's own (an adopter needs none of them),
// exported for the external tests.

const (
	MaxDescription  = maxDescription
	MaxInstructions = maxInstructions
	MaxNameLen      = maxNameLen
	WaitNoted       = waitNoted
)

// Problem is a command or flag left out, or an annotation ignored.
type Problem = problem

var ToolName = toolName

func (ts *Toolset) List() []*Tool                    { return ts.allTools() }
func (ts *Toolset) Lookup(name string) (*Tool, bool) { return ts.lookup(name) }
func (ts *Toolset) Problems() []Problem              { return ts.problemList() }
func (s *Served) Lookup(name string) (*Tool, bool)   { return s.lookup(name) }
func (s *Served) Mode() ToolMode                     { return s.mode() }
func (s *Served) SharedFlags() []*pflag.Flag         { return s.sharedFlags() }
func (s *Served) Instructions() string               { return s.instructions() }
func (s *Served) Redact(argv []string) []string      { return s.redact(argv) }
func (t *Tool) ReadOnly() bool                       { return t.readOnly() }
func (c Confirm) Enabled() bool                      { return c.enabled() }
