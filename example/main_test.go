package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/example/mycli"
)

// asMainEnv makes the test binary run main, so the test can start it as an MCP server.
const asMainEnv = "MYCLI_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMainEnv) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// connect starts `mycli mcp start` (this test binary running main) on a fresh state file and
// returns a client session to it.
func connect(t *testing.T) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(os.Args[0], "mcp", "start")
	cmd.Env = append(os.Environ(), asMainEnv+"=1", mycli.StateEnv+"="+filepath.Join(t.TempDir(), "state.json"))
	client := mcp.NewClient(&mcp.Implementation{Name: "example-test", Version: "1"}, nil)
	session, err := client.Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to mycli mcp start: %v", err)
	}
	t.Cleanup(func() { _ = session.Close() })
	return session
}

// outcome is the structured result of a tool call.
type outcome struct {
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	ExitCode int    `json:"exitCode"`
	IsError  bool   `json:"-"`
}

// call calls a tool and decodes its structured result.
func call(t *testing.T, s *mcp.ClientSession, tool string, args map[string]any) outcome {
	t.Helper()
	res, err := s.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", tool, err)
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var o outcome
	if err := json.Unmarshal(data, &o); err != nil {
		t.Fatalf("call %s: structured content %s: %v", tool, data, err)
	}
	o.IsError = res.IsError
	return o
}

func TestToolsList(t *testing.T) {
	s := connect(t)
	res, err := s.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"mycli_get_pods", "mycli_delete_pod", "mycli_top_nodes", "mycli_show-helpers", "mycli_echo", "mycli_exec", "mycli_sleep"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools %q lack %s", names, want)
		}
	}
	for _, name := range names {
		if strings.Contains(name, "debug-dump") || name == "mycli_list" || strings.HasPrefix(name, "mycli_mcp") ||
			name == "mycli_get" || strings.Contains(name, "completion") {
			t.Errorf("tool %s must not exist (hidden, deprecated, a group, or cobra's/cobramcp's own)", name)
		}
	}
}

func TestToolCalls(t *testing.T) {
	s := connect(t)

	o := call(t, s, "mycli_get_pods", map[string]any{"flags": map[string]any{"output": "json"}})
	var list struct{ Items []mycli.Pod }
	if err := json.Unmarshal([]byte(o.Stdout), &list); err != nil || len(list.Items) != 4 || o.IsError {
		t.Errorf("get pods -o json: %v, %+v", err, o)
	}

	if o := call(t, s, "mycli_delete_pod", map[string]any{"args": []string{"db-0"}}); o.IsError || !strings.Contains(o.Stdout, `pod "db-0" deleted`) {
		t.Errorf("delete pod db-0: %+v", o)
	}
	o = call(t, s, "mycli_get_pods", map[string]any{"flags": map[string]any{"output": "name"}})
	if strings.Contains(o.Stdout, "db-0") || !strings.Contains(o.Stdout, "pod/api-5d8b6c-xyz89") {
		t.Errorf("after delete, get pods printed %q", o.Stdout)
	}

	o = call(t, s, "mycli_echo", map[string]any{
		"flags": map[string]any{"bool-true": false, "map": map[string]any{"k": "v"}, "array": []string{"a,b"}, "opt": "given", "int64": 9007199254740993},
		"args":  []string{"--str=not-a-flag"},
	})
	var echo mycli.EchoResult
	if err := json.Unmarshal([]byte(o.Stdout), &echo); err != nil {
		t.Fatalf("echo printed %q: %v", o.Stdout, err)
	}
	if !slices.Equal(echo.Args, []string{"--str=not-a-flag"}) || echo.Flags["bool-true"] != false || echo.Flags["opt"] != "given" ||
		!strings.Contains(o.Stdout, `"int64":9007199254740993`) {
		t.Errorf("echo received %+v", echo)
	}

	if o := call(t, s, "mycli_fail", map[string]any{"flags": map[string]any{"code": 3, "message": "disk full"}}); !o.IsError || o.ExitCode != 3 || !strings.Contains(o.Stderr, "disk full") {
		t.Errorf("fail --code 3: %+v", o)
	}

	if o := call(t, s, "mycli_run", map[string]any{"args": []string{"cache"}, "flags": map[string]any{"overrides": map[string]any{"image": "redis:7", "replicas": 2}}}); o.IsError {
		t.Errorf("run with an object --overrides: %+v", o)
	}
	if o := call(t, s, "mycli_get_pods", map[string]any{"flags": map[string]any{"selector": "run=cache", "output": "name"}}); o.Stdout != "pod/cache-1\npod/cache-2\n" {
		t.Errorf("pods of cache: %q", o.Stdout)
	}

	const pod = "api-5d8b6c-xyz89"
	want := ""
	for n := int64(86399); n <= 86400; n++ {
		want += strings.TrimPrefix(string(mycli.LogLine(nil, pod, n)), "["+pod+"] ")
	}
	if o := call(t, s, "mycli_logs", map[string]any{"args": []string{pod}, "flags": map[string]any{"lines": 2, "prefix": false}}); o.Stdout != want {
		t.Errorf("logs --lines 2 --prefix=false: %q, want %q", o.Stdout, want)
	}
}

