package main

import (
	"bytes"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// mycli returns the mycli binary: $MYCLI_BIN (set by `make test`), or one
// built for this test.
func mycli(t *testing.T) string {
	if p := os.Getenv("MYCLI_BIN"); p != "" {
		return p
	}
	p := filepath.Join(t.TempDir(), "mycli")
	if out, err := osexec.Command("go", "build", "-o", p, "github.com/cobramcp/cobramcp/example").CombinedOutput(); err != nil {
		t.Fatalf("building mycli: %v\n%s", err, out)
	}
	return p
}

func run(t *testing.T, args ...string) (string, error) {
	var out bytes.Buffer
	err := execute(args, &out, &bytes.Buffer{})
	return out.String(), err
}

func TestDemoListAndCall(t *testing.T) {
	bin := mycli(t)
	t.Setenv("MYCLI_STATE", filepath.Join(t.TempDir(), "state.json"))

	out, err := run(t, "demo", "--", bin, "mcp", "start", "--mcp-log-level=warn")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"== connected to mycli 1.4.2", "mycli_get_pods", "== 23 tools",
		`pod "--namespace=kube-system" not found`, `flags.replicas: "three" is a string, want integer`, "[... cobramcp:", `unknown flag "token"`} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}

	out, err = run(t, "list", "--", bin, "mcp", "start", "--tools", "mycli_get_*")
	if err != nil || strings.Count(out, "\n") != 3 || !strings.Contains(out, "mycli_get_services") {
		t.Errorf("list: %v\n%s", err, out)
	}

	out, err = run(t, "call", "mycli_version", "{}", "--", bin, "mcp", "start")
	if err != nil || !strings.Contains(out, `"exitCode": 0`) {
		t.Errorf("call: %v\n%s", err, out)
	}
	if _, err := run(t, "call", "mycli_fail", `{"flags":{"code":3}}`, "--", bin, "mcp", "start"); err == nil {
		t.Error("a failed call did not fail the command")
	}
	if _, err := run(t, "list"); err == nil || !strings.Contains(err.Error(), "after --") {
		t.Errorf("no server command: %v", err)
	}
}

func TestShorten(t *testing.T) {
	long := strings.Repeat("a", 1000) + "\n[... cobramcp: 5 bytes of stdout left out ...]\n" + strings.Repeat("b", 1000)
	got := shorten(long)
	if !strings.Contains(got, "[... cobramcp: 5 bytes of stdout left out ...]") || len(got) > 700 {
		t.Errorf("shorten kept %d bytes: %q", len(got), got)
	}
	if s := shorten("short"); s != "short" {
		t.Errorf("short text changed: %q", s)
	}
	plain := shorten(strings.Repeat("x", 2000))
	if !strings.Contains(plain, "[demo: 1520 bytes not shown]") {
		t.Errorf("plain: %q", plain)
	}
}

// TestClientRoleNamesTheServingForm: `cobramcp list -- BIN` (by analogy
// with `start -- BIN`) starts BIN as an MCP server, which a plain CLI is
// not: the error says how to serve it.
func TestClientRoleNamesTheServingForm(t *testing.T) {
	bin := mycli(t)
	for _, args := range [][]string{{"list", "--", bin}, {"call", "mycli_version", "{}", "--", bin}} {
		_, err := run(t, args...)
		if err == nil || !strings.Contains(err.Error(), "-- cobramcp start -- "+bin) || !strings.Contains(err.Error(), "cobramcp mcp call TOOL ARGS -- "+bin) {
			t.Errorf("%q: %v", args, err)
		}
	}
}
