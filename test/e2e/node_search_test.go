package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTypeScriptSearchClient runs the official TypeScript SDK client
// (test/node/search-client.mjs) through search, describe and run against
// `mycli mcp start --tool-mode search`.
func TestTypeScriptSearchClient(t *testing.T) {
	t.Parallel()
	nodeModules(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nodeBin(t), "search-client.mjs", mycliBin)
	cmd.Dir = nodeDir
	cmd.Env = append(os.Environ(), "MYCLI_STATE="+filepath.Join(t.TempDir(), "state.json"))
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		t.Fatalf("search-client.mjs: %v\nstdout:\n%s\nstderr:\n%s", err, o.String(), e.String())
	}
	lines := strings.Split(strings.TrimSpace(o.String()), "\n")
	var sum struct {
		Tools   []string `json:"tools"`
		Bytes   int      `json:"bytes"`
		First   string   `json:"first"`
		RanExit int      `json:"ranExit"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatalf("summary %q: %v", lines[len(lines)-1], err)
	}
	if strings.Join(sum.Tools, ",") != "mycli_describe_command,mycli_list_commands,mycli_run_command,mycli_search_commands" || sum.Bytes > 4096 || sum.First != "mycli_get_pods" || sum.RanExit != 0 {
		t.Errorf("summary %+v", sum)
	}
}
