package external

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// TestLogNotes: a warm start does not warn again about what its reflection
// noted, and a note that is no problem is never a warning.
func TestLogNotes(t *testing.T) {
	notes := []string{
		"todo mcp: left out: cobramcp's own command group (the CLI serves MCP itself)",
		"todo get --x: left out: defined twice",
	}
	for _, tt := range []struct {
		cached bool
		warns  int
		info   string
	}{
		{false, 1, "own command group"},
		{true, 0, "notes=1"},
	} {
		var b bytes.Buffer
		logNotes(slog.New(slog.NewTextHandler(&b, &slog.HandlerOptions{Level: slog.LevelInfo})), notes, tt.cached)
		if n := strings.Count(b.String(), "level=WARN"); n != tt.warns || !strings.Contains(b.String(), tt.info) {
			t.Errorf("cached %v: %d warnings, want %d, and a line holding %q:\n%s", tt.cached, n, tt.warns, tt.info, &b)
		}
	}
}
