package toolset_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/cobramcp/cobramcp/toolset"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
)

// TestAnnotationKeys checks the command annotations the walk reads: ours
// (mcp.*), Ophis's as aliases (ours win), and that a typo in a key or a
// value is reported as a problem while the command is still served.
func TestAnnotationKeys(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name     string
		ann      map[string]string
		want     *mcp.ToolAnnotations
		problems []string // substrings, one problem each, in order
	}{
		{"ours", map[string]string{"mcp.title": "T", "mcp.readOnlyHint": "true", "mcp.destructiveHint": "false", "mcp.idempotentHint": "yes", "mcp.openWorldHint": "0"},
			&mcp.ToolAnnotations{Title: "T", ReadOnlyHint: true, DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &no}, nil},
		{"Ophis's keys", map[string]string{"title": "T", "readOnlyHint": "true", "destructiveHint": "F", "idempotentHint": "1", "openWorldHint": "t"},
			&mcp.ToolAnnotations{Title: "T", ReadOnlyHint: true, DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &yes}, nil},
		{"strconv.ParseBool's spellings", map[string]string{"mcp.readOnlyHint": "TRUE", "mcp.openWorldHint": "False"},
			&mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no}, nil},
		{"both keys, same value", map[string]string{"mcp.readOnlyHint": "true", "readOnlyHint": "1"},
			&mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}, nil},
		{"read-only is idempotent unless the author says otherwise", map[string]string{"mcp.readOnlyHint": "true", "mcp.idempotentHint": "false"},
			&mcp.ToolAnnotations{ReadOnlyHint: true}, nil},
		{"both keys, ours win", map[string]string{"mcp.readOnlyHint": "true", "readOnlyHint": "false", "mcp.title": "Ours", "title": "Theirs"},
			&mcp.ToolAnnotations{Title: "Ours", ReadOnlyHint: true, IdempotentHint: true},
			[]string{`annotation title="Theirs" (Ophis's key) is ignored: mcp.title="Ours" is set too`,
				`annotation readOnlyHint="false" (Ophis's key) is ignored: mcp.readOnlyHint="true" is set too`}},
		{"invalid value", map[string]string{"mcp.readOnlyHint": "ture", "mcp.title": "T"},
			&mcp.ToolAnnotations{Title: "T"},
			[]string{`annotation mcp.readOnlyHint="ture" is ignored: not a boolean (want true or false)`}},
		{"invalid value of Ophis's key", map[string]string{"openWorldHint": "maybe"},
			nil, []string{`annotation openWorldHint="maybe" is ignored: not a boolean`}},
		{"invalid ours, valid Ophis's", map[string]string{"mcp.readOnlyHint": "ture", "readOnlyHint": "true"},
			&mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
			[]string{`annotation mcp.readOnlyHint="ture" is ignored: not a boolean`}},
		{"unknown key, close", map[string]string{"mcp.readonlyHint": "true"},
			nil, []string{`annotation key mcp.readonlyHint is unknown and ignored; did you mean mcp.readOnlyHint?`}},
		{"unknown key, a letter off", map[string]string{"mcp.destructivHint": "true"},
			nil, []string{`did you mean mcp.destructiveHint?`}},
		{"unknown key, Ophis's key without the prefix", map[string]string{"mcp.readOnly": "true"},
			nil, []string{`did you mean mcp.readOnlyHint?`}},
		{"unknown key, far", map[string]string{"mcp.frobnicate": "x"},
			nil, []string{`annotation key mcp.frobnicate is unknown and ignored; known keys: mcp.destructiveHint, `}},
		{"Ophis's key in the wrong case", map[string]string{"readonlyhint": "true"},
			nil, []string{`annotation key readonlyhint is not read; did you mean readOnlyHint?`}},
		{"other keys are not ours", map[string]string{"custom": "x", "cobra_annotation_command_display_name": "y", "readOnly": "true"},
			nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := &cobra.Command{Use: "an"}
			root.AddCommand(&cobra.Command{Use: "x", RunE: noop, Annotations: tt.ann})
			var log bytes.Buffer
			ts := mustTools(t, root, &toolset.Config{Logger: slog.New(slog.NewTextHandler(&log, nil))})
			tool, ok := ts.Lookup("an_x")
			if !ok {
				t.Fatalf("an_x is not served; problems %v", ts.Problems())
			}
			if got := tool.Definition().Annotations; !sameAnnotations(got, tt.want) {
				t.Errorf("annotations = %s, want %s", fmtAnnotations(got), fmtAnnotations(tt.want))
			}
			if tt.want != nil && tool.Definition().Title != tt.want.Title {
				t.Errorf("title = %q, want %q", tool.Definition().Title, tt.want.Title)
			}
			ps := ts.Problems()
			if len(ps) != len(tt.problems) {
				t.Fatalf("problems = %v, want %d: %q", ps, len(tt.problems), tt.problems)
			}
			for i, want := range tt.problems {
				if p := ps[i]; p.Command != "an x" || p.Tool != "an_x" || !strings.Contains(p.Err.Error(), want) {
					t.Errorf("problem %d = %q (command %q, tool %q), want one of an x (tool an_x) containing %q", i, p.String(), p.Command, p.Tool, want)
				}
				if !strings.Contains(log.String(), "annotation ignored") || !strings.Contains(log.String(), p(want)) {
					t.Errorf("problem %d not logged as a warning: %s", i, log.String())
				}
			}
		})
	}
}

// p returns s as a slog text handler quotes it inside a value.
func p(s string) string { return strings.ReplaceAll(s, `"`, `\"`) }

func sameAnnotations(a, b *mcp.ToolAnnotations) bool { return fmtAnnotations(a) == fmtAnnotations(b) }

func fmtAnnotations(a *mcp.ToolAnnotations) string {
	if a == nil {
		return "nil"
	}
	ptr := func(b *bool) string {
		if b == nil {
			return "unset"
		}
		if *b {
			return "true"
		}
		return "false"
	}
	var s strings.Builder
	s.WriteString("{title " + a.Title)
	s.WriteString(" readOnly " + ptr(&a.ReadOnlyHint))
	s.WriteString(" idempotent " + ptr(&a.IdempotentHint))
	s.WriteString(" destructive " + ptr(a.DestructiveHint))
	s.WriteString(" openWorld " + ptr(a.OpenWorldHint) + "}")
	return s.String()
}
