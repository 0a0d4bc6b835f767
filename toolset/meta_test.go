package toolset_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/toolset"
)

func TestToolRecordMeta(t *testing.T) {
	root := &cobra.Command{Use: "tt", Version: "2.0.1"}
	root.AddGroup(&cobra.Group{ID: "Basic Commands", Title: "Basic"})
	get := &cobra.Command{Use: "get", GroupID: "Basic Commands"}
	pods := &cobra.Command{Use: "pods", RunE: noop, Annotations: map[string]string{bridge.AnnotationTags: " K8s ,read only, k8s,,Ünïcode!"}}
	get.AddCommand(pods)
	plain := &cobra.Command{Use: "plain", RunE: noop}
	root.AddCommand(get, plain)

	ts := mustTools(t, root, &toolset.Config{Namespace: "acme"})
	tool, _ := ts.Lookup("tt_get_pods")
	m := tool.Definition().Meta
	if m["id"] != "acme:tt_get_pods" || m["namespace"] != "acme" || m["version"] != "2.0.1" {
		t.Errorf("meta = %v", m)
	}
	if tags := m["tags"].([]string); !slices.Equal(tags, []string{"basic-commands", "k8s", "read-only", "ncode"}) {
		t.Errorf("tags = %q", tags)
	}
	plainTool, _ := ts.Lookup("tt_plain")
	if _, ok := plainTool.Definition().Meta["tags"]; ok {
		t.Errorf("plain has tags: %v", plainTool.Definition().Meta)
	}
	// Without a namespace the id would be the name: it is not repeated.
	ts = mustTools(t, root, nil)
	if tl, _ := ts.Lookup("tt_plain"); len(tl.Definition().Meta) != 1 || tl.Definition().Meta["version"] != "2.0.1" {
		t.Errorf("meta without namespace = %v, want only the version", tl.Definition().Meta)
	}
	bare := &cobra.Command{Use: "bare"}
	bare.AddCommand(&cobra.Command{Use: "x", RunE: noop})
	if tl, _ := mustTools(t, bare, nil).Lookup("bare_x"); tl.Definition().Meta != nil {
		t.Errorf("meta of a tool with nothing to record = %v, want none", tl.Definition().Meta)
	}
}

func TestImageOutputBecomesImageContent(t *testing.T) {
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
	tests := []struct {
		stdout string
		mime   string
	}{
		{png, "image/png"},
		{"\xff\xd8\xff\xe0JFIF", "image/jpeg"},
		{"GIF89a....", "image/gif"},
		{"RIFF\x00\x00\x00\x00WEBPVP8 ", "image/webp"},
		{"<?xml version=\"1.0\"?>\n<!-- c -->\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>", "image/svg+xml"},
		{"plain text", ""},
		{"<html><svg/></html>", ""},
	}
	for _, tt := range tests {
		stdout := tt.stdout
		cfg := &toolset.Config{Middleware: []toolset.Middleware{func(toolset.RunFunc) toolset.RunFunc {
			return func(context.Context, *toolset.Call) (*execResult, error) { return &execResult{Stdout: stdout}, nil }
		}}}
		ts := mustTools(t, testTree(), cfg)
		res, err := fullView(ts).Call(context.Background(), "tt_version", json.RawMessage(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		img, isImg := res.Content[0].(*mcp.ImageContent)
		if isImg != (tt.mime != "") || (isImg && (img.MIMEType != tt.mime || string(img.Data) != stdout)) {
			t.Errorf("%q: content %#v, want mime %q", stdout, res.Content[0], tt.mime)
		}
		if out := res.StructuredContent.(toolset.Output); out.Stdout != stdout {
			t.Errorf("structured stdout %q", out.Stdout)
		}
	}
}

// A strict-mode client sends null for every optional member it leaves out,
// inside annotated object flags too; they mean "not given".
func TestNestedNullsAreNotGiven(t *testing.T) {
	var got map[string]any
	capture := func(toolset.RunFunc) toolset.RunFunc {
		return func(_ context.Context, c *toolset.Call) (*execResult, error) {
			got = c.Flags
			return &execResult{}, nil
		}
	}
	root := &cobra.Command{Use: "tt"}
	run := &cobra.Command{Use: "run", RunE: noop}
	run.Flags().String("overrides", "", "JSON overrides")
	_ = run.Flags().SetAnnotation("overrides", "jsonschema", []string{
		`{"type":"object","properties":{"image":{"type":"string"},"replicas":{"type":"integer"},"env":{"type":"array","items":{"type":"object","properties":{"k":{"type":"string"},"v":{"type":"string"}},"additionalProperties":false}}},"required":["image"],"additionalProperties":false}`})
	root.AddCommand(run)
	ts := mustTools(t, root, &toolset.Config{Middleware: []toolset.Middleware{capture}})
	res, err := fullView(ts).Call(context.Background(), "tt_run", json.RawMessage(
		`{"flags":{"overrides":{"image":"x","replicas":null,"env":[{"k":"a","v":null}]}},"args":null}`))
	if err != nil || res.IsError {
		t.Fatalf("refused: %v %s", err, resultText(res))
	}
	b, _ := json.Marshal(got)
	if string(b) != `{"overrides":{"env":[{"k":"a"}],"image":"x"}}` {
		t.Errorf("flags = %s", b)
	}
}

func TestArgsUsage(t *testing.T) {
	tests := []struct{ use, want string }{
		{"pods [NAME]", "[NAME]"},
		{"deployment NAME --replicas N", "NAME"},
		{"run NAME (--image IMAGE | --overrides JSON)", "NAME"},
		{"apply -f FILE", "(none named in the usage line)"},
		{"cp SRC [DST] [flags]", "SRC [DST]"},
		{"label pod NAME [KEY=VALUE] [--overwrite]", "pod NAME [KEY=VALUE]"},
		{"echo [ARGS...]", "[ARGS...]"},
		{"run [OPTIONS] IMAGE [COMMAND] [ARG...]", "IMAGE [COMMAND] [ARG...]"}, // docker's
	}
	for _, tt := range tests {
		if got := toolset.ArgsUsage(tt.use); got != tt.want {
			t.Errorf("argsUsage(%q) = %q, want %q", tt.use, got, tt.want)
		}
	}
}

func TestRequiredFlagNotServedLeavesCommandOut(t *testing.T) {
	root := testTree()
	cfg := &toolset.Config{Selectors: []toolset.Selector{{LocalFlag: bridge.ExcludeFlags("filename")}}}
	ts := mustTools(t, root, cfg)
	if _, ok := ts.Lookup("tt_apply"); ok {
		t.Error("tt_apply served without its required --filename")
	}
	found := false
	for _, p := range ts.Problems() {
		if p.Tool == "" && strings.Contains(p.String(), "required flag --filename is not served") {
			found = true
		}
	}
	if !found {
		t.Errorf("problems: %v", ts.Problems())
	}
	if _, ok := ts.Lookup("tt_get_pods"); !ok {
		t.Error("other tools were left out too")
	}
}
