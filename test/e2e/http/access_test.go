package httpe2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/internal/oidctest"
	"github.com/cobramcp/cobramcp/test/proctest"
)

// Issue 27's acceptance, as its "Done means" gives it: `mycli mcp stream
// --addr 127.0.0.1:PORT --oauth-issuer ISS --oauth-resource
// http://127.0.0.1:PORT/mcp --access FILE --audit-log FILE` against a
// provider started by the test, with the three rules in order:
// bob (admins) lists everything; alice (mycli.read) lists no write tool
// and her mycli_delete_pod is refused with the pod still there; carol's
// mycli_echo shows namespace = carol and her setting namespace is
// refused; dave (no rule) gets 403; the pinned kubeconfig value is in no
// answer and no audit line.
func TestAccessAcceptance(t *testing.T) {
	const secret = "/secret/admin.kubeconfig"
	idp := oidctest.Start(t)
	dir := t.TempDir()
	accessFile, auditFile := filepath.Join(dir, "access.json"), filepath.Join(dir, "calls.audit")
	rules := `{"rules": [
		{"group": "admins", "set": {"kubeconfig": "` + secret + `"}},
		{"scope": "mycli.read", "read-only": true},
		{"subject": "carol", "set-claim": {"namespace": "sub"}}
	]}`
	if err := os.WriteFile(accessFile, []byte(rules), 0o600); err != nil {
		t.Fatal(err)
	}
	s := oauthServer(t, idp, false, "--access", accessFile, "--audit-log", auditFile)
	token := func(claims map[string]any) string {
		claims["aud"] = s.url
		return idp.Token(t, claims)
	}
	bob := token(map[string]any{"sub": "bob", "groups": []string{"dev", "admins"}})
	alice := token(map[string]any{"sub": "alice", "scope": "openid mycli.read"})
	carol := token(map[string]any{"sub": "carol"})
	dave := token(map[string]any{"sub": "dave", "groups": []string{"dev"}})
	ctx := context.Background()
	var answers []string
	keep := func(v any) {
		b, _ := json.Marshal(v)
		answers = append(answers, string(b))
	}
	names := func(l *mcp.ListToolsResult) []string {
		var out []string
		for _, tool := range l.Tools {
			out = append(out, tool.Name)
		}
		return out
	}

	// The whole tree: what a server without rules lists.
	plain := startServer(t, nil)
	all, err := mustConnect(t, plain, "").ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	plain.stop(t)

	bs := mustConnect(t, s, bob)
	bl, err := bs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	keep(bl)
	if !slices.Equal(names(bl), names(all)) {
		t.Errorf("bob lists %v, want everything: %v", names(bl), names(all))
	}

	as := mustConnect(t, s, alice)
	al, err := as.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	keep(al)
	for _, tool := range al.Tools {
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("alice lists %s, a write tool", tool.Name)
		}
	}
	if len(al.Tools) == 0 || slices.Contains(names(al), "mycli_delete_pod") {
		t.Fatalf("alice lists %v", names(al))
	}
	res, err := as.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_delete_pod", Arguments: map[string]any{"args": []string{"db-0"}}})
	if err == nil && !res.IsError {
		t.Fatalf("alice deleted a pod: %s", text(res))
	}
	keep(fmt.Sprint(res, err))
	res, err = bs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_get_pods", Arguments: map[string]any{"args": []string{"db-0"}}})
	if err != nil || res.IsError || !strings.Contains(text(res), "db-0") {
		t.Fatalf("the pod is gone after alice's refused delete: %v %s", err, text(res))
	}
	keep(res)

	cs := mustConnect(t, s, carol)
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_echo", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("carol's echo: %v %s", err, text(res))
	}
	keep(res)
	var echo struct {
		Flags map[string]any `json:"flags"`
	}
	if err := json.Unmarshal([]byte(res.StructuredContent.(map[string]any)["stdout"].(string)), &echo); err != nil || echo.Flags["namespace"] != "carol" {
		t.Fatalf("carol's echo: %v %s", err, text(res))
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_echo", Arguments: map[string]any{"flags": map[string]any{"namespace": "kube-system"}}})
	if err != nil || !res.IsError || strings.Contains(text(res), `"flags"`) {
		t.Fatalf("carol set namespace: %v %s", err, text(res))
	}
	keep(res)

	code, _, body := request(t, "POST", s.url, dave, "", initialize)
	if code != 403 {
		t.Fatalf("dave: %d %s", code, body)
	}
	keep(body)

	for _, a := range answers {
		if strings.Contains(a, secret) {
			t.Errorf("an answer shows the pinned kubeconfig: %s", a)
		}
	}
	s.stop(t)
	b, err := os.ReadFile(auditFile)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), secret) {
		t.Errorf("the audit log shows the pinned kubeconfig:\n%s", b)
	}
	if fi, err := os.Stat(auditFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("audit log mode: %v %v", fi.Mode(), err)
	}
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("audit line %q: %v", l, err)
		}
		lines = append(lines, m)
	}
	want := []struct {
		subject, tool, argv string
		refused             bool
	}{
		{"alice", "mycli_delete_pod", "<nil>", true}, // refused before any argv: no such tool for her
		{"bob", "mycli_get_pods", "--kubeconfig=***", false},
		{"carol", "mycli_echo", "--namespace=***", false},
		{"carol", "mycli_echo", "<nil>", true}, // refused before any argv: a pinned flag
	}
	if len(lines) != len(want) {
		t.Fatalf("%d audit lines, want %d:\n%s", len(lines), len(want), b)
	}
	for i, w := range want {
		l := lines[i]
		_, refused := l["refused"]
		_, exit := l["exitCode"]
		if l["subject"] != w.subject || l["tool"] != w.tool || !strings.Contains(fmt.Sprint(l["argv"]), w.argv) || refused != w.refused || exit == w.refused ||
			l["client"] == "" || l["session"] == "" || l["time"] == "" || l["durationMs"] == nil || l["outputBytes"] == nil {
			t.Errorf("audit line %d: %v, want %+v", i+1, l, w)
		}
	}
}

