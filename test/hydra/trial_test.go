package hydra

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// docBlock returns the sh block that follows marker in doc.
func docBlock(t *testing.T, doc, marker string) string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, marker+"\n```sh\n")
	if !ok {
		t.Fatalf("docs/access.md has no %q followed by a sh block", marker)
	}
	block, _, ok := strings.Cut(rest, "\n```\n")
	if !ok {
		t.Fatalf("the block after %q does not end", marker)
	}
	return block
}

// bashGroup runs script with bash in dir, in a process group of its own
// that is ended at the end of the test, its output kept.
func bashGroup(t *testing.T, dir, script string) *syncBuffer {
	t.Helper()
	cmd := exec.Command("bash", "-e", "-c", script)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	return keep(t, cmd, "output of\n"+script)
}

// TestTrialInDocs runs docs/access.md's "Try it on one machine" as
// written: Hydra and the team server each from its block, then the
// session's block, whose output is checked. Only the ports (4444, 4445,
// 8080) are put on free ones, and bin/ holds the binaries built here.
func TestTrialInDocs(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "access.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	ports := strings.NewReplacer(
		"4444", portOf(t, freeAddr(t)),
		"4445", portOf(t, freeAddr(t)),
		"8080", portOf(t, freeAddr(t)))
	block := func(name string) string {
		return ports.Replace(docBlock(t, doc, "<!-- trial "+name+": run by test/hydra/trial_test.go -->"))
	}
	hydraScript, serverScript, session := block("hydra"), block("server"), block("session")

	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, bin := range map[string]string{"hydra": hydraBin, "mycli-team": mycliBin} {
		if err := os.Symlink(bin, filepath.Join(dir, "bin", name)); err != nil {
			t.Fatal(err)
		}
	}

	hydraOut := bashGroup(t, dir, hydraScript)
	admin := "http://127.0.0.1:" + strings.TrimSpace(ports.Replace("4445"))
	waitHTTP(t, admin+"/health/ready", hydraOut)
	serverOut := bashGroup(t, dir, serverScript)
	deadline := time.Now().Add(30 * time.Second)
	for !urlRE.MatchString(serverOut.String()) {
		if time.Now().After(deadline) {
			t.Fatalf("the documented server did not serve within 30s:\n%s", serverOut)
		}
		time.Sleep(50 * time.Millisecond)
	}

	cmd := exec.Command("bash", "-e", "-o", "pipefail", "-c", session)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the documented session failed: %v\n%s\nserver:\n%s", err, out, serverOut)
	}
	text := string(out)
	for _, want := range []string{
		"api-5d8b6c-xyz89",                // the viewer lists the pods
		`unknown tool "mycli_delete_pod"`, // the viewer's delete is refused
		`pod "db-0" deleted`,              // the ops client's delete runs
		`error="insufficient_scope", scope="mycli.admin mycli.read"`, // the guest's step-up challenge
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the session's output lacks %q:\n%s", want, text)
		}
	}
	var audit []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		var m map[string]any
		if strings.HasPrefix(line, "{") && json.Unmarshal([]byte(line), &m) == nil && m["tool"] != nil {
			audit = append(audit, m)
		}
	}
	if len(audit) != 3 || audit[0]["tool"] != "mycli_get_pods" || audit[1]["refused"] == nil || audit[2]["exitCode"] != 0.0 || audit[2]["subject"] == audit[0]["subject"] {
		t.Errorf("the audit lines: %v, want the viewer's list, its refused delete, and the ops client's delete", audit)
	}
}

// portOf returns the port of a host:port address.
func portOf(t *testing.T, addr string) string {
	t.Helper()
	_, port, ok := strings.Cut(addr, ":")
	if !ok {
		t.Fatalf("address %q", addr)
	}
	return port
}
