package toolset_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/internal/flagschema"
	"github.com/cobramcp/cobramcp/toolset"
)

// A jsonschema annotation without a type never drops its command: the
// flag's schema is completed from its type, and the log says so.
func TestTypelessAnnotationKeepsTheTool(t *testing.T) {
	tests := []struct {
		name   string
		define func(c *cobra.Command)
		schema string
		want   string // the flag's schema
	}{
		{"bounds on an int flag", func(c *cobra.Command) { c.Flags().Int("x", 0, "count") },
			`{"minimum":1,"maximum":5}`, `{"type":"integer","description":"count","minimum":1,"maximum":5}`},
		{"an enum on an int flag", func(c *cobra.Command) { c.Flags().Int("x", 0, "count") },
			`{"enum":[1,2]}`, `{"type":"integer","description":"count","enum":[1,2]}`},
		{"a length on a string flag", func(c *cobra.Command) { c.Flags().String("x", "", "name") },
			`{"minLength":2}`, `{"type":["array","boolean","null","number","object","string"],"description":"name","minLength":2}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := &cobra.Command{Use: "app"}
			run := &cobra.Command{Use: "run", Run: func(*cobra.Command, []string) {}}
			tt.define(run)
			if err := run.Flags().SetAnnotation("x", flagschema.Annotation, []string{tt.schema}); err != nil {
				t.Fatal(err)
			}
			root.AddCommand(run)
			var log bytes.Buffer
			ts := mustTools(t, root, &toolset.Config{Logger: slog.New(slog.NewTextHandler(&log, nil))})
			tool, ok := ts.Lookup("app_run")
			if !ok {
				t.Fatalf("app_run left out; problems %v; log:\n%s", ts.Problems(), log.String())
			}
			if p := ts.Problems(); len(p) != 0 {
				t.Errorf("problems: %v", p)
			}
			in, err := json.Marshal(toolset.Compact(tool).InputSchema)
			if err != nil {
				t.Fatal(err)
			}
			var schema struct {
				Properties struct {
					Flags struct {
						Properties map[string]json.RawMessage `json:"properties"`
					} `json:"flags"`
				} `json:"properties"`
			}
			if err := json.Unmarshal(in, &schema); err != nil {
				t.Fatal(err)
			}
			if got := string(schema.Properties.Flags.Properties["x"]); got != tt.want {
				t.Errorf("flag schema\n got %s\nwant %s", got, tt.want)
			}
			if !strings.Contains(log.String(), "completed") {
				t.Errorf("log does not say the annotation was completed; log:\n%s", log.String())
			}
		})
	}
}

// A jsonschema annotation that is refused leaves the flag its generated
// schema and the tool listed; the log says the annotation was ignored,
// not that anything was left out.
func TestRefusedAnnotationKeepsTheTool(t *testing.T) {
	root := &cobra.Command{Use: "app"}
	run := &cobra.Command{Use: "run", Run: func(*cobra.Command, []string) {}}
	run.Flags().Int("x", 0, "count")
	if err := run.Flags().SetAnnotation("x", flagschema.Annotation, []string{`{"type":`}); err != nil {
		t.Fatal(err)
	}
	root.AddCommand(run)
	var log bytes.Buffer
	ts := mustTools(t, root, &toolset.Config{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if _, ok := ts.Lookup("app_run"); !ok {
		t.Fatalf("app_run left out; log:\n%s", log.String())
	}
	text := log.String()
	if strings.Contains(text, "left out") || !strings.Contains(text, "annotation ignored") || !strings.Contains(text, "--x") || !strings.Contains(text, "served with the schema of its type") {
		t.Errorf("log:\n%s", text)
	}
}
