package toolset

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/cobramcp/cobramcp/internal/toolmeta"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
)

// The command annotations the walk reads: ours (mcp.*), and Ophis's keys
// (github.com/njayp/ophis) as aliases of our hint keys, so that a CLI can
// switch from Ophis without rewriting its annotations. When both are set
// ours win. A key of our namespace that is not one of ours, a value that
// is not a boolean, and an alias overridden by a different value are
// reported as problems; the command is served all the same.

// ophisAlias maps each Ophis annotation key to the key of ours it stands for.
var ophisAlias = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"title":           toolmeta.AnnotationTitle,
		"readOnlyHint":    toolmeta.AnnotationReadOnly,
		"destructiveHint": toolmeta.AnnotationDestructive,
		"idempotentHint":  toolmeta.AnnotationIdempotent,
		"openWorldHint":   toolmeta.AnnotationOpenWorld,
	}
})

// knownKeys are the command annotation keys of our namespace, sorted.
var knownKeys = []string{
	toolmeta.AnnotationDestructive, toolmeta.AnnotationIdempotent, toolmeta.AnnotationOpenWorld,
	toolmeta.AnnotationReadOnly, toolmeta.AnnotationTags, toolmeta.AnnotationTimeout, toolmeta.AnnotationTitle,
}

// annotations returns the tool's hints from c's annotations (nil when none
// is set), and what it ignored, one error each, in a stable order.
func annotations(c *cobra.Command) (*mcp.ToolAnnotations, []error) {
	var errs []error
	keys := make([]string, 0, len(c.Annotations))
	for k := range c.Annotations {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if err := unknownKey(k); err != nil {
			errs = append(errs, err)
		}
	}

	a := &mcp.ToolAnnotations{}
	set := false
	title, err := stringAnnotation(c, toolmeta.AnnotationTitle)
	if err != nil {
		errs = append(errs, err)
	}
	if title != "" {
		a.Title, set = title, true
	}
	idempotentSet := false
	for _, h := range []struct {
		key string
		set func(bool)
	}{
		{toolmeta.AnnotationReadOnly, func(b bool) { a.ReadOnlyHint = b }},
		{toolmeta.AnnotationDestructive, func(b bool) { a.DestructiveHint = &b }},
		{toolmeta.AnnotationIdempotent, func(b bool) { a.IdempotentHint, idempotentSet = b, true }},
		{toolmeta.AnnotationOpenWorld, func(b bool) { a.OpenWorldHint = &b }},
	} {
		b, ok, es := boolAnnotation(c, h.key)
		errs = append(errs, es...)
		if ok {
			h.set(b)
			set = true
		}
	}
	if !set {
		return nil, errs
	}
	// The go-sdk writes idempotentHint always, false when unset; MCP gives
	// it meaning only for a tool that is not read-only, and a call that
	// changes nothing has no further effect when repeated: a read-only
	// tool is idempotent unless its author says otherwise.
	if a.ReadOnlyHint && !idempotentSet {
		a.IdempotentHint = true
	}
	return a, errs
}

// aliasOf returns Ophis's key for our key, or "".
func aliasOf(key string) string {
	for alias, k := range ophisAlias() {
		if k == key {
			return alias
		}
	}
	return ""
}

// stringAnnotation returns the value of key, or of its Ophis alias when key
// is not set; the error reports an alias overridden by a different value
// (the returned value is then ours).
func stringAnnotation(c *cobra.Command, key string) (string, error) {
	v, ok := c.Annotations[key]
	alias := aliasOf(key)
	av, aok := c.Annotations[alias]
	switch {
	case ok && aok && av != v:
		return v, overridden(alias, av, key, v)
	case ok:
		return v, nil
	}
	return av, nil
}

// boolAnnotation returns the boolean value of key, or of its Ophis alias
// when key is not set or not a boolean, and whether either gave one; the
// errors report values that are not booleans and an alias overridden by a
// different value.
func boolAnnotation(c *cobra.Command, key string) (value, ok bool, errs []error) {
	read := func(k string) (bool, bool) {
		v, set := c.Annotations[k]
		if !set {
			return false, false
		}
		b, valid := parseBool(v)
		if !valid {
			errs = append(errs, fmt.Errorf("annotation %s=%q is ignored: not a boolean (want true or false)", k, v))
		}
		return b, valid
	}
	alias := aliasOf(key)
	b, ok := read(key)
	ab, aok := read(alias)
	switch {
	case ok && aok && ab != b:
		errs = append(errs, overridden(alias, c.Annotations[alias], key, c.Annotations[key]))
		return b, true, errs
	case ok:
		return b, true, errs
	}
	return ab, aok, errs
}

func overridden(alias, av, key, v string) error {
	return fmt.Errorf("annotation %s=%q (Ophis's key) is ignored: %s=%q is set too", alias, av, key, v)
}

// parseBool reads the spellings of strconv.ParseBool (which Ophis uses) and
// yes/no, in any case.
func parseBool(v string) (value, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "t", "1", "yes":
		return true, true
	case "false", "f", "0", "no":
		return false, true
	}
	return false, false
}

// unknownKey reports a key of our namespace (mcp.*, in any case) that is not
// one of ours, and a key that differs from one of Ophis's only in case,
// with the key meant when one is close.
func unknownKey(k string) error {
	lower := strings.ToLower(k)
	if !strings.HasPrefix(lower, "mcp.") {
		for alias := range ophisAlias() {
			if lower == strings.ToLower(alias) && k != alias {
				return fmt.Errorf("annotation key %s is not read; did you mean %s?", k, alias)
			}
		}
		return nil
	}
	if slices.Contains(knownKeys, k) {
		return nil
	}
	best, dist := "", 3 // suggest only within two edits
	for _, known := range knownKeys {
		kl := strings.ToLower(known)
		for _, d := range []int{editDistance(lower, kl), editDistance(lower+"hint", kl)} {
			if d < dist {
				best, dist = known, d
			}
		}
	}
	if best != "" {
		return fmt.Errorf("annotation key %s is unknown and ignored; did you mean %s?", k, best)
	}
	return fmt.Errorf("annotation key %s is unknown and ignored; known keys: %s", k, strings.Join(knownKeys, ", "))
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
