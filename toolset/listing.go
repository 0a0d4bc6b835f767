package toolset

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ToolMode is the shape of the tool listing.
type ToolMode string

// The tool modes.
const (
	// ToolModeFull lists one tool per command.
	ToolModeFull ToolMode = "full"
	// ToolModeSearch lists a handful of tools (search, describe, run) that
	// reach every served command.
	ToolModeSearch ToolMode = "search"
	// ToolModeAuto is search when the full listing is large (more than
	// 100 tools or 200 KB: VS Code takes at most 128 tools and Windsurf
	// 100; 200 KB of definitions is about 50,000 tokens of a model's
	// context), full otherwise.
	ToolModeAuto ToolMode = "auto"
)

// Listing is the shape of what tools/list returns. It changes what a
// model reads, never what a call may do: calls are validated the same way
// in every shape.
type Listing struct {
	// Mode chooses one tool per command or the search tools; "" means
	// ToolModeFull.
	Mode ToolMode
	// Expanded lists each tool in full (every flag in its schema, its whole
	// help) instead of the compact form, which states the flags shared by
	// every tool once (see Served.SharedFlags).
	Expanded bool
}

// listing is how a toolset lists its tools and routes a call to one: one
// tool per served command (fullListing) or the search, describe and run
// tools (searchMode). View chooses it once.
type listing interface {
	// mode is ToolModeFull or ToolModeSearch.
	mode() ToolMode
	// tools returns the definitions tools/list returns, sorted by name.
	tools() []*mcp.Tool
	// registered returns tools() as the server registers them, their
	// schemas encoded (see wireDefs).
	registered() []*mcp.Tool
	// call runs the call of the listed tool named name through s, or
	// returns false when the listing has no such tool.
	call(ctx context.Context, s *Served, name string, arguments json.RawMessage, o callOptions) (*mcp.CallToolResult, bool)
	// unknown is the error for a name the listing does not have.
	unknown(s *Served, name string, policyHint bool) error
}

// fullListing lists one tool per served command.
type fullListing struct {
	defs []*mcp.Tool // as listed, sorted by name
	wire *wireDefs   // defs encoded, made on first use
}

func newFullListing(defs []*mcp.Tool) fullListing {
	return fullListing{defs: defs, wire: &wireDefs{}}
}

func (fullListing) mode() ToolMode { return ToolModeFull }

func (l fullListing) tools() []*mcp.Tool { return l.defs }

func (l fullListing) registered() []*mcp.Tool {
	defs, _ := l.wire.get(l.defs)
	return defs
}

// bytes is the size of the listing as tools/list sends it.
func (l fullListing) bytes() int {
	_, n := l.wire.get(l.defs)
	return n
}

func (fullListing) call(ctx context.Context, s *Served, name string, arguments json.RawMessage, o callOptions) (*mcp.CallToolResult, bool) {
	t, ok := s.byName[name]
	if !ok {
		return nil, false
	}
	return s.call(ctx, t, arguments, o), true
}

func (fullListing) unknown(s *Served, name string, policyHint bool) error {
	return s.unknownTool(name, policyHint)
}
