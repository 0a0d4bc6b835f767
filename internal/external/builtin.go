package external

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// builtinOverlays are the overlays cobramcp ships, one per CLI, named
// after its root command (overlays/kubectl.json).
//
//go:embed overlays/*.json
var builtinOverlays embed.FS

// BuiltinOverlay returns the overlay cobramcp ships for the CLI whose root
// command is name (kubectl: read-only, idempotent and destructive hints,
// and the interactive commands left out), or nil when there is none. Its
// names that match nothing in the binary reflected (another version of
// the CLI) are noted and skipped, not an error.
func BuiltinOverlay(name string) (*Overlay, error) {
	b, err := builtinOverlays.ReadFile(path.Join("overlays", name+".json"))
	if errors.Is(err, fs.ErrNotExist) || strings.ContainsAny(name, `/\`) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	o, err := ParseOverlay(b)
	if err != nil {
		return nil, fmt.Errorf("built-in overlay for %s: %w", name, err)
	}
	o.builtin = name
	return o, nil
}

// BuiltinOverlays lists the CLIs that cobramcp ships an overlay for.
func BuiltinOverlays() []string {
	entries, _ := builtinOverlays.ReadDir("overlays")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".json"))
	}
	sort.Strings(names)
	return names
}