// The example adopts cobramcp without the opt-ins: it links no OAuth,
// JOSE or OIDC code and no OpenTelemetry, which only a CLI that asks
// for them links (example/team opts into OAuth, and so links them), and
// its binary holds no code of golang.org/x/oauth2, which the go-sdk
// itself imports.
func TestLinksNoOptIns(t *testing.T) {
	unwanted := []string{
		"github.com/coreos/go-oidc/",
		"github.com/go-jose/",
		"go.opentelemetry.io/",
		"github.com/cobramcp/cobramcp/oauth",
		"github.com/cobramcp/cobramcp/telemetry",
	}
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		return strings.Fields(string(out))
	}
	linked := func(deps []string, prefix string) bool {
		return slices.ContainsFunc(deps, func(d string) bool { return strings.HasPrefix(d, prefix) })
	}
	for _, u := range unwanted {
		if linked(deps("."), u) {
			t.Errorf("the example links %s*, which only an opt-in may bring", u)
		}
	}
	// golang.org/x/oauth2 is in every go-sdk server's import graph: the
	// go-sdk's mcp package imports its auth package, which imports
	// oauthex and x/oauth2. The linker keeps none of its code in a CLI
	// that does not opt in; should the go-sdk stop importing it, it
	// belongs in the list above.
	const xoauth2 = "golang.org/x/oauth2"
	if !linked(deps("github.com/modelcontextprotocol/go-sdk/mcp"), xoauth2) {
		t.Errorf("the go-sdk's mcp package no longer imports %s: add it to the opt-ins' packages above", xoauth2)
	}
	bin := filepath.Join(t.TempDir(), "example")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	syms, err := exec.Command("go", "tool", "nm", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	holds := func(pkg string) string {
		for _, line := range strings.Split(string(syms), "\n") {
			if strings.Contains(line, " "+pkg+".") || strings.Contains(line, " "+pkg+"/") {
				return strings.TrimSpace(line)
			}
		}
		return ""
	}
	if holds("github.com/modelcontextprotocol/go-sdk/mcp") == "" {
		t.Fatal("go tool nm lists no symbol of the go-sdk's mcp package: the check below would pass for nothing")
	}
	if sym := holds(xoauth2); sym != "" {
		t.Errorf("the example's binary holds %s code: %s", xoauth2, sym)
	}
	team := deps("./team")
	for _, want := range []string{"github.com/coreos/go-oidc/", "github.com/go-jose/", "github.com/cobramcp/cobramcp/oauth"} {
		if !linked(team, want) {
			t.Errorf("example/team, which opts into OAuth, does not link %s*: the check above would pass for nothing", want)
		}
	}
}
