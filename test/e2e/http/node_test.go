package httpe2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// nodeDir is test/node, relative to this package.
const nodeDir = "../../node"

var (
	nodeOnce sync.Once
	nodeErr  error
)

// nodeModules makes sure test/node/node_modules is installed and returns
// test/node's absolute path. Under CI=true a missing node_modules is a
// failure (the Makefile installs it); elsewhere it runs `npm ci` once.
func nodeModules(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(nodeDir)
	if err != nil {
		t.Fatal(err)
	}
	nodeOnce.Do(func() {
		if installed(dir) {
			return
		}
		if os.Getenv("CI") == "true" {
			nodeErr = errMissingModules
			return
		}
		out, err := exec.Command("npm", "ci", "--prefix", dir, "--no-audit", "--no-fund").CombinedOutput()
		if err != nil || !installed(dir) {
			nodeErr = &npmError{err: err, out: string(out)}
		}
	})
	if nodeErr != nil {
		t.Fatalf("test/node/node_modules: %v", nodeErr)
	}
	return dir
}

// installed reports whether what the Node programs need is in dir/node_modules.
func installed(dir string) bool {
	for _, p := range []string{
		"node_modules/@modelcontextprotocol/sdk/package.json",
		"node_modules/@modelcontextprotocol/conformance/dist/index.js",
		"node_modules/node/bin/node",
	} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			return false
		}
	}
	return true
}

type npmError struct {
	err error
	out string
}

func (e *npmError) Error() string { return "npm ci failed: " + errString(e.err) + "\n" + e.out }

func errString(err error) string {
	if err == nil {
		return "node_modules still incomplete"
	}
	return err.Error()
}

var errMissingModules = missingModules{}

type missingModules struct{}

func (missingModules) Error() string {
	return "not installed, and CI=true: run `npm ci` in test/node first (make test does)"
}

// node22 returns the Node 22 binary that test/node installs (the npm
// package "node"), which the conformance suite needs.
func node22(t *testing.T) string {
	return filepath.Join(nodeModules(t), "node_modules", "node", "bin", "node")
}

// tsStep is one line that test/node/http-client.mjs prints.
type tsStep struct {
	Step   string          `json:"step"`
	Error  string          `json:"error"`
	Code   int             `json:"code"`
	Fatal  string          `json:"fatal"`
	Tools  []string        `json:"tools"`
	Result json.RawMessage `json:"result"`
	MS     int             `json:"ms"`
}

type tsResult struct {
	IsError           bool `json:"isError"`
	Content           []struct{ Text string }
	StructuredContent struct {
		Stdout   string `json:"stdout"`
		ExitCode int    `json:"exitCode"`
	} `json:"structuredContent"`
}

// runHTTPClient runs test/node/http-client.mjs against the MCP endpoint
// url with the bearer token, hands each step it prints to onStep (with the
// script's stdin, to tell it to go on), and returns the steps by name once
// the script has ended. serverStderr is shown when a step fails.
func runHTTPClient(t *testing.T, dir, url, token string, serverStderr fmt.Stringer, onStep func(st tsStep, stdin io.Writer)) map[string]tsStep {
	t.Helper()
	cmd := exec.Command(node22(t), filepath.Join(dir, "http-client.mjs"), url)
	cmd.Env = []string{"MCP_TOKEN=" + token, "PATH=/usr/bin:/bin"}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	steps := map[string]tsStep{}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var st tsStep
		if err := json.Unmarshal(sc.Bytes(), &st); err != nil {
			t.Fatalf("not a step: %s", sc.Text())
		}
		if st.Fatal != "" {
			t.Fatalf("step %s failed: %s\nserver stderr:\n%s", st.Step, st.Fatal, serverStderr)
		}
		steps[st.Step] = st
		onStep(st, stdin)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("http-client.mjs: %v\n%s", err, stderr.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("http-client.mjs did not end\n%s", stderr.String())
	}
	return steps
}
