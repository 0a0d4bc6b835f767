package teame2e

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/toolset"
)

const secret = "/secret/admin.kubeconfig"

// The rules, in its order.
const acceptanceRules = `{"rules": [
	{"group": "admins", "set": {"kubeconfig": "` + secret + `"}},
	{"scope": "mycli.read", "read-only": true},
	{"subject": "carol", "set-claim": {"namespace": "sub"}}
]}`

func toolNames(l *mcp.ListToolsResult) []string {
	var out []string
	for _, t := range l.Tools {
		out = append(out, t.Name)
	}
	return out
}

// TestAcceptance is issue 27's scenario: bob (admins) lists everything;
// alice (mycli.read) lists no write tool and her mycli_delete_pod is
// refused with the pod still there; carol's mycli_echo shows namespace =
// carol and her setting namespace is refused; dave (no rule) gets 403; the
// pinned kubeconfig value is in no answer and no audit line.
func TestAcceptance(t *testing.T) {
	s := start(t, setup{access: acceptanceRules})
	ctx := context.Background()
	var answers []string // every answer, to look for the secret in
	keep := func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		answers = append(answers, string(b))
	}

	ts, err := toolset.New(mycli.New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := ts.View(toolset.Listing{Mode: toolset.ToolModeFull})
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, tool := range whole.Tools() {
		all = append(all, tool.Name)
	}

	// bob lists everything, and runs with the pinned kubeconfig.
	bob := s.mustConnect(t, "bob")
	bl, err := bob.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	keep(bl)
	if got := toolNames(bl); !slices.Equal(got, all) {
		t.Errorf("bob lists %d tools, want all %d:\n got %v\nwant %v", len(got), len(all), got, all)
	}
	res, err := bob.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_get_pods", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("bob's mycli_get_pods: %v %s", err, text(res))
	}
	keep(res)
	if !strings.Contains(text(res), "db-0") {
		t.Fatalf("bob's pods: %s", text(res))
	}

	// alice lists only read-only tools; her delete is refused and the pod
	// stays.
	alice := s.mustConnect(t, "alice")
	al, err := alice.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	keep(al)
	if len(al.Tools) == 0 || len(al.Tools) >= len(all) {
		t.Fatalf("alice lists %d tools of %d", len(al.Tools), len(all))
	}
	for _, tool := range al.Tools {
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("alice lists %s, which is not read-only", tool.Name)
		}
	}
	if slices.Contains(toolNames(al), "mycli_delete_pod") {
		t.Fatal("alice lists mycli_delete_pod")
	}
	res, err = alice.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_delete_pod", Arguments: map[string]any{"args": []string{"db-0"}}})
	if err == nil && !res.IsError {
		t.Fatalf("alice's mycli_delete_pod was served: %s", text(res))
	}
	if err != nil {
		keep(err.Error())
	} else {
		keep(res)
	}
	st, err := mycli.LoadState(s.state)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(st.Pods, func(p mycli.Pod) bool { return p.Name == "db-0" }) {
		t.Fatal("alice's refused call deleted db-0")
	}

	// carol runs in her own namespace, and cannot set another.
	carol := s.mustConnect(t, "carol")
	cl, err := carol.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	keep(cl)
	res, err = carol.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_echo", Arguments: map[string]any{"args": []string{"hi"}}})
	if err != nil || res.IsError {
		t.Fatalf("carol's echo: %v %s", err, text(res))
	}
	keep(res)
	var echo mycli.EchoResult
	if err := json.Unmarshal([]byte(res.StructuredContent.(map[string]any)["stdout"].(string)), &echo); err != nil {
		t.Fatal(err)
	}
	if echo.Flags["namespace"] != "carol" {
		t.Fatalf("carol's echo got flags %v, want namespace carol", echo.Flags)
	}
	res, err = carol.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_echo", Arguments: map[string]any{"flags": map[string]any{"namespace": "kube-system"}}})
	if err != nil {
		t.Fatal(err)
	}
	keep(res)
	if !res.IsError || strings.Contains(text(res), `"flags"`) {
		t.Fatalf("carol set namespace: %s", text(res))
	}

	// dave matches no rule: 403, nothing listed.
	if _, err := s.connect(t, "dave"); err == nil || !strings.Contains(err.Error(), "Forbidden") {
		t.Fatalf("dave connected: %v", err)
	}

	for _, a := range answers {
		if strings.Contains(a, secret) {
			t.Errorf("an answer shows the pinned kubeconfig: %s", a)
		}
	}

	lines := s.auditLines(t)
	for _, l := range lines {
		b, _ := json.Marshal(l)
		t.Logf("audit: %s", b)
	}
	for _, l := range lines {
		b, _ := json.Marshal(l)
		if strings.Contains(string(b), secret) {
			t.Errorf("an audit line shows the pinned kubeconfig: %s", b)
		}
	}
	find := func(sub, tool string, refused bool) map[string]any {
		t.Helper()
		for _, l := range lines {
			_, r := l["refused"]
			if l["subject"] == sub && l["tool"] == tool && r == refused {
				return l
			}
		}
		t.Fatalf("no audit line of %s calling %s (refused %v) in %v", sub, tool, refused, lines)
		return nil
	}
	checkServed := func(l map[string]any, argv string) {
		t.Helper()
		if l["client"] != "team-e2e" || l["session"] == "" || l["exitCode"] != 0.0 || l["durationMs"].(float64) <= 0 || l["outputBytes"].(float64) <= 0 {
			t.Errorf("audit line %v", l)
		}
		if _, err := parseTime(l["time"]); err != nil {
			t.Errorf("audit time: %v", err)
		}
		if got := fmt.Sprint(l["argv"]); !strings.Contains(got, argv) {
			t.Errorf("audit argv %s, want %s in it", got, argv)
		}
	}
	checkServed(find("bob", "mycli_get_pods", false), "--kubeconfig=***")
	checkServed(find("carol", "mycli_echo", false), "--namespace=***")
	for _, l := range []map[string]any{find("alice", "mycli_delete_pod", true), find("carol", "mycli_echo", true)} {
		if l["refused"] == "" || l["exitCode"] != nil || l["session"] == "" || l["client"] != "team-e2e" {
			t.Errorf("refusal's audit line %v", l)
		}
	}
	for _, l := range lines {
		if l["subject"] == "dave" {
			t.Errorf("dave, refused at connection, has a call: %v", l)
		}
	}
}
