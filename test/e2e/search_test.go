package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestSearchMode drives a go-sdk client through search, describe and run
// against `mycli mcp start --tool-mode search`, with a policy: the listing
// is the four tools, run reaches only what the policy serves, and a call
// through run is the per-command call (result, pins, validation).
func TestSearchMode(t *testing.T) {
	s := startServer(t, serverOptions{args: []string{"--tool-mode", "search", "--exclude-tools", "mycli_delete_*", "--set", "namespace=kube-system"}})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	list, err := s.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(list.Tools)
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "mycli_describe_command,mycli_list_commands,mycli_run_command,mycli_search_commands" || len(b) > 4096 {
		t.Fatalf("search-mode listing: %v, %d bytes", names, len(b))
	}

	res := s.call(t, ctx, "mycli_search_commands", `{"query":"list pods in a namespace"}`)
	var found struct {
		Results []struct{ Command, Usage string }
	}
	if err := json.Unmarshal([]byte(resultText(t, res)), &found); err != nil || res.IsError || len(found.Results) == 0 || found.Results[0].Command != "mycli_get_pods" {
		t.Fatalf("search: %v %s", err, resultText(t, res))
	}
	if res := s.call(t, ctx, "mycli_search_commands", `{"query":"delete a pod","limit":25}`); strings.Contains(resultText(t, res), "mycli_delete_pod") {
		t.Errorf("search shows an excluded command: %s", resultText(t, res))
	}

	res = s.call(t, ctx, "mycli_describe_command", `{"command":"mycli_get_pods"}`)
	if res.IsError || !strings.Contains(resultText(t, res), `"limit"`) || !strings.Contains(resultText(t, res), `"pinned":["namespace"]`) || strings.Contains(resultText(t, res), "kube-system") {
		t.Errorf("describe: %s", resultText(t, res))
	}

	res = s.call(t, ctx, "mycli_run_command", `{"command":"mycli_get_pods","flags":{"output":"name"}}`)
	out, _ := resultOutput(t, res)
	if res.IsError || !strings.Contains(out.Stdout, "coredns") {
		t.Errorf("run get pods in the pinned namespace kube-system: %+v", out)
	}
	res = s.call(t, ctx, "mycli_run_command", `{"command":"mycli_echo","args":["--namespace=x"]}`)
	if out, _ := resultOutput(t, res); !strings.Contains(out.Stdout, `"namespace":"kube-system"`) || !strings.Contains(out.Stdout, `"args":["--namespace=x"]`) {
		t.Errorf("run echo: %+v", out)
	}
	for args, want := range map[string]string{
		`{"command":"mycli_get_pods","flags":{"namespace":"default"}}`: "is pinned by whoever started this server",
		`{"command":"mycli_get_pods","flags":{"limit":"x"}}`:           `flags.limit: "x" is a string, want integer`,
		`{"command":"mycli_delete_pod","args":["p"]}`:                  "no served command",
	} {
		res := s.call(t, ctx, "mycli_run_command", args)
		if !res.IsError || !strings.Contains(resultText(t, res), want) || !strings.Contains(resultText(t, res), "Nothing was run") {
			t.Errorf("run %s: %s, want an error with %q", args, resultText(t, res), want)
		}
	}
	if _, err := s.callErr(ctx, "mycli_get_pods", `{}`); err == nil {
		t.Error("a per-command tool answered in search mode")
	}
}

// TestPolicyOverStdio: --read-only is enforced at listing and at call time.
func TestPolicyOverStdio(t *testing.T) {
	s := startServer(t, serverOptions{env: []string{"MYCLI_MCP_READ_ONLY=true"}})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	list, err := s.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("MYCLI_MCP_READ_ONLY lists %s", tool.Name)
		}
	}
	if res, err := s.callErr(ctx, "mycli_delete_pod", `{"args":["p"]}`); err == nil && !res.IsError {
		t.Errorf("a write tool ran under read-only: %s", resultText(t, res))
	}
	if res := s.call(t, ctx, "mycli_get_pods", `{}`); res.IsError {
		t.Errorf("get pods: %s", resultText(t, res))
	}
}

// TestPinsFromEnvironmentOverStdio: MYCLI_MCP_SET pins flags as --set
// does, "\," carrying the comma of a label selector: the pinned flags
// leave the schema, every call gets them, and a call that sets one is
// refused.
func TestPinsFromEnvironmentOverStdio(t *testing.T) {
	s := startServer(t, serverOptions{env: []string{`MYCLI_MCP_SET=namespace=default,selector=app=web\,tier=frontend`}})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	list, err := s.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tool := range list.Tools {
		if tool.Name != "mycli_get_pods" {
			continue
		}
		found = true
		b, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), `"selector"`) || strings.Contains(string(b), `"namespace"`) {
			t.Errorf("a pinned flag is in the schema of mycli_get_pods: %s", b)
		}
	}
	if !found {
		t.Fatal("mycli_get_pods is not listed")
	}
	out := resultText(t, s.call(t, ctx, "mycli_get_pods", `{}`))
	if !strings.Contains(out, "web-7f9c4d-abc12") || strings.Contains(out, "api-5d8b6c-xyz89") || strings.Contains(out, "db-0") {
		t.Errorf("get pods under selector app=web,tier=frontend:\n%s", out)
	}
	if res, err := s.callErr(ctx, "mycli_get_pods", `{"flags":{"selector":"app=db"}}`); err == nil && !res.IsError {
		t.Errorf("a call overriding a pin ran: %s", resultText(t, res))
	}
}
