package dialect

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cobramcp/cobramcp/internal/toolmeta"
)

// Tag limits.
const (
	MaxTagLen = toolmeta.MaxTagLen // bytes in one normalised tag
	MaxTags   = toolmeta.MaxTags   // tags kept by NormalizeTags
)

// NormalizeTags returns tags in a stable, searchable form: each tag
// lower-cased and trimmed, every run of white space turned into one "-",
// every character outside [a-z0-9-_.] removed, and cut to 64 characters;
// empty tags and repeats are dropped (the first occurrence keeps its
// place), and at most 20 tags are kept. The result is never nil.
func NormalizeTags(raw []string) []string { return toolmeta.NormalizeTags(raw) }

// ToolID returns the stable id of a tool: "namespace:name", or name alone
// when namespace is empty.
func ToolID(namespace, name string) string { return toolmeta.ToolID(namespace, name) }

// ParseToolID splits an id made by ToolID. An id holds at most one ":",
// and when it holds one, both sides must be non-empty.
func ParseToolID(id string) (namespace, name string, err error) {
	switch strings.Count(id, ":") {
	case 0:
		if id == "" {
			return "", "", errors.New("empty tool id")
		}
		return "", id, nil
	case 1:
		namespace, name, _ = strings.Cut(id, ":")
		if namespace == "" || name == "" {
			return "", "", fmt.Errorf("tool id %q: namespace and name must both be non-empty", id)
		}
		return namespace, name, nil
	}
	return "", "", fmt.Errorf("tool id %q holds more than one \":\"", id)
}
