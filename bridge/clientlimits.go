package bridge

import (
	"fmt"
	"slices"

	"github.com/cobramcp/cobramcp/toolset"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/internal/clientcfg"
)

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
	if !start.Flags().Changed(flagToolMode) {
		full := pol
		full.Mode = toolset.ToolModeFull
		fv, err := withPolicy(ts, full, start.Flags(), serverName(o, c), nil)
		if err != nil {
			return nil, nil, fmt.Errorf("arguments for mcp start %q: %w", extra, err)
		}
		n := len(fv.Tools())
		switch {
		case cl.Defers:
			pol.Mode = toolset.ToolModeFull
			notes = append(notes, fmt.Sprintf("Tool mode: full (%d tools): %s loads tool definitions on demand.", n, cl.Name))
		case cl.MaxTools > 0 && n > cl.MaxTools:
			pol.Mode = toolset.ToolModeSearch
			notes = append(notes, fmt.Sprintf("Tool mode: search: %s takes at most %d tools and this server has %d; the model finds them with %s's search tool.", cl.Name, cl.MaxTools, n, c.Root().Name()))
		}
		if pol.Mode != toolset.ToolModeAuto {
			more = append(more, "--"+flagToolMode+"="+string(pol.Mode))
		}
	}
	v, err := withPolicy(ts, pol, start.Flags(), serverName(o, c), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("arguments for mcp start %q: %w", extra, err)
	}
	return more, append(notes, limitWarnings(cl, server, v.Tools())...), nil
}

// limitWarnings says where the tools exceed the client's limits, and what
// to do about it.
func limitWarnings(cl clientcfg.Client, server string, tools []*mcp.Tool) []string {
	var out []string
	if cl.MaxTools > 0 && len(tools) > cl.MaxTools {
		out = append(out, fmt.Sprintf("Warning: %s takes at most %d tools and this server lists %d: pass --tool-mode search after --, or serve fewer with --tools/--exclude-tools PATTERN.", cl.Name, cl.MaxTools, len(tools)))
	}
	if cl.MaxName > 0 {
		prefix := ""
		if cl.Prefix != nil {
			prefix = cl.Prefix(server)
		}
		var long []string
		for _, t := range tools {
			if len(prefix)+len(t.Name) > cl.MaxName {
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
				cl.Name, cl.MaxName, what, len(long), ex, len(prefix)+len(ex)))
		}
	}
	return out
}
