package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sharedCache is the reflection cache of the tests of this package, so
// that each binary is reflected once.
var sharedCache string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cobramcp-cache-")
	if err != nil {
		panic(err)
	}
	sharedCache = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// build builds the main package in dir (of this module or its own) into
// a temporary directory.
func build(t *testing.T, dir, name string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), name)
	c := osexec.Command("go", "build", "-o", out, ".")
	c.Dir = dir
	if b, err := c.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", dir, err, b)
	}
	return out
}

// toolNames lists the tools of the stdio server started by argv, through
// a real MCP client.
func toolNames(t *testing.T, argv ...string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	server := osexec.Command(argv[0], argv[1:]...)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil)
	s, err := client.Connect(ctx, &mcp.CommandTransport{Command: server}, nil)
	if err != nil {
		t.Fatalf("connecting to %q: %v", argv, err)
	}
	defer s.Close()
	var names []string
	for tool, err := range s.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	return names
}

// TestStartFromOutside: `cobramcp start -- mycli` serves the same tools as
// `mycli mcp start`, to a real MCP client.
func TestStartFromOutside(t *testing.T) {
	bin := mycli(t)
	self := build(t, ".", "cobramcp")
	cache := sharedCache
	in := toolNames(t, bin, "mcp", "start", "--mcp-log-level=error")
	out := toolNames(t, self, "start", "--mcp-log-level=error", "--cache-dir", cache, "--", bin)
	if !slices.Equal(in, out) || len(in) < 20 {
		t.Errorf("tools differ:\nin-process %q\noutside    %q", in, out)
	}
	// Options may follow the binary, as client entries write them.
	some := toolNames(t, self, "start", "--", bin, "--tools", "mycli_get_*", "--mcp-log-level=error", "--cache-dir", cache)
	if want := []string{"mycli_get_deployments", "mycli_get_pods", "mycli_get_services"}; !slices.Equal(some, want) {
		t.Errorf("--tools after the binary: %q", some)
	}
}

