package httpe2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// envGet calls mycli_env-get NAME and returns its stdout and exit code.
func envGet(t *testing.T, cs *mcp.ClientSession, name string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_env-get", Arguments: map[string]any{"args": []string{name}}})
	if err != nil {
		t.Fatalf("mycli_env-get %s: %v", name, err)
	}
	var out struct {
		Stdout   string `json:"stdout"`
		ExitCode int    `json:"exitCode"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("mycli_env-get %s: %v", name, err)
	}
	return out.Stdout, out.ExitCode
}

// TestTokenNotInCallEnv checks that the calls' processes do not see the
// variables holding the server's token, nor its other <ROOT>_MCP_*
// settings, while they see the rest of its environment.
func TestTokenNotInCallEnv(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		env    []string
		args   []string
		hidden []string
	}{
		{"default variable", []string{"MYCLI_MCP_TOKEN=" + testToken}, nil, []string{"MYCLI_MCP_TOKEN"}},
		{"--token-env", []string{"TEAM_TOKEN=" + testToken, "MYCLI_MCP_TOKEN=unused-but-secret-too"}, []string{"--token-env", "TEAM_TOKEN"}, []string{"TEAM_TOKEN", "MYCLI_MCP_TOKEN"}},
		{"the server's own settings", []string{"MYCLI_MCP_TOKEN=" + testToken, "MYCLI_MCP_SET=kubeconfig=/secret/path", "MYCLI_MCP_EXCLUDE_TOOLS=mycli_delete_*"}, nil,
			[]string{"MYCLI_MCP_TOKEN", "MYCLI_MCP_SET", "MYCLI_MCP_EXCLUDE_TOOLS"}},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			s := startServer(t, append([]string{"VISIBLE=yes"}, tt.env...), tt.args...)
			cs := mustConnect(t, s, testToken)
			for _, name := range tt.hidden {
				if out, code := envGet(t, cs, name); code != 2 || out != "" {
					t.Errorf("a call sees $%s: exit %d, stdout %q; want it unset (exit 2)", name, code, out)
				}
			}
			if out, code := envGet(t, cs, "VISIBLE"); code != 0 || out != "yes\n" {
				t.Errorf("a call does not see the server's other variables: $VISIBLE: exit %d, stdout %q", code, out)
			}
		})
	}
}

// TestTokenFilePermissions checks that a token file its group or others
// may read is refused, and served with the opt-out flag.
func TestTokenFilePermissions(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte(testToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := tryStartServer(t, nil, "--addr", "127.0.0.1:0", "--token-file", file)
	if err == nil || !strings.Contains(err.Error(), "mode 0644") || !strings.Contains(err.Error(), "--insecure-token-file-permissions") {
		t.Fatalf("a 0644 token file: %v; want a refusal naming the mode and the opt-out", err)
	}
	s := startServer(t, nil, "--token-file", file, "--insecure-token-file-permissions")
	if got := post(t, s.url, initialize, nil); got != 401 {
		t.Errorf("with the opt-out, a request without the token: %d, want 401", got)
	}
	if got := post(t, s.url, initialize, map[string]string{"Authorization": "Bearer " + testToken}); got != 200 {
		t.Errorf("with the opt-out, a request with the token: %d, want 200", got)
	}
}
