package realcli

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/toolset"
)

// fullView is the view of every tool of ts in the default listing (full,
// compact), as a server without a policy serves them.
func fullView(ts *toolset.Toolset) *toolset.Served {
	v, err := ts.View(toolset.Listing{})
	if err != nil {
		panic(err)
	}
	return v
}

// lookup returns the tool of v named name (as defined).
func lookup(v *toolset.Served, name string) (*toolset.Tool, bool) {
	for _, t := range v.List() {
		if t.Name == name {
			return t, true
		}
	}
	return nil, false
}

// toolNames returns the names of tools, as listed.
func toolNames(tools []*mcp.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}