// callEcho runs one call of a CLI served from outside through
// `cobramcp mcp call TOOL ARGS -- BINARY` and returns what the call printed.
func callEcho(t *testing.T, cache, bin, tool, args string) string {
	t.Helper()
	out, err := run(t, "mcp", "call", tool, args, "--mcp-log-level=error", "--cache-dir", cache, "--", bin)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", tool, args, err, out)
	}
	var res struct {
		StructuredContent struct {
			Stdout   string `json:"stdout"`
			ExitCode int    `json:"exitCode"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.StructuredContent.ExitCode != 0 {
		t.Fatalf("%s: %v\n%s", tool, err, out)
	}
	return strings.TrimSpace(res.StructuredContent.Stdout)
}

// TestCallsFromOutside drives calls through the wrapper into CLIs with
// three help styles, and checks with each binary's own echo of what it
// parsed that the argv was exact: the command path first (the root's name
// not repeated), every flag typed as the binary's parser takes it, args
// after "--" kept as args.
func TestCallsFromOutside(t *testing.T) {
	cache := sharedCache
	templated := build(t, "../../internal/external/testdata/templated", "templated")
	oldcli := build(t, "../../test/oldcli", "oldcli")
	tests := []struct {
		name, bin, tool, args, want string
	}{
		{"mycli", mycli(t), "mycli_echo",
			`{"flags":{"str":"a b,c","int":-3,"uint":4,"float":1.5,"bool-true":false,"count":2,"duration":"1m30s","slice":["x","y"],"array":["p,q","r"],"map":{"k":"v"},"ip":"::1","namespace":"kube-system"},"args":["--not-a-flag","-n"]}`,
			`{"args":["--not-a-flag","-n"],"argsLenAtDash":0,"flags":{"array":["p,q","r"],"bool-true":false,"count":2,"duration":"1m30s","float":1.5,"int":-3,"ip":"::1","map":{"k":"v"},"namespace":"kube-system","slice":["x","y"],"str":"a b,c","uint":4}}`},
		{"templated (kubectl-style help)", templated, "templated_echo",
			`{"flags":{"str":"s","int":-2,"float":2.5,"bool":false,"duration":"2s","ip":"10.0.0.1","slice":["a","b"],"array":["c,d","e"],"map":{"k":"v"},"context":"prod","v":3},"args":["--x"]}`,
			`{"args":["--x"],"flags":{"array":"c,d|e","bool":"false","context":"prod","duration":"2s","float":"2.5","int":"-2","ip":"10.0.0.1","map":"[k=v]","slice":"a|b","str":"s","v":"3"}}`},
		{"templated, nested with a required flag", templated, "templated_config_need",
			`{"flags":{"name":"n","count":5}}`,
			`{"args":[],"flags":{"count":"5","name":"n"}}`},
		{"oldcli (cobra v1.0.0, pflag v1.0.5)", oldcli, "oldcli_echo",
			`{"flags":{"str":"s","int":9,"bool":false,"duration":"3s","slice":["x"],"array":["y,z"],"map":{"a":"b"},"verbose":3,"server":"far","debug":true},"args":["-v"]}`,
			`{"args":["-v"],"flags":{"array":"y,z","bool":"false","debug":"true","duration":"3s","int":"9","map":"[a=b]","server":"far","slice":"x","str":"s","verbose":"3"}}`},
		{"oldcli, nested", oldcli, "oldcli_remote_add",
			`{"flags":{"fetch":true},"args":["origin","https://x"]}`,
			`{"args":["origin","https://x"],"flags":{"fetch":"true"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := callEcho(t, cache, tt.bin, tt.tool, tt.args); got != tt.want {
				t.Errorf("echo:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestEnableFromOutside: the client entry runs `cobramcp start -- BINARY
// OPTIONS`, is named after the CLI, is marked as this CLI by list, and
// disable removes it.
func TestEnableFromOutside(t *testing.T) {
	bin := mycli(t)
	cfg := filepath.Join(t.TempDir(), "claude.json")
	if out, err := run(t, "claude", "enable", "--config-path", cfg, "--cache-dir", sharedCache, "--max-commands", "2000", "--", bin, "--tools", "mycli_get_*"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := run(t, "claude", "enable", "--config-path", filepath.Join(t.TempDir(), "other.json"), "--cache-dir", sharedCache, "--", bin); err != nil ||
		!strings.Contains(out, "Environment written into the entry: PATH (this shell's, captured)") {
		t.Errorf("the summary does not say that PATH is written into the entry: %v\n%s", err, out)
	}
	var doc struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	e, ok := doc.MCPServers["mycli"]
	abs, _ := filepath.Abs(bin)
	if !ok || !slices.Equal(e.Args, []string{"start", "--", abs, "--tools", "mycli_get_*", "--cache-dir", sharedCache, "--max-commands", "2000"}) {
		t.Fatalf("entry: %s", b)
	}
	out, err := run(t, "claude", "list", "--config-path", cfg, "--", bin)
	if err != nil || !strings.Contains(out, "* mycli") {
		t.Errorf("list does not mark the entry: %v\n%s", err, out)
	}
	// Without the binary, disable cannot know the entry's name: it says so
	// (it said "nothing changed" while the entry was there).
	if out, err := run(t, "claude", "disable", "--config-path", cfg); err == nil || !strings.Contains(err.Error(), "name the served CLI after --") {
		t.Errorf("disable without the binary: %v\n%s", err, out)
	}
	if out, err := run(t, "claude", "disable", "--config-path", cfg, "--", bin); err != nil || !strings.Contains(out, `Removed server "mycli"`) {
		t.Errorf("disable: %v\n%s", err, out)
	}
	// A serving command without a binary says how to name one.
	var stderr bytes.Buffer
	if err := execute([]string{"tools", "-o", "-"}, &bytes.Buffer{}, &stderr); err == nil || !strings.Contains(err.Error(), "cobramcp tools -- kubectl") {
		t.Errorf("no binary: %v", err)
	}
}

// TestPolicyFromOutside: the policy flags and variables of `mcp start`
// apply to a CLI served from outside, named after it (MYCLI_MCP_*), and
// the overlay supplies the read-only hints that reflection cannot see.
func TestPolicyFromOutside(t *testing.T) {
	bin := mycli(t)
	names := func(args ...string) ([]string, error) {
		out, err := run(t, append([]string{"tools", "-o", "-", "--cache-dir", sharedCache, "--mcp-log-level=error"}, args...)...)
		if err != nil {
			return nil, err
		}
		var tools []struct{ Name string }
		if err := json.Unmarshal([]byte(out), &tools); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		var n []string
		for _, tl := range tools {
			n = append(n, tl.Name)
		}
		return n, nil
	}
	_, err := names("--read-only", "--", bin)
	for _, want := range []string{"leaves no tool", `"readOnly": true`, "--overlay FILE", "--tools"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("--read-only without hints: %v; want %q in it", err, want)
		}
	}
	// A client entry whose --read-only leaves nothing says the same.
	t.Setenv("HOME", t.TempDir())
	_, err = run(t, "claude", "enable", "--dry-run", "--cache-dir", sharedCache, "--mcp-log-level=error", "--", bin, "--read-only")
	for _, want := range []string{"leaves no tool", `"readOnly": true`, "--overlay FILE", "--tools"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("claude enable -- BIN --read-only without hints: %v; want %q in it", err, want)
		}
	}
	overlay := filepath.Join(t.TempDir(), "overlay.json")
	if err := os.WriteFile(overlay, []byte(`{"commands": {"get pods": {"readOnly": true}, "version": {"readOnly": true}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := names("--read-only", "--overlay", overlay, "--", bin)
	if want := []string{"mycli_get_pods", "mycli_version"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("--read-only with the overlay: %q, %v", got, err)
	}
	t.Setenv("MYCLI_MCP_TOOLS", "mycli_get_*")
	got, err = names("--exclude-tools", "mycli_get_pods", "--", bin)
	if want := []string{"mycli_get_deployments", "mycli_get_services"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("MYCLI_MCP_TOOLS and --exclude-tools: %q, %v", got, err)
	}
}

// TestVariablesOfTheServedCLI: the <ROOT>_MCP_* variables of a CLI served
// from outside are named after it, as an adopted CLI's are: `cobramcp
// stream -- mycli` reads MYCLI_MCP_TOKEN, not COBRAMCP_MCP_TOKEN.
func TestVariablesOfTheServedCLI(t *testing.T) {
	bin := mycli(t)
	t.Setenv("MYCLI_MCP_TOKEN", "")
	t.Setenv("COBRAMCP_MCP_TOKEN", "")
	_, err := run(t, "stream", "--addr", "0.0.0.0:0", "--cache-dir", sharedCache, "--mcp-log-level=error", "--", bin)
	if err == nil || !strings.Contains(err.Error(), "$MYCLI_MCP_TOKEN") {
		t.Fatalf("serving on every interface without a token: %v", err)
	}
	out, err := run(t, "stream", "--help", "--", bin)
	if err != nil || !strings.Contains(out, "MYCLI_MCP_TOKEN") || strings.Contains(out, "COBRAMCP_MCP_TOKEN") {
		t.Errorf("help of `cobramcp stream -- mycli` (%v):\n%s", err, out)
	}
}

// TestEnablePlansAtTheTop: `enable` at the top of cobramcp plans the entry
// (the tool mode that fits the client, the policy checked against the
// served tools), which reflects the binary and so leaves the cache warm for
// the client's first start.
func TestEnablePlansAtTheTop(t *testing.T) {
	bin := mycli(t)
	abs, _ := filepath.Abs(bin)
	for _, prefix := range [][]string{nil} {
		t.Run(strings.Join(append([]string{"cobramcp"}, prefix...), " "), func(t *testing.T) {
			dir := t.TempDir()
			cfg := filepath.Join(dir, "claude.json")
			cache := filepath.Join(dir, "cache")
			args := append(append([]string(nil), prefix...), "claude-code", "enable", "--config-path", cfg, "--cache-dir", cache, "--", bin)
			out, err := run(t, args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			b, err := os.ReadFile(cfg)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				MCPServers map[string]struct {
					Args []string `json:"args"`
				} `json:"mcpServers"`
			}
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			want := append(append([]string(nil), prefix...), "start", "--", abs, "--tool-mode=full", "--cache-dir", cache)
			if got := doc.MCPServers["mycli"].Args; !slices.Equal(got, want) {
				t.Errorf("entry args %q, want %q", got, want)
			}
			if files, _ := filepath.Glob(filepath.Join(cache, "mycli-*.json")); len(files) != 1 {
				t.Errorf("cache after enable: %q, want mycli's reflection", files)
			}
			// A policy naming no tool is refused at enable time, not when the
			// client starts the server.
			bad := append(append([]string(nil), prefix...), "claude-code", "enable", "--config-path", cfg, "--cache-dir", cache, "--", bin, "--tools", "nothing_matches_*")
			if out, err := run(t, bad...); err == nil {
				t.Errorf("enable with a policy matching no tool succeeded:\n%s", out)
			}
		})
	}
}

// TestStartAfterUpgrade: `cobramcp start` of a CLI that changed since it
// was reflected (an upgrade) answers at once from the previous reflection,
// says so in its instructions, and reflects the binary again in the
// background, so that the next start serves it as it is. A client that
// waits a few seconds for a server (Codex waits 10) would otherwise time
// out on every start of an upgraded large CLI.
func TestStartAfterUpgrade(t *testing.T) {
	self := build(t, ".", "cobramcp")
	dir, cache := t.TempDir(), t.TempDir()
	bin := filepath.Join(dir, "mycli")
	b, err := os.ReadFile(mycli(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	instructions := func() string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil)
		s, err := client.Connect(ctx, &mcp.CommandTransport{Command: osexec.Command(self, "start", "--mcp-log-level=error", "--cache-dir", cache, "--", bin)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		text := s.InitializeResult().Instructions
		if strings.Contains(text, "changed since it was reflected") {
			// Keep the server running until its background reflection
			// has replaced the cache entry.
			entries, _ := filepath.Glob(filepath.Join(cache, "mycli-*.json"))
			if len(entries) != 1 {
				t.Fatalf("cache entries: %q", entries)
			}
			st, _ := os.Stat(bin)
			for {
				b, _ := os.ReadFile(entries[0])
				var spec struct {
					ModTime time.Time `json:"modTime"`
				}
				if json.Unmarshal(b, &spec) == nil && spec.ModTime.Equal(st.ModTime()) {
					break
				}
				select {
				case <-ctx.Done():
					t.Fatal("the background reflection did not update the cache")
				case <-time.After(50 * time.Millisecond):
				}
			}
		}
		return text
	}
	if text := instructions(); strings.Contains(text, "changed since") {
		t.Fatalf("first start says the binary changed: %q", text)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(bin, later, later); err != nil {
		t.Fatal(err)
	}
	if text := instructions(); !strings.HasPrefix(text, "mycli changed since it was reflected: these tools describe it as it was then (") {
		t.Fatalf("start after the change: instructions %q", text)
	}
	if text := instructions(); strings.Contains(text, "changed since") {
		t.Errorf("the start after the background reflection still serves the old one: %q", text)
	}
}

// TestBackgroundReflectionEndsWithTheServer: the reflection a start runs in
// the background (the served CLI changed) is ended, its processes with it,
// when the server stops.
func TestBackgroundReflectionEndsWithTheServer(t *testing.T) {
	self := build(t, ".", "cobramcp")
	dir, cache := t.TempDir(), t.TempDir()
	bin, pids := filepath.Join(dir, "mycli"), filepath.Join(dir, "pids")
	real := mycli(t)
	write := func(body string) {
		t.Helper()
		if err := os.WriteFile(bin+".new", []byte("#!/bin/sh\n"+body+"exec "+real+" \"$@\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(bin+".new", bin); err != nil {
			t.Fatal(err)
		}
	}
	write("")
	if out, err := osexec.Command(self, "tools", "-o", os.DevNull, "--cache-dir", cache, "--", bin).CombinedOutput(); err != nil {
		t.Fatalf("warming the cache: %v\n%s", err, out)
	}
	// The changed binary waits a long time in each process it starts.
	write("sleep 300 &\necho $! >> " + pids + "\nwait\n")
	start := osexec.Command(self, "start", "--mcp-log-level=error", "--cache-dir", cache, "--", bin)
	stdin, err := start.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := start.Start(); err != nil {
		t.Fatal(err)
	}
	// Stop the server once the background reflection has started a process.
	deadline := time.Now().Add(time.Minute)
	for {
		if b, _ := os.ReadFile(pids); len(b) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the background reflection started no process")
		}
		time.Sleep(20 * time.Millisecond)
	}
	stdin.Close()
	if err := start.Wait(); err != nil {
		t.Fatalf("start: %v", err)
	}
	b, _ := os.ReadFile(pids)
	for _, p := range strings.Fields(string(b)) {
		stat, err := os.ReadFile("/proc/" + p + "/stat")
		if err != nil {
			continue // gone
		}
		if f := strings.Fields(string(stat)); len(f) > 2 && f[2] != "Z" {
			t.Errorf("process %s of the background reflection still runs after the server stopped: %s", p, stat)
			syscall.Kill(mustAtoi(t, p), syscall.SIGKILL)
		}
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
