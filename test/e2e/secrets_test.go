package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestMCPVarsNotInCallEnv: the server's own <ROOT>_MCP_* variables (a pin
// in MYCLI_MCP_SET, the policy, any other) configure the server and are not
// inherited by the calls' processes, which see the rest of its environment;
// the pinned value is hidden in the debug log.
func TestMCPVarsNotInCallEnv(t *testing.T) {
	t.Parallel()
	s := startServer(t, serverOptions{env: []string{
		"MYCLI_MCP_SET=kubeconfig=/secret/path",
		"MYCLI_MCP_EXCLUDE_TOOLS=mycli_delete_*",
		"MYCLI_MCP_ANYTHING=x",
		"MYCLI_MCPX=visible too",
		"VISIBLE=yes",
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	envGet := func(name string) (string, int) {
		res := s.call(t, ctx, "mycli_env-get", `{"args":["`+name+`"]}`)
		var out output
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("mycli_env-get %s: %v", name, err)
		}
		return out.Stdout, out.ExitCode
	}
	for _, name := range []string{"MYCLI_MCP_SET", "MYCLI_MCP_EXCLUDE_TOOLS", "MYCLI_MCP_ANYTHING"} {
		if out, code := envGet(name); code != 2 || out != "" {
			t.Errorf("a call sees $%s: exit %d, stdout %q; want it unset (exit 2)", name, code, out)
		}
	}
	for name, want := range map[string]string{"VISIBLE": "yes\n", "MYCLI_MCPX": "visible too\n"} {
		if out, code := envGet(name); code != 0 || out != want {
			t.Errorf("$%s: exit %d, stdout %q; want %q", name, code, out, want)
		}
	}
	// The debug log shows the argv with the pinned value hidden.
	if log := s.stderr.String(); strings.Contains(log, "/secret/path") || !strings.Contains(log, "--kubeconfig=***") {
		t.Errorf("the debug log shows the pinned value, or no argv:\n%s", log)
	}
	// The variables still configure the server: the pin and the policy.
	if res, err := s.callErr(ctx, "mycli_delete_pod", `{"args":["p"]}`); err == nil && !res.IsError {
		t.Errorf("mycli_delete_pod served despite MYCLI_MCP_EXCLUDE_TOOLS: %s", resultText(t, res))
	}
}

// TestMCPVarsNotInOneShotCallEnv: `mcp call`, which runs one call without a
// server, hides the <ROOT>_MCP_* variables from the call's process too,
// while they still configure the call (the pin applies).
func TestMCPVarsNotInOneShotCallEnv(t *testing.T) {
	t.Parallel()
	run := func(args ...string) (string, error) {
		cmd := exec.Command(mycliBin, args...)
		cmd.Env = append(os.Environ(), "MYCLI_STATE="+t.TempDir()+"/state",
			"MYCLI_MCP_SET=namespace=pinned-ns", "MYCLI_MCP_ANYTHING=x", "VISIBLE=yes")
		out, err := cmd.Output()
		return string(out), err
	}
	for _, name := range []string{"MYCLI_MCP_SET", "MYCLI_MCP_ANYTHING"} {
		out, err := run("mcp", "call", "mycli_env-get", `{"args":["`+name+`"]}`)
		if err == nil || !strings.Contains(out, `"exitCode": 2`) {
			t.Errorf("mcp call mycli_env-get %s: err %v; want it unset (exit 2):\n%s", name, err, out)
		}
	}
	if out, err := run("mcp", "call", "mycli_env-get", `{"args":["VISIBLE"]}`); err != nil || !strings.Contains(out, `"stdout": "yes\n"`) {
		t.Errorf("mcp call mycli_env-get VISIBLE: err %v; want yes:\n%s", err, out)
	}
	if out, err := run("mcp", "call", "mycli_echo", `{}`); err != nil || !strings.Contains(out, "pinned-ns") {
		t.Errorf("mcp call mycli_echo: err %v; want the pinned namespace:\n%s", err, out)
	}
}
