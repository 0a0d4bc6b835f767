package toolset

import (
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/pflag"
)

// Served is a served view of a Toolset: the tools that View's policies
// leave, listed in one shape, with the pins applied. Its Tools are the
// tools as listed; Call and the server NewServer makes run them. A view
// is made from the reflection only: there is no view of a view (give View
// every policy at once). A Served is safe for concurrent use.
type Served struct {
	ts       *Toolset // the reflection it was made from
	policies []Policy
	tools    []*Tool // the served tools, sorted by name
	byName   map[string]*Tool
	shared   []*pflag.Flag // the flags stated once (compact listing)
	list     listing
	pins     map[string]*toolPins // per tool taking a pinned flag, by tool name
	pinFrom  map[string]string    // where each pinned flag came from, by flag name
	redacted map[string]string    // each pinned argv element, to its form with the value replaced
	claims   *claimTexts          // the claim pins' values checked (see Pin.Claim)
}

// Tools returns the tools as listed, sorted by name: what tools/list
// returns. In full mode, one per served command, compact or expanded as
// the Listing asked, without the pinned flags; in search mode the search,
// list, describe and run tools.
func (s *Served) Tools() []*mcp.Tool { return slices.Clone(s.list.tools()) }

// List returns the served tools (as defined) sorted by name.
func (s *Served) List() []*Tool { return slices.Clone(s.tools) }

// lookup returns the served tool named name (as defined).
func (s *Served) lookup(name string) (*Tool, bool) {
	t, ok := s.byName[name]
	return t, ok
}

// mode returns the shape of the listing: full or search (View resolves
// auto).
func (s *Served) mode() ToolMode { return s.list.mode() }

// Toolset returns the reflection s was made from, from which other views
// that share its call slots and Wait are made (per-caller views, package
// access).
func (s *Served) Toolset() *Toolset { return s.ts }

// Wait blocks until every call has ended: those of every view of the same
// Toolset, which share its limits.
func (s *Served) Wait() { s.ts.running.wait() }

// sharedFlags returns the flags stated once in the compact listing rather
// than in every tool's schema, sorted by name: the flags inherited from an
// ancestor that every tool parsing flags serves, or shadows with its own
// flag of the same name, except the required ones and those in a flag
// group. Every tool with a "flags" argument accepts them; where a tool's
// schema names a flag of the same name, that one is meant. It is empty
// with Listing.Expanded.
func (s *Served) sharedFlags() []*pflag.Flag { return slices.Clone(s.shared) }

// redact returns argv with the value of each pinned flag replaced by
// "***" ("--token=***"), for logs: a pin may hold a secret. argv itself
// is not changed.
func (s *Served) redact(argv []string) []string {
	if len(s.redacted) == 0 {
		return argv
	}
	out := argv
	for i, a := range argv {
		if r, ok := s.redacted[a]; ok {
			if &out[0] == &argv[0] {
				out = slices.Clone(argv)
			}
			out[i] = r
		}
	}
	return out
}

// pinned returns the names of t's pinned flags, sorted.
func (s *Served) pinned(t *Tool) []string {
	if p := s.pins[t.Name]; p != nil {
		return p.names
	}
	return nil
}
