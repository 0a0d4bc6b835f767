package toolset

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/spf13/cobra"
)

// Naming: how a command's path becomes a tool name.

// toolName derives the name of the tool for c: the command path joined
// with "_", the root's name replaced by the prefix, characters outside
// [a-zA-Z0-9_-] mapped to "_", and names over maxNameLen shortened with a
// hash of the full name so that they stay distinct.
func (w *walker) toolName(c *cobra.Command) string {
	first := w.root.Name()
	if w.cfg.ToolPrefix != "" {
		first = w.cfg.ToolPrefix
	}
	parts := []string{first}
	if rp := relPath(c); rp != "" {
		parts = append(parts, strings.Split(rp, " ")...)
	}
	return toolName(strings.Join(parts, "_"))
}

// toolName maps s to a valid tool name: characters outside [a-zA-Z0-9_-]
// become "_", and a name longer than maxNameLen keeps its first 55
// characters followed by "_" and 8 hex digits of the SHA-256 of s.
func toolName(s string) string {
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, s)
	if name == "" {
		name = "_"
	}
	if len(name) > maxNameLen {
		sum := sha256.Sum256([]byte(s))
		name = name[:maxNameLen-9] + "_" + hex.EncodeToString(sum[:4])
	}
	return name
}
