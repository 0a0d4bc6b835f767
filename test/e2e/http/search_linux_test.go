package httpe2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSearchModeOverHTTP: `mcp stream` serves the search-mode listing that
// `mcp tools` exports with the same policy, and run over HTTP gives what
// `mcp call` gives; the policy holds at call time.
func TestSearchModeOverHTTP(t *testing.T) {
	policy := []string{"--tool-mode", "search", "--read-only"}
	s := startServer(t, []string{"MYCLI_MCP_TOKEN=" + testToken}, policy...)
	cs := mustConnect(t, s, testToken)
	ctx := context.Background()

	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(res.Tools)
	want := runMycli(t, append([]string{"mcp", "tools", "-o", "-"}, policy...)...)
	if !jsonEqual(t, got, want) || len(res.Tools) != 4 || len(got) > 4096 {
		t.Errorf("search-mode tools/list over HTTP (%d bytes):\n%s\nthe export:\n%s", len(got), got, want)
	}
	for _, tool := range res.Tools {
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s is not read-only though --read-only serves only read-only commands", tool.Name)
		}
	}

	args := `{"command":"mycli_echo","args":["--x"],"flags":{"str":"s"}}`
	call, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_run_command", Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatal(err)
	}
	gotCall, _ := json.Marshal(struct {
		Content           []mcp.Content `json:"content"`
		StructuredContent any           `json:"structuredContent,omitempty"`
		IsError           bool          `json:"isError,omitempty"`
	}{call.Content, call.StructuredContent, call.IsError})
	wantCall := runMycli(t, append(append([]string{"mcp", "call"}, policy...), "mycli_run_command", args)...)
	if !jsonEqual(t, gotCall, wantCall) || call.IsError {
		t.Errorf("run over HTTP:\n%s\nmcp call:\n%s", gotCall, wantCall)
	}

	call, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_run_command", Arguments: json.RawMessage(`{"command":"mycli_delete_pod","args":["p"]}`)})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(call.Content); !call.IsError || !strings.Contains(string(b), "Nothing was run") {
		t.Errorf("run of a write command under --read-only: %s", b)
	}
}
