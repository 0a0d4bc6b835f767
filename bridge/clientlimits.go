package bridge

import (
	"fmt"
	"slices"

	"github.com/cobramcp/cobramcp/toolset"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/internal/clientcfg"
)

// clientLimits is what one MCP client accepts of a server's tools, from
// the sources named (see docs/clients.md). Zero means no known limit.
type clientLimits struct {
	// MaxTools is how many tools the client takes in all.
	MaxTools int
	// MaxName is the longest tool name, counting Prefix.
	MaxName int
	// Prefix is what the client puts before a tool name of the server
	// named server, counted in MaxName.
	Prefix func(server string) string
	// Defers is set when the client loads tool definitions on demand
	// (tool search) instead of sending every one to the model: the full
	// listing fits it whatever its size.
	Defers bool
}

// limitsOf returns the known limits of the client cl.
func limitsOf(cl clientcfg.Client) clientLimits {
	switch cl.ID {
	case "claude-code": // anthropics/claude-code #19770, #22276; tool search on by default
		return clientLimits{MaxName: 64, Prefix: func(s string) string { return "mcp__" + s + "__" }, Defers: true}
	case "claude": // 64-character names
		return clientLimits{MaxName: 64}
	case "vscode": // microsoft/vscode-copilot-release #11653; microsoft/vscode #243602
		return clientLimits{MaxTools: 128, MaxName: 64}
	case "cursor": // Cursor docs (40 tools); ComposioHQ/composio #2788, awslabs/mcp #1283 (server + tool <= 60)
		return clientLimits{MaxTools: 40, MaxName: 60, Prefix: func(s string) string { return s }}
	case "windsurf": // Windsurf docs, Cascade MCP page: 100 tools in total
		return clientLimits{MaxTools: 100}
	}
	return clientLimits{}
}

// planStart checks the arguments written for `mcp start` (extra, the
// arguments after --) and completes them for the client cl: the flags
// given to the CLI itself before the mcp group become --set pins, and,
// unless extra chooses --tool-mode, the mode that fits the client: full
// for a client that defers tool definitions (Claude Code), search when the
// served tools exceed the client's count. It returns the arguments to
// add, and notes for the user: the mode it chose and why, and warnings
// when the served tools exceed the client's count or a tool name with the
// client's prefix exceeds its name limit. A policy naming what does not
// exist is an error now rather than when the client starts the server.
func planStart(o *Options, c *cobra.Command, cl clientcfg.Client, server string, extra []string) (more, notes []string, err error) {
	start := o.start
	if start == nil {
		return nil, nil, nil
	}
	if err := start.ParseFlags(extra); err != nil {
		return nil, nil, fmt.Errorf("arguments for mcp start %q: %w", extra, err)
	}
	if err := start.ValidateArgs(start.Flags().Args()); err != nil {
		return nil, nil, fmt.Errorf("arguments for mcp start %q: %w", extra, err)
	}
	pol, err := readPolicy(start.Flags(), serverName(o, c), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("arguments for mcp start %q: %w", extra, err)
	}
	pre, err := flagsBeforeGroup(c, o.group)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range pre {
		more = append(more, "--"+flagSet+"="+p.Flag+"="+p.Value)
	}
	pol.Pins = append(pre, pol.Pins...)
	if err := checkPins(pol.Pins); err != nil {
		return nil, nil, err
	}
	if o.Tree == nil {
		return more, nil, nil
	}
	ts, err := o.load(c)
	if err != nil {
		return nil, nil, err
	}
	lim := limitsOf(cl)
	if !start.Flags().Changed(flagToolMode) {
		full := pol
		full.Mode = toolset.ToolModeFull
		fv, err := withPolicy(ts, full, start.Flags(), serverName(o, c), nil)
		if err != nil {
			return nil, nil, fmt.Errorf("arguments for mcp start %q: %w", extra, err)
		}
		n := len(fv.Tools())
		switch {
		case lim.Defers:
			pol.Mode = toolset.ToolModeFull
			notes = append(notes, fmt.Sprintf("Tool mode: full (%d tools): %s loads tool definitions on demand.", n, cl.Name))
		case lim.MaxTools > 0 && n > lim.MaxTools:
			pol.Mode = toolset.ToolModeSearch
			notes = append(notes, fmt.Sprintf("Tool mode: search: %s takes at most %d tools and this server has %d; the model finds them with %s's search tool.", cl.Name, lim.MaxTools, n, c.Root().Name()))
		}
		if pol.Mode != toolset.ToolModeAuto {
			more = append(more, "--"+flagToolMode+"="+string(pol.Mode))
		}
	}
	v, err := withPolicy(ts, pol, start.Flags(), serverName(o, c), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("arguments for mcp start %q: %w", extra, err)
	}
	return more, append(notes, limitWarnings(cl, lim, server, v.Tools())...), nil
}

// limitWarnings says where the tools exceed the client's limits, and what
// to do about it.
func limitWarnings(cl clientcfg.Client, lim clientLimits, server string, tools []*mcp.Tool) []string {
	var out []string
	if lim.MaxTools > 0 && len(tools) > lim.MaxTools {
		out = append(out, fmt.Sprintf("Warning: %s takes at most %d tools and this server lists %d: pass --tool-mode search after --, or serve fewer with --tools/--exclude-tools PATTERN.", cl.Name, lim.MaxTools, len(tools)))
	}
	if lim.MaxName > 0 {
		prefix := ""
		if lim.Prefix != nil {
			prefix = lim.Prefix(server)
		}
		var long []string
		for _, t := range tools {
			if len(prefix)+len(t.Name) > lim.MaxName {
				long = append(long, t.Name)
			}
		}
		if len(long) > 0 {
			slices.SortFunc(long, func(a, b string) int { return len(b) - len(a) })
			ex := long[0]
			what := "a tool name"
			if prefix != "" {
				what = fmt.Sprintf("%q plus a tool name", prefix)
			}
			out = append(out, fmt.Sprintf("Warning: %s takes names of at most %d characters (%s); %d tool(s) are longer, e.g. %s (%d): pick a shorter --server-name, pass --tool-mode search after --, or leave them out with --exclude-tools.",
				cl.Name, lim.MaxName, what, len(long), ex, len(prefix)+len(ex)))
		}
	}
	return out
}
