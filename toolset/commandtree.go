package toolset

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
)

// commandNode is one word of the served commands' paths: a command served
// as a tool, a group holding served commands, or both.
type commandNode struct {
	name     string         // its word in the path
	path     string         // below the root, words separated by spaces
	cmd      *cobra.Command // the command of that path
	tool     *Tool          // the tool, when the command is served
	children []*commandNode // sorted by name
}

// commandTree returns the served tools as a tree under root: only the
// groups that hold a served command are in it, so nothing the policy
// leaves out is listed.
func commandTree(root *cobra.Command, tools []*Tool) *commandNode {
	top := &commandNode{cmd: root}
	for _, t := range tools {
		var chain []*cobra.Command
		for c := t.Command; c.HasParent(); c = c.Parent() {
			chain = append(chain, c)
		}
		slices.Reverse(chain)
		n := top
		for _, c := range chain {
			n = n.child(c)
		}
		n.tool = t
	}
	return top
}

// child returns the child of n for the command c, adding it if need be.
func (n *commandNode) child(c *cobra.Command) *commandNode {
	i, found := slices.BinarySearchFunc(n.children, c.Name(), func(x *commandNode, name string) int { return strings.Compare(x.name, name) })
	if found {
		return n.children[i]
	}
	p := c.Name()
	if n.path != "" {
		p = n.path + " " + p
	}
	ch := &commandNode{name: c.Name(), path: p, cmd: c}
	n.children = slices.Insert(n.children, i, ch)
	return ch
}

// find returns the node of path (words below the root), or nil.
func (n *commandNode) find(path []string) *commandNode {
	for _, w := range path {
		i, found := slices.BinarySearchFunc(n.children, w, func(x *commandNode, name string) int { return strings.Compare(x.name, name) })
		if !found {
			return nil
		}
		n = n.children[i]
	}
	return n
}

// listEntry is one command of a list answer.
type listEntry struct {
	Path    string `json:"path"`              // below the root
	Command string `json:"command,omitempty"` // its tool name, when it runs
	Summary string `json:"summary,omitempty"`
	// Subcommands are the words of the commands under it, the next level
	// down, so that one answer shows two levels.
	Subcommands []string `json:"subcommands,omitempty"`
}

// listOutput is the list tool's answer.
type listOutput struct {
	Group    string      `json:"group"`             // the group listed, as a person types it
	Command  string      `json:"command,omitempty"` // the group's own tool, when it runs too
	Commands []listEntry `json:"commands"`
	Next     string      `json:"next"`
}

func (m *searchMode) callList(arguments json.RawMessage) *mcp.CallToolResult {
	var in struct {
		Group *string `json:"group"`
	}
	if err := decodeMeta(arguments, &in); err != nil {
		return errorResult(fmt.Sprintf("%s: %v; want {} for the top-level commands or {\"group\": PATH}", m.list, err))
	}
	n := m.tree
	if in.Group != nil && strings.TrimSpace(*in.Group) != "" {
		if n = m.group(*in.Group); n == nil {
			return errorResult(fmt.Sprintf("%s: no served command or group %q; list the top level with {}, or find one with %s", m.list, *in.Group, m.searchName))
		}
	}
	out := listOutput{Group: strings.TrimSpace(m.cli + " " + n.path), Commands: []listEntry{}}
	if n.tool != nil && n != m.tree {
		out.Command = n.tool.Name
	}
	for _, ch := range n.children {
		e := listEntry{Path: ch.path, Summary: oneLine(ch.cmd.Short)}
		if ch.tool != nil {
			e.Command = ch.tool.Name
		}
		for _, g := range ch.children {
			e.Subcommands = append(e.Subcommands, g.name)
		}
		out.Commands = append(out.Commands, e)
	}
	out.Next = fmt.Sprintf("list a group with %s {\"group\": PATH}; call %s {\"command\": NAME or PATH} for a command's flags, then %s", m.list, m.describe, m.run)
	return jsonResult(out)
}

// group finds a node by its path (with or without the CLI's name in front)
// or by the tool name of its command.
func (m *searchMode) group(name string) *commandNode {
	if t, ok := m.byName[name]; ok {
		return m.tree.find(strings.Fields(relPath(t.Command)))
	}
	words := strings.Fields(name)
	if len(words) > 0 && words[0] == m.cli {
		if n := m.tree.find(words[1:]); n != nil {
			return n
		}
	}
	return m.tree.find(words)
}

// vocabulary names the top-level commands with the first words of what
// each does, so that a model can ask in the CLI's own words, in at most max
// bytes as JSON encodes them: the first commands with their words, the
// next by name, the rest counted.
func (m *searchMode) vocabulary(max int) string {
	const intro, end = " Top-level commands: ", "."
	size := func(s string) int {
		b, _ := json.Marshal(s)
		return len(b) - 2
	}
	room := max - size(intro) - size(end)
	var entries []string
	used := 0
	kids := m.tree.children
	for i, ch := range kids {
		more := fmt.Sprintf(", and %d more (%s)", len(kids)-i-1, m.list)
		full := ch.name
		if w := firstWords(ch.cmd.Short, 36); w != "" {
			full += " (" + w + ")"
		}
		sep := 0
		if i > 0 {
			sep = 2
		}
		// Keep room to say how many are left, unless this is the last.
		reserve := size(more)
		if i == len(kids)-1 {
			reserve = 0
		}
		switch {
		case used+sep+size(full)+reserve <= room*2/3 || i == len(kids)-1 && used+sep+size(full) <= room:
			entries = append(entries, full)
		case used+sep+size(ch.name)+reserve <= room:
			entries = append(entries, ch.name)
		default:
			if len(entries) == 0 {
				return ""
			}
			entries[len(entries)-1] += fmt.Sprintf(", and %d more (%s)", len(kids)-i, m.list)
			return intro + strings.Join(entries, ", ") + end
		}
		used += sep + size(entries[len(entries)-1])
	}
	if len(entries) == 0 {
		return ""
	}
	return intro + strings.Join(entries, ", ") + end
}

// firstWords is the start of s up to its first sentence's end, at most
// n bytes cut after a word, lower-cased at the start.
func firstWords(s string, n int) string {
	s = oneLine(s)
	if i := strings.IndexAny(s, ".;:("); i >= 0 {
		s = s[:i]
	}
	if len(s) > n {
		s = s[:n]
		if i := strings.LastIndexByte(s, ' '); i > 0 {
			s = s[:i]
		}
		// A cut phrase does not end on a word that leads to the next.
		for {
			i := strings.LastIndexByte(s, ' ')
			if i < 0 || !slices.Contains([]string{"a", "an", "the", "of", "from", "to", "in", "on", "and", "or", "for", "with", "by"}, strings.ToLower(s[i+1:])) {
				break
			}
			s = s[:i]
		}
	}
	s = strings.TrimRight(s, ", ")
	s = strings.TrimSpace(s)
	if len(s) > 1 && s[1] >= 'a' && s[1] <= 'z' {
		s = strings.ToLower(s[:1]) + s[1:]
	}
	return s
}