// A bad access file stops `mcp stream` at start, naming the rule; so does
// --access without identities.
func TestAccessRefusedSettings(t *testing.T) {
	idp := oidctest.Start(t)
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name, file, want string
	}{
		{"unknown key", `{"rules":[{"group":"a"},{"group":"b","readonly":true}]}`, `rule 2 {"group":"b","readonly":true}: unknown key "readonly"`},
		{"a pattern matching nothing", `{"rules":[{"tools":["mycli_nope"]}]}`, `rule 1 {"tools":["mycli_nope"]}: tools: no tool matches mycli_nope`},
		{"a claim pin on a flag no served command has", `{"rules":[{"tools":["mycli_version"],"set-claim":{"as":"email"}}]}`, `"set-claim": no tool this rule serves takes --as`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := tryOAuthServer(t, idp, "--access", write(strings.ReplaceAll(c.name, " ", "-")+".json", c.file))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want %q", err, c.want)
			}
		})
	}
	_, err := tryStartServer(t, nil, "--addr", "127.0.0.1:0", "--access", write("ok.json", `{"rules":[{"group":"a"}]}`))
	if err == nil || !strings.Contains(err.Error(), "access rules need callers with identities") {
		t.Fatalf("--access without OAuth: %v", err)
	}
}

// tryOAuthServer starts `mycli mcp stream` as the resource server of idp
// with args, or returns why it did not start.
func tryOAuthServer(t *testing.T, idp *oidctest.Provider, args ...string) (*server, error) {
	t.Helper()
	addr := proctest.FreeAddr(t)
	args = append(args, "--addr", addr, "--oauth-issuer", idp.Issuer(), "--oauth-resource", "http://"+addr+"/mcp")
	return tryStartServer(t, nil, args...)
}
