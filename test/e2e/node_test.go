package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// nodeDir is test/node: package.json, the lock file and the scripts.
var nodeDir = filepath.Join("..", "node")

var (
	nodeOnce sync.Once
	nodeErr  string
)

// nodeModules makes sure test/node/node_modules is installed. Under CI=true a
// missing install is a failure (make test runs npm ci first); elsewhere the
// test runs npm ci itself, once.
func nodeModules(t *testing.T) {
	t.Helper()
	sdk := filepath.Join(nodeDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")
	if _, err := os.Stat(sdk); err == nil {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is missing: run `make node-deps` (npm ci in test/node) before the tests", sdk)
	}
	nodeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = nodeDir
		if out, err := cmd.CombinedOutput(); err != nil {
			nodeErr = "npm ci in test/node: " + err.Error() + "\n" + string(out)
		}
	})
	if nodeErr != "" {
		t.Fatal(nodeErr)
	}
	if _, err := os.Stat(sdk); err != nil {
		t.Fatalf("after npm ci: %v", err)
	}
}

// nodeBin is the pinned Node (the "node" package of test/node) when
// installed, else node from PATH.
func nodeBin(t *testing.T) string {
	t.Helper()
	pinned, err := filepath.Abs(filepath.Join(nodeDir, "node_modules", ".bin", "node"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(pinned); err == nil {
		return pinned
	}
	p, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("no node: %v", err)
	}
	return p
}

// tsSummary is the line stdio-client.mjs prints when every check passed.
type tsSummary struct {
	ProtocolVersion string `json:"protocolVersion"`
	Server          struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"server"`
	Tools          int      `json:"tools"`
	Calls          []string `json:"calls"`
	CancelledGroup int      `json:"cancelledGroup"`
}

// runTSClient runs test/node/stdio-client.mjs against bin.
func runTSClient(t *testing.T, bin string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nodeBin(t), "stdio-client.mjs", bin)
	cmd.Dir = nodeDir
	cmd.Env = append(os.Environ(), "MYCLI_STATE="+filepath.Join(t.TempDir(), "state.json"))
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// TestTypeScriptClient runs the official TypeScript SDK client
// (test/node/stdio-client.mjs) against the built mycli: it lists the tools,
// calls several with output-schema validation, cancels a call, and checks
// that the server exits 0. It negotiates protocol 2025-11-25.
func TestTypeScriptClient(t *testing.T) {
	t.Parallel()
	nodeModules(t)
	stdout, stderr, err := runTSClient(t, mycliBin)
	if err != nil {
		t.Fatalf("stdio-client.mjs: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var sum tsSummary
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
		t.Fatalf("summary line %q: %v", lines[len(lines)-1], err)
	}
	if sum.ProtocolVersion != "2025-11-25" {
		t.Errorf("the TypeScript client negotiated %q, want 2025-11-25", sum.ProtocolVersion)
	}
	if sum.Server.Name != "mycli" || sum.Server.Version != "1.4.2" {
		t.Errorf("server info %+v", sum.Server)
	}
	if sum.Tools < 20 {
		t.Errorf("the TypeScript client saw %d tools", sum.Tools)
	}
	for _, want := range []string{"mycli_version", "mycli_get_pods", "mycli_echo", "mycli_fail", "mycli_flood", "mycli_sleep (canceled)"} {
		if !slices.Contains(sum.Calls, want) {
			t.Errorf("calls %v lack %q", sum.Calls, want)
		}
	}
	if sum.CancelledGroup <= 0 {
		t.Errorf("no canceled process group reported: %+v", sum)
	}
	if strings.Contains(stderr, "stdio-client:") {
		t.Errorf("failure output on stderr:\n%s", stderr)
	}
}

// TestTypeScriptClientFails checks that the script reports a failure: run
// against a program that is not an MCP server, it exits non-zero and says
// why.
func TestTypeScriptClientFails(t *testing.T) {
	t.Parallel()
	nodeModules(t)
	stdout, stderr, err := runTSClient(t, "/bin/true")
	var ee *exec.ExitError
	if err == nil || !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("against /bin/true: err %v, want exit code 1\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	if !strings.Contains(stderr, "stdio-client:") || stdout != "" {
		t.Errorf("want a failure message on stderr and nothing on stdout; stdout %q, stderr %q", stdout, stderr)
	}
}
