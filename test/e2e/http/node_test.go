package httpe2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
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
