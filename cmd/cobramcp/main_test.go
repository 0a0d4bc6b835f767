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

// TestClientRoleServesOneWord: after --, one word is a Cobra CLI that
// `list`, `call` and `demo` serve as `start -- BIN` does, through a real
// MCP session, printing no INFO lines on stderr (only what reflection
// could not find out exactly, at WARN); more words
// are a server's command line; --server makes one word a server's too.
func TestClientRoleServesOneWord(t *testing.T) {
	bin := mycli(t)
	self := build(t, ".", "cobramcp")
	t.Setenv("MYCLI_STATE", filepath.Join(t.TempDir(), "state.json"))
	run := func(args ...string) (string, string, error) {
		c := osexec.Command(self, args...)
		var out, errOut bytes.Buffer
		c.Stdout, c.Stderr = &out, &errOut
		err := c.Run()
		return out.String(), errOut.String(), err
	}
	cache := "--cache-dir=" + sharedCache
	out, errOut, err := run("list", cache, "--", bin)
	if err != nil || strings.Count(out, "\n") != 23 || !strings.Contains(out, "mycli_get_pods") || strings.Contains(errOut, "level=INFO") {
		t.Errorf("list -- mycli: %v\nstdout %s\nstderr %q", err, out, errOut)
	}
	out, errOut, err = run("call", "mycli_version", "{}", cache, "--", bin)
	if err != nil || !strings.Contains(out, `"exitCode": 0`) || strings.Contains(errOut, "level=INFO") {
		t.Errorf("call -- mycli: %v\nstdout %s\nstderr %q", err, out, errOut)
	}
	// The session's server is `start -- mycli`: its variables apply.
	c := osexec.Command(self, "list", cache, "--", bin)
	c.Env = append(os.Environ(), "MYCLI_MCP_TOOLS=mycli_get_*")
	if b, err := c.Output(); err != nil || strings.Count(string(b), "\n") != 3 {
		t.Errorf("list -- mycli with MYCLI_MCP_TOOLS: %v\n%s", err, b)
	}
	// More words: a server's command line, as before.
	out, _, err = run("list", "--", bin, "mcp", "start", "--tools", "mycli_get_*")
	if err != nil || strings.Count(out, "\n") != 3 {
		t.Errorf("list -- mycli mcp start: %v\n%s", err, out)
	}
	// --server: the one word is started as a server, which mycli alone is not.
	if _, _, err := run("list", "--server", "--timeout", "20s", "--", bin); err == nil {
		t.Error("list --server -- mycli: mycli alone is no MCP server, yet no error")
	}
}

// TestServedFailureMessages: a client command given one word that cannot
// be served says why: a binary that is no Cobra CLI and answers no MCP
// handshake is said to be neither, with no --server offered; one that
// answers a handshake gets --server offered; a Cobra CLI whose reflection
// failed points at start's own error, and never at --server.
func TestServedFailureMessages(t *testing.T) {
	self := build(t, ".", "cobramcp")
	notCobra := build(t, "../../internal/external/testdata/notcobra", "notcobra")
	server := build(t, "testdata/mcpserver", "mcpserver")
	shapes := build(t, "../../internal/external/testdata/shapes", "shapes")
	for _, tt := range []struct {
		name, bin string
		env       []string
		want      []string
		not       string
	}{
		{"not cobra", notCobra, nil, []string{"is not a Cobra CLI", "does not answer an MCP handshake"}, "--server"},
		{"an MCP server", server, nil, []string{"answers as an MCP server: give --server"}, ""},
		// A command whose help cannot be read: start's error names the
		// overlay that leaves it out.
		{"unreadable help", shapes, []string{"SHAPES=default-command,broken-help"},
			[]string{"could not serve it: its error is above", `{"exclude": ["crash"]}`}, "--server"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := osexec.Command(self, "list", "--no-cache", "--timeout", "1m", "--", tt.bin)
			c.Env = append(os.Environ(), tt.env...)
			var out bytes.Buffer
			c.Stdout, c.Stderr = &out, &out
			if err := c.Run(); err == nil {
				t.Fatalf("no error:\n%s", out.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			if tt.not != "" && strings.Contains(out.String(), tt.not) {
				t.Errorf("output offers %s:\n%s", tt.not, out.String())
			}
		})
	}
}
