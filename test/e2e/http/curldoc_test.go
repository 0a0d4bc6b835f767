package httpe2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// curlMarker opens the curl sequence of docs/deploy.md that this test runs.
const curlMarker = "<!-- curl sequence: run by test/e2e/http/curldoc_test.go -->"

// docURL is the server's URL in the documented sequence; the test puts its
// server's in its place, and nothing else.
const docURL = "http://team-host:8080/mcp"

// TestCurlSequenceInDocs runs the curl sequence of docs/deploy.md, as
// written, with bash against `mycli mcp stream` with a token in
// ~/.mycli-token, and checks what each step prints.
func TestCurlSequenceInDocs(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "deploy.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), curlMarker+"\n```sh\n")
	if !ok {
		t.Fatalf("docs/deploy.md has no %q followed by a sh block", curlMarker)
	}
	script, _, ok := strings.Cut(rest, "\n```\n")
	if !ok || strings.Count(script, docURL) != 1 {
		t.Fatalf("the curl sequence does not end, or does not set URL=%s once:\n%s", docURL, script)
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".mycli-token"), []byte(testToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startServer(t, []string{"MYCLI_MCP_TOKEN=" + testToken})
	cmd := exec.Command("bash", "-e", "-o", "pipefail", "-c", strings.Replace(script, docURL, s.url, 1))
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the documented sequence failed: %v\n%s\nserver:\n%s", err, out, s.stderr)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	// tools/list's names, then the call's standard output (mycli echo
	// prints its arguments in JSON), and nothing else: the notification
	// and the DELETE answer without a body.
	var echo echoOut
	if len(lines) < 2 || json.Unmarshal([]byte(lines[len(lines)-1]), &echo) != nil || strings.Join(echo.Args, " ") != "hello" {
		t.Fatalf("output:\n%s\nwant the tools' names, then mycli echo's output for hello", out)
	}
	names := lines[:len(lines)-1]
	for _, n := range names {
		if !strings.HasPrefix(n, "mycli_") {
			t.Errorf("line %q is not a tool name; output:\n%s", n, out)
		}
	}
	if !strings.Contains(string(out), "mycli_echo\n") {
		t.Errorf("mycli_echo not listed:\n%s", out)
	}
}
