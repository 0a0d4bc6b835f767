package toolset

import (
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/internal/toolmeta"
)

// What a tool says about itself: description, annotations (hints) and
// the tool record in _meta.

// description composes the tool description from the command's texts.
func description(c *cobra.Command, groups []string) string {
	var parts []string
	short, long := strings.TrimSpace(c.Short), strings.TrimSpace(c.Long)
	if short != "" {
		parts = append(parts, short)
	}
	if long != "" && long != short {
		parts = append(parts, long)
	}
	parts = append(parts, "Usage: "+c.UseLine())
	if len(groups) > 0 {
		parts = append(parts, strings.Join(groups, " "))
	}
	if ex := strings.TrimRight(c.Example, " \n"); strings.TrimSpace(ex) != "" {
		parts = append(parts, "Examples:\n"+ex)
	}
	return strings.Join(parts, "\n\n")
}

// meta is the tool record of a tool (seed 003): with a namespace, its id
// "namespace:name" and the namespace (without one the id is the tool's
// name, so it is not repeated: about 3 KB on kubectl's tools/list), the
// CLI's version and the tags from the command's cobra group (its own or
// its nearest ancestor's) and its mcp.tags annotation. It may be empty.
func (w *walker) meta(c *cobra.Command, name string) mcp.Meta {
	m := mcp.Meta{}
	if w.cfg.Namespace != "" {
		m["id"] = toolmeta.ToolID(w.cfg.Namespace, name)
		m["namespace"] = w.cfg.Namespace
	}
	if v := w.root.Version; v != "" {
		m["version"] = v
	}
	var raw []string
	for p := c; p != nil; p = p.Parent() {
		if p.GroupID != "" {
			raw = append(raw, p.GroupID)
			break
		}
	}
	if v := c.Annotations[toolmeta.AnnotationTags]; v != "" {
		raw = append(raw, strings.Split(v, ",")...)
	}
	if tags := toolmeta.NormalizeTags(raw); len(tags) > 0 {
		m["tags"] = tags
	}
	if len(m) == 0 {
		return nil
	}
	return m
}
