package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// confirmSummary is the line test/node/confirm-client.mjs prints.
type confirmSummary struct {
	Asked []struct {
		Message string `json:"message"`
		Mode    string `json:"mode"`
	} `json:"asked"`
	IsError bool     `json:"isError"`
	Text    string   `json:"text"`
	Before  []string `json:"before"`
	After   []string `json:"after"`
}

// TestConfirmTypeScriptClient runs the official TypeScript SDK client
// (test/node/confirm-client.mjs) against mycli mcp start with
// confirmation asked: the person's accept runs the command (the pod is
// gone), a decline or a cancel runs nothing and says so, and a client
// without elicitation is refused with the reason; in search mode the run
// tool asks before the command it would run; pinned values are hidden in
// what the person is shown.
func TestConfirmTypeScriptClient(t *testing.T) {
	t.Parallel()
	nodeModules(t)
	const pod = "pod/web-7f9c4d-abc12"
	del := `{"args":["web-7f9c4d-abc12"]}`
	tests := []struct {
		name, answer, tool, args string
		start                    []string
		ran                      bool
		says                     string // in the result's text
		shown                    string // in the question asked
	}{
		{"accept", "accept", "mycli_delete_pod", del, []string{"--confirm-destructive"}, true, "", "mycli delete pod web-7f9c4d-abc12"},
		{"decline", "decline", "mycli_delete_pod", del, []string{"--confirm-destructive"}, false, "the person declined to run `mycli delete pod web-7f9c4d-abc12`. Nothing was run.", "mycli delete pod"},
		{"cancel", "cancel", "mycli_delete_pod", del, []string{"--confirm", "mycli_delete_*"}, false, "cancelled the confirmation", "mycli delete pod"},
		{"no elicitation", "none", "mycli_delete_pod", del, []string{"--confirm-destructive"}, false, "this client does not offer elicitation", ""},
		{"search mode accept", "accept", "mycli_run_command", `{"command":"mycli_delete_pod","args":["web-7f9c4d-abc12"]}`,
			[]string{"--tool-mode", "search", "--confirm", "mycli_delete_pod"}, true, "", "mycli delete pod web-7f9c4d-abc12"},
		{"search mode decline", "decline", "mycli_run_command", `{"command":"mycli_delete_pod","args":["web-7f9c4d-abc12"]}`,
			[]string{"--tool-mode", "search", "--confirm-destructive"}, false, "declined", "mycli delete pod"},
		{"pinned value hidden", "accept", "mycli_delete_pod", del, []string{"--confirm-destructive", "--set", "kubeconfig=/secret/path"}, true, "", "--kubeconfig=*** "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, nodeBin(t), append([]string{"confirm-client.mjs", mycliBin, tt.answer, tt.tool, tt.args}, tt.start...)...)
			cmd.Dir = nodeDir
			cmd.Env = append(os.Environ(), "MYCLI_STATE="+filepath.Join(t.TempDir(), "state.json"))
			var o, e bytes.Buffer
			cmd.Stdout, cmd.Stderr = &o, &e
			if err := cmd.Run(); err != nil {
				t.Fatalf("confirm-client.mjs: %v\nstdout:\n%s\nstderr:\n%s", err, o.String(), e.String())
			}
			var sum confirmSummary
			if err := json.Unmarshal(bytes.TrimSpace(o.Bytes()), &sum); err != nil {
				t.Fatalf("summary %q: %v\nstderr:\n%s", o.String(), err, e.String())
			}
			if !slices.Contains(sum.Before, pod) {
				t.Fatalf("the pod is not there to begin with: %q", sum.Before)
			}
			if gone := !slices.Contains(sum.After, pod); gone != tt.ran {
				t.Errorf("pod deleted: %v, want %v (pods after: %q; result %q)", gone, tt.ran, sum.After, sum.Text)
			}
			if sum.IsError == tt.ran || !strings.Contains(sum.Text, tt.says) {
				t.Errorf("result isError=%v %q; want isError=%v and %q", sum.IsError, sum.Text, !tt.ran, tt.says)
			}
			if tt.answer == "none" {
				if len(sum.Asked) != 0 {
					t.Errorf("a client without elicitation was asked: %+v", sum.Asked)
				}
				return
			}
			// Asked once: for the confirmed call, not for listing the pods.
			if len(sum.Asked) != 1 || !strings.Contains(sum.Asked[0].Message, tt.shown) || sum.Asked[0].Mode != "form" {
				t.Fatalf("asked %+v, want one question showing %q", sum.Asked, tt.shown)
			}
			if strings.Contains(sum.Asked[0].Message, "/secret/path") {
				t.Errorf("the question shows the pinned value: %q", sum.Asked[0].Message)
			}
		})
	}
}
