package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/example/mycli"
)

// TestEveryTool calls every tool that mycli serves with valid input and
// checks the command's output, exit code and the shape of the result.
func TestEveryTool(t *testing.T) {
	t.Parallel()
	s := startServer(t, serverOptions{env: []string{"E2E_MARKER=value with spaces, and = signs"}})
	ctx := context.Background()
	manifest := filepath.Join(t.TempDir(), "manifest.json")
	if err := os.WriteFile(manifest, []byte(`{"kind":"Pod","metadata":{"name":"p1","labels":{"app":"p"}},"spec":{"image":"nginx:1.27"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	manifestArgs, _ := json.Marshal(map[string]any{"flags": map[string]any{"filename": manifest}})

	// exact: the whole stdout; contains/lacks: substrings; code: exit code.
	tests := []struct {
		tool, args string
		exact      *string
		contains   []string
		lacks      []string
		stderr     string // a substring of stderr; "" means stderr is empty
		code       int
		check      func(t *testing.T, stdout string)
	}{
		{tool: "mycli_version", args: `{}`, exact: ptr("mycli version 1.4.2\n")},
		{tool: "mycli_get_pods", args: `{}`, contains: []string{"NAME", "db-0", "web-7f9c4d-abc12"}, lacks: []string{"coredns"}},
		{tool: "mycli_get_pods", args: `{"flags":{"output":"json","all-namespaces":true,"selector":"k8s-app=kube-dns"}}`,
			check: func(t *testing.T, stdout string) {
				var list struct {
					Items []mycli.Pod `json:"items"`
				}
				if err := json.Unmarshal([]byte(stdout), &list); err != nil {
					t.Fatalf("-o json output is not JSON: %v\n%s", err, stdout)
				}
				var names []string
				for _, p := range list.Items {
					names = append(names, p.Name)
				}
				if want := []string{"coredns-6d4b75-k8m2p", "coredns-6d4b75-q7r5t"}; !reflect.DeepEqual(names, want) {
					t.Errorf("pods = %v, want %v", names, want)
				}
			}},
		{tool: "mycli_get_services", args: `{"flags":{"all-namespaces":true,"headers":false}}`, contains: []string{"kube-dns", "10.96.12.7"}, lacks: []string{"CLUSTER-IP"}},
		{tool: "mycli_get_deployments", args: `{"flags":{"namespace":"kube-system"}}`, contains: []string{"coredns", "2/2"}, lacks: []string{"nginx"}},
		{tool: "mycli_describe_pod", args: `{"args":["db-0"]}`, contains: []string{"Name:", "db-0", "postgres:16", "Pending"}},
		{tool: "mycli_logs", args: `{"args":["db-0"],"flags":{"lines":3,"prefix":false}}`,
			check: func(t *testing.T, stdout string) {
				lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
				if len(lines) != 3 {
					t.Fatalf("want 3 log lines, got %d: %q", len(lines), stdout)
				}
				for _, l := range lines {
					if !strings.HasPrefix(l, "line ") {
						t.Errorf("line %q: want no [POD] prefix", l)
					}
				}
			}},
		{tool: "mycli_exec", args: `{"args":["web-7f9c4d-abc12","--","ls","-l","--color=never"]}`,
			exact: ptr(`["web-7f9c4d-abc12","--","ls","-l","--color=never"]` + "\n")},
		{tool: "mycli_port-forward", args: `{"args":["db-0","8080:80","9090"],"flags":{"bind-address":"::1"}}`,
			exact: ptr("Forwarding from [::1]:8080 -> 80\nForwarding from [::1]:9090 -> 9090\n")},
		{tool: "mycli_top_nodes", args: `{"flags":{"min-cpu-percent":20.5}}`, contains: []string{"node-1", "42%"}, lacks: []string{"node-2"}},
		{tool: "mycli_create_namespace", args: `{"args":["ns1"]}`, exact: ptr("namespace/ns1 created\n")},
		{tool: "mycli_debug", args: `{"flags":{"container":"app"},"args":["web-0"],"argsAfterDash":["ls","-l","--","/"]}`,
			exact: ptr(`{"pod":"web-0","container":"app","command":["ls","-l","--","/"],"argsLenAtDash":1}` + "\n")},
		{tool: "mycli_show-helpers", args: `{}`, contains: []string{"oidc", "mycli-credential-oidc"}},
		{tool: "mycli_env-get", args: `{"args":["E2E_MARKER"]}`, exact: ptr("value with spaces, and = signs\n")},
		{tool: "mycli_echo", args: `{"flags":{"str":"x y","int":-3,"bool-true":false,"slice":["a","b"],"map":{"k":"v"}},"args":["one","two words"]}`,
			check: func(t *testing.T, stdout string) {
				var got mycli.EchoResult
				if err := json.Unmarshal([]byte(stdout), &got); err != nil {
					t.Fatalf("echo output: %v\n%s", err, stdout)
				}
				want := mycli.EchoResult{
					Args:          []string{"one", "two words"},
					ArgsLenAtDash: -1, // plain args: no "--", as a person types them
					Flags: map[string]any{"str": "x y", "int": float64(-3), "bool-true": false,
						"slice": []any{"a", "b"}, "map": map[string]any{"k": "v"}},
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("echo = %+v\nwant   %+v", got, want)
				}
			}},
		{tool: "mycli_fail", args: `{"flags":{"code":3,"message":"disk full","stdout":"partial result"}}`,
			exact: ptr("partial result\n"), stderr: "disk full", code: 3},
		{tool: "mycli_flood", args: `{"flags":{"bytes":100}}`, exact: ptr(strings.Repeat(mycli.FloodLine, 2)[:100])},
		{tool: "mycli_flood", args: `{"flags":{"bytes":70,"stderr":true}}`, exact: ptr(""), stderr: strings.Repeat(mycli.FloodLine, 2)[:70]},
		{tool: "mycli_sleep", args: `{"flags":{"for":"10ms"}}`, exact: ptr("slept 10ms\n")},
		{tool: "mycli_stray-print", args: `{}`, exact: ptr("stray line on stdout\n"), stderr: "stray line on stderr\n"},
		{tool: "mycli_run", args: `{"args":["cache"],"flags":{"image":"redis:7","env":["A=1,2"],"labels":{"team":"blue"}}}`, exact: ptr("deployment/cache created\n")},
		{tool: "mycli_scale_deployment", args: `{"args":["web"],"flags":{"replicas":3}}`, exact: ptr("deployment/web scaled to 3\n")},
		{tool: "mycli_label", args: `{"args":["api-5d8b6c-xyz89","team=red"]}`, exact: ptr("pod/api-5d8b6c-xyz89 labeled\n")},
		{tool: "mycli_delete_pod", args: `{"args":["db-0"]}`, exact: ptr("pod \"db-0\" deleted\n")},
		{tool: "mycli_delete_pod", args: `{"args":["web-7f9c4d-abc12"],"flags":{"dry-run":"client"}}`, exact: ptr("pod \"web-7f9c4d-abc12\" deleted (dry run: client)\n")},
		{tool: "mycli_apply", args: string(manifestArgs), exact: ptr("pod/p1 created\n")},
	}

	lr, err := s.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	called := map[string]bool{}
	for _, tool := range lr.Tools {
		called[tool.Name] = false
		if tool.OutputSchema == nil {
			t.Errorf("tool %s has no output schema", tool.Name)
		}
	}
	if len(lr.Tools) < 20 {
		t.Fatalf("only %d tools listed", len(lr.Tools))
	}

	// Sequential: the write commands share the server's state file.
	for i, tc := range tests {
		t.Run(fmt.Sprintf("%02d_%s", i, tc.tool), func(t *testing.T) {
			if _, ok := called[tc.tool]; !ok {
				t.Fatalf("tool %s is not listed", tc.tool)
			}
			called[tc.tool] = true
			res := s.call(t, ctx, tc.tool, tc.args)
			out, text := resultOutput(t, res)
			if out.ExitCode != tc.code || res.IsError != (tc.code != 0) {
				t.Fatalf("exit code %d, isError %v; want %d\n%s", out.ExitCode, res.IsError, tc.code, text)
			}
			if tc.exact != nil && out.Stdout != *tc.exact {
				t.Errorf("stdout = %q\nwant     %q", out.Stdout, *tc.exact)
			}
			for _, c := range tc.contains {
				if !strings.Contains(out.Stdout, c) {
					t.Errorf("stdout lacks %q:\n%s", c, out.Stdout)
				}
			}
			for _, c := range tc.lacks {
				if strings.Contains(out.Stdout, c) {
					t.Errorf("stdout has %q:\n%s", c, out.Stdout)
				}
			}
			if tc.stderr == "" && out.Stderr != "" {
				t.Errorf("stderr = %q, want empty", out.Stderr)
			}
			if !strings.Contains(out.Stderr, tc.stderr) {
				t.Errorf("stderr = %q, want it to contain %q", out.Stderr, tc.stderr)
			}
			if tc.check != nil {
				tc.check(t, out.Stdout)
			}
		})
	}
	for name, ok := range called {
		if !ok {
			t.Errorf("tool %s has no test case", name)
		}
	}

	// The write commands changed the server's state file.
	st, err := mycli.LoadState(s.state)
	if err != nil {
		t.Fatal(err)
	}
	podNames := map[string]mycli.Pod{}
	for _, p := range st.Pods {
		podNames[p.Name] = p
	}
	if _, ok := podNames["db-0"]; ok {
		t.Error("db-0 was not deleted from the state file")
	}
	if _, ok := podNames["web-7f9c4d-abc12"]; !ok {
		t.Error("a dry-run delete deleted web-7f9c4d-abc12")
	}
	if podNames["api-5d8b6c-xyz89"].Labels["team"] != "red" {
		t.Errorf("label not saved: %v", podNames["api-5d8b6c-xyz89"].Labels)
	}
	if _, ok := podNames["p1"]; !ok {
		t.Error("apply did not create p1")
	}
	deps := map[string]mycli.Deployment{}
	for _, d := range st.Deployments {
		deps[d.Name] = d
	}
	if d := deps["cache"]; d.Image != "redis:7" || !slices.Equal(d.Env, []string{"A=1,2"}) || d.Labels["team"] != "blue" {
		t.Errorf("run saved %+v", d)
	}
	if deps["web"].Replicas != 3 {
		t.Errorf("web has %d replicas, want 3", deps["web"].Replicas)
	}

	if code := s.close(); code != 0 {
		t.Errorf("server exit code %d after stdin closed, want 0", code)
	}
}

func ptr[T any](v T) *T { return &v }

// TestProtocolVersions checks what each client negotiates with the go-sdk
// client: its newest version by default, and 2025-11-25 (what the
// TypeScript SDK 1.32 asks for) when asked; calls work in both.
func TestProtocolVersions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ ask, want string }{
		{"", mcp.SupportedProtocolVersions()[0]},
		{"2025-11-25", "2025-11-25"},
		{"2025-06-18", "2025-06-18"},
	} {
		t.Run("ask="+tc.ask, func(t *testing.T) {
			t.Parallel()
			s := startServer(t, serverOptions{protocol: tc.ask})
			ir := s.cs.InitializeResult()
			if ir == nil || ir.ProtocolVersion != tc.want {
				t.Fatalf("negotiated %+v, want protocol %s", ir, tc.want)
			}
			if ir.ServerInfo == nil || ir.ServerInfo.Name != "mycli" || ir.ServerInfo.Version != mycli.Version {
				t.Errorf("server info %+v, want mycli %s", ir.ServerInfo, mycli.Version)
			}
			out, _ := resultOutput(t, s.call(t, context.Background(), "mycli_version", `{}`))
			if out.Stdout != "mycli version "+mycli.Version+"\n" {
				t.Errorf("version stdout %q", out.Stdout)
			}
			if code := s.close(); code != 0 {
				t.Errorf("server exit code %d, want 0", code)
			}
		})
	}
}

// TestBadInput sends invalid arguments: each is a result with isError set,
// a message naming the problem, nothing run (the state file is untouched),
// and the server keeps serving.
func TestBadInput(t *testing.T) {
	t.Parallel()
	s := startServer(t, serverOptions{})
	ctx := context.Background()
	if err := mycli.SeedState().Save(s.state); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(s.state)
	if err != nil {
		t.Fatal(err)
	}
	beforeInfo, err := os.Stat(s.state)
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name, tool, args string
		want             []string // substrings of the error message
	}{
		{"wrong type bool", "mycli_delete_pod", `{"flags":{"all":"yes"}}`, []string{"all"}},
		{"wrong type int", "mycli_scale_deployment", `{"args":["web"],"flags":{"replicas":"three"}}`, []string{"replicas"}},
		{"fractional int", "mycli_scale_deployment", `{"args":["web"],"flags":{"replicas":1.5}}`, []string{"replicas"}},
		{"unknown flag", "mycli_delete_pod", `{"args":["db-0"],"flags":{"force":true}}`, []string{`unknown flag "force"`}},
		{"shorthand as flag name", "mycli_delete_pod", `{"args":["db-0"],"flags":{"n":"kube-system"}}`, []string{`unknown flag "n"`}},
		{"missing required flag", "mycli_scale_deployment", `{"args":["web"]}`, []string{"replicas"}},
		{"missing required arg", "mycli_describe_pod", `{}`, []string{"args"}},
		{"too many args", "mycli_delete_pod", `{"args":["db-0","web-7f9c4d-abc12"]}`, []string{"args"}},
		{"args on a command without args", "mycli_version", `{"args":["x"]}`, []string{"positional args"}},
		{"args not strings", "mycli_delete_pod", `{"args":[1]}`, []string{"args"}},
		{"flags not an object", "mycli_delete_pod", `{"flags":["all"]}`, []string{"flags"}},
		{"arguments not an object", "mycli_delete_pod", `["db-0"]`, []string{"object"}},
		{"arguments a string", "mycli_delete_pod", `"db-0"`, []string{"object"}},
		{"unknown top-level key", "mycli_delete_pod", `{"name":"db-0"}`, []string{`"name"`}},
		{"enum", "mycli_delete_pod", `{"args":["db-0"],"flags":{"output":"xml"}}`, []string{"output"}},
		{"mutually exclusive", "mycli_delete_pod", `{"flags":{"all":true,"selector":"app=db"}}`, []string{"all", "selector"}},
		{"duration pattern", "mycli_sleep", `{"flags":{"for":"forever"}}`, []string{"for"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := s.callErr(ctx, tc.tool, tc.args)
			if err != nil {
				// A JSON-RPC error is acceptable only for arguments that
				// are not an object, and it must name the problem too.
				if !strings.HasPrefix(tc.args, "{") && strings.Contains(err.Error(), "object") {
					t.Logf("JSON-RPC error: %v", err)
					return
				}
				t.Fatalf("protocol error %v, want a result with isError", err)
			}
			if !res.IsError {
				t.Fatalf("isError false for %s; result: %+v", tc.args, res.StructuredContent)
			}
			msg := resultText(t, res)
			t.Logf("message: %s", msg)
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q does not name %q", msg, w)
				}
			}
			if !strings.Contains(msg, "Nothing was run") {
				t.Errorf("message %q does not say nothing was run", msg)
			}
			if res.StructuredContent != nil {
				t.Errorf("a call that did not run has structured content %v", res.StructuredContent)
			}
		})
	}

	after, err := os.ReadFile(s.state)
	if err != nil {
		t.Fatal(err)
	}
	afterInfo, err := os.Stat(s.state)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) || !afterInfo.ModTime().Equal(beforeInfo.ModTime()) {
		t.Error("the state file changed: a call with bad input ran")
	}

	// Still serving, and the same delete with good input does run.
	out, _ := resultOutput(t, s.call(t, ctx, "mycli_delete_pod", `{"args":["db-0"]}`))
	if out.Stdout != "pod \"db-0\" deleted\n" {
		t.Errorf("delete after bad input: stdout %q", out.Stdout)
	}
	if code := s.close(); code != 0 {
		t.Errorf("server exit code %d, want 0", code)
	}
}

// TestUnknownTool checks that calling a tool that does not exist is a
// JSON-RPC error with the code the MCP spec gives an unknown tool (-32602,
// invalid params), naming it and the tool it most likely means, as `mcp
// call` does, and that the server keeps serving.
func TestUnknownTool(t *testing.T) {
	t.Parallel()
	s := startServer(t, serverOptions{})
	ctx := context.Background()
	tests := []struct{ name, want string }{
		{"mycli_nope", `unknown tool "mycli_nope"`},
		{"mycli_get", `unknown tool "mycli_get"`},
		{"mycli_mcp_start", `unknown tool "mycli_mcp_start"`},
		{"mycli_debug-dump", `unknown tool "mycli_debug-dump"`},
		{"mycli_list", `unknown tool "mycli_list"`},
		{"get_pods", `unknown tool "get_pods"; did you mean "mycli_get_pods"?`},
		{"mycli_show_helpers", `unknown tool "mycli_show_helpers"; did you mean "mycli_show-helpers"?`},
	}
	for _, tt := range tests {
		res, err := s.callErr(ctx, tt.name, `{}`)
		if err == nil {
			t.Errorf("%s: got a result (isError %v), want a JSON-RPC error", tt.name, res.IsError)
			continue
		}
		var we *jsonrpc.Error
		if !errors.As(err, &we) {
			t.Errorf("%s: error %v (%T) is not a JSON-RPC error", tt.name, err, err)
			continue
		}
		if we.Code != jsonrpc.CodeInvalidParams || we.Message != tt.want {
			t.Errorf("%s: error %d %q, want %d %q", tt.name, we.Code, we.Message, jsonrpc.CodeInvalidParams, tt.want)
		}
	}
	out, _ := resultOutput(t, s.call(t, ctx, "mycli_version", `{}`))
	if out.Stdout != "mycli version 1.4.2\n" {
		t.Errorf("after unknown tools: %q", out.Stdout)
	}
	// A tool the policy leaves out is unknown to the client like any
	// other: the error neither confirms it exists nor shows the policy.
	p := startServer(t, serverOptions{args: []string{"--exclude-tools", "mycli_delete_pod,mycli_exec"}})
	_, err := p.callErr(ctx, "mycli_delete_pod", `{}`)
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != jsonrpc.CodeInvalidParams || we.Message != `unknown tool "mycli_delete_pod"` {
		t.Errorf("excluded tool: %v, want %d %q", err, jsonrpc.CodeInvalidParams, `unknown tool "mycli_delete_pod"`)
	}
}

// TestHostileValues checks that values that look like flags stay values:
// an arg "--state=/tmp/x" or "-n" is a positional arg, a flag value "-n" is
// the flag's value.
func TestHostileValues(t *testing.T) {
	t.Parallel()
	s := startServer(t, serverOptions{})
	ctx := context.Background()
	tests := []struct {
		args string
		want mycli.EchoResult
	}{
		{`{"args":["--state=/tmp/x","-n","kube-system","--","-v","--help"]}`,
			mycli.EchoResult{Args: []string{"--state=/tmp/x", "-n", "kube-system", "--", "-v", "--help"}, ArgsLenAtDash: 0, Flags: map[string]any{}}},
		{`{"flags":{"str":"-n","array":["--state=/tmp/x","a,b"]},"args":["-c"]}`,
			mycli.EchoResult{Args: []string{"-c"}, ArgsLenAtDash: 0, Flags: map[string]any{"str": "-n", "array": []any{"--state=/tmp/x", "a,b"}}}},
		// The OpenAI strict form of a map flag reads back as the map.
		{`{"flags":{"map":[{"key":"k","value":"v,w=1"}]},"args":["a"]}`,
			mycli.EchoResult{Args: []string{"a"}, ArgsLenAtDash: -1, Flags: map[string]any{"map": map[string]any{"k": "v,w=1"}}}},
		{`{"flags":{"str":"--bool","opt":"", "slice":[]},"args":[""]}`,
			mycli.EchoResult{Args: []string{""}, ArgsLenAtDash: -1, Flags: map[string]any{"str": "--bool", "opt": "", "slice": []any{}}}},
		{`{"flags":{"str":"$(touch /tmp/cobramcp-e2e-pwned) ; rm -rf ~ \n 'q' \"d\" \u00e9\u2603"},"args":["*","$HOME","a\tb"]}`,
			mycli.EchoResult{Args: []string{"*", "$HOME", "a\tb"}, ArgsLenAtDash: -1, Flags: map[string]any{"str": "$(touch /tmp/cobramcp-e2e-pwned) ; rm -rf ~ \n 'q' \"d\" é☃"}}},
	}
	for i, tc := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			out, text := resultOutput(t, s.call(t, ctx, "mycli_echo", tc.args))
			if out.ExitCode != 0 {
				t.Fatalf("exit code %d: %s", out.ExitCode, text)
			}
			var got mycli.EchoResult
			if err := json.Unmarshal([]byte(out.Stdout), &got); err != nil {
				t.Fatalf("echo output %q: %v", out.Stdout, err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("echo received %+v\nwant          %+v", got, tc.want)
			}
		})
	}
	if _, err := os.Stat("/tmp/cobramcp-e2e-pwned"); err == nil {
		t.Error("a flag value was run by a shell")
	}
	// The state file of the server was not replaced by /tmp/x.
	out, _ := resultOutput(t, s.call(t, ctx, "mycli_get_pods", `{"args":["--state=/tmp/x"]}`))
	if out.ExitCode == 0 || !strings.Contains(out.Stderr, "--state=/tmp/x") {
		t.Errorf("get pods --state=/tmp/x as a pod name: exit %d, stderr %q", out.ExitCode, out.Stderr)
	}
}

// TestConcurrentCalls sends 50 calls at once, more than the server runs in
// parallel, and checks that each gets its own result.
func TestConcurrentCalls(t *testing.T) {
	t.Parallel()
	s := startServer(t, serverOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const n = 50
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			arg := fmt.Sprintf("call-%02d-%s", i, strings.Repeat("x", i))
			args, _ := json.Marshal(map[string]any{"args": []string{arg}, "flags": map[string]any{"int": i}})
			res, err := s.callErr(ctx, "mycli_echo", string(args))
			if err != nil {
				errs <- fmt.Errorf("call %d: %w", i, err)
				return
			}
			if res.IsError {
				errs <- fmt.Errorf("call %d: isError: %s", i, resultText(t, res))
				return
			}
			raw, _ := json.Marshal(res.StructuredContent)
			var out output
			if err := json.Unmarshal(raw, &out); err != nil {
				errs <- fmt.Errorf("call %d: %w", i, err)
				return
			}
			var got mycli.EchoResult
			if err := json.Unmarshal([]byte(out.Stdout), &got); err != nil {
				errs <- fmt.Errorf("call %d: stdout %q: %w", i, out.Stdout, err)
				return
			}
			if !slices.Equal(got.Args, []string{arg}) || got.Flags["int"] != float64(i) {
				errs <- fmt.Errorf("call %d got another call's result: %+v", i, got)
			}
			if txt := resultText(t, res); txt != out.Stdout {
				errs <- fmt.Errorf("call %d: text %q != structured stdout %q", i, txt, out.Stdout)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if code := s.close(); code != 0 {
		t.Errorf("server exit code %d, want 0", code)
	}
}

// TestProgress checks that a call with a progress token gets progress
// notifications carrying the command's latest output line, while it runs.
func TestProgress(t *testing.T) {
	t.Parallel()
	s := startServer(t, serverOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	params := &mcp.CallToolParams{
		Name:      "mycli_logs",
		Arguments: map[string]any{"args": []string{"web-7f9c4d-abc12"}, "flags": map[string]any{"lines": 1, "follow": true}},
	}
	params.SetProgressToken("logs-progress")
	done := make(chan error, 1)
	go func() {
		_, err := s.cs.CallTool(ctx, params)
		done <- err
	}()
	var last float64
	for i := range 3 {
		p := s.waitProgress(t, 20*time.Second, func(p *mcp.ProgressNotificationParams) bool {
			return p.ProgressToken == "logs-progress"
		})
		if !strings.HasPrefix(p.Message, "[web-7f9c4d-abc12] line ") {
			t.Errorf("progress message %q is not a log line", p.Message)
		}
		if i > 0 && p.Progress <= last {
			t.Errorf("progress %v after %v: not increasing", p.Progress, last)
		}
		last = p.Progress
	}
	cancel()
	if err := <-done; err == nil {
		t.Error("a canceled --follow call returned no error")
	}
	// Without a token, no notification.
	out, _ := resultOutput(t, s.call(t, context.Background(), "mycli_logs", `{"args":["db-0"],"flags":{"lines":50}}`))
	if strings.Count(out.Stdout, "\n") != 50 {
		t.Errorf("logs --lines 50 printed %d lines", strings.Count(out.Stdout, "\n"))
	}
	drain := time.After(300 * time.Millisecond)
	for {
		select {
		case p := <-s.progress:
			if p.ProgressToken != "logs-progress" {
				t.Errorf("progress notification for a call without a token: %+v", p)
			}
			continue
		case <-drain:
		}
		break
	}
}
