package httpe2e

import (
	"context"
	"crypto/rand"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/internal/oidctest"
	"github.com/cobramcp/cobramcp/test/mcphttp"
)

// swappable is an http.RoundTripper that sends the token it holds now: a
// client whose token the provider reissued with other groups or scopes.
type swappable struct {
	token atomic.Pointer[string]
	next  http.RoundTripper
}

func (s *swappable) set(tok string) { s.token.Store(&tok) }

func (s *swappable) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+*s.token.Load())
	return s.next.RoundTrip(r)
}

// Issue 34, item 1: a session opened with a token that a full-access rule
// matches does not keep that access when later requests carry a token of
// the same subject that only a read-only rule matches, or no rule: those
// requests are refused (403, saying why) and nothing runs; the pods are
// all still there. A token no rule admits but a scope would gets the
// step-up challenge; an expired token 401, as for any request.
func TestAccessChangedMidSession(t *testing.T) {
	idp := oidctest.Start(t)
	dir := t.TempDir()
	accessFile := filepath.Join(dir, "access.json")
	if err := os.WriteFile(accessFile, []byte(`{"rules": [
		{"group": "admins"},
		{"scope": "mycli.read", "read-only": true}
	]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := oauthServer(t, idp, false, "--access", accessFile)
	token := func(claims map[string]any) string {
		claims["sub"], claims["aud"] = "alice", s.url
		return idp.Token(t, claims)
	}
	admin := token(map[string]any{"groups": []string{"admins"}})
	reader := token(map[string]any{"scope": "openid mycli.read"})
	nobody := token(map[string]any{"scope": "openid"})
	expired := token(map[string]any{"groups": []string{"admins"}, "exp": time.Now().Add(-time.Hour).Unix()})

	// The session, request by request, as a client sends them.
	code, h, body := request(t, "POST", s.url, admin, "", initialize)
	sid := h.Get("Mcp-Session-Id")
	if code != 200 || sid == "" {
		t.Fatalf("initialize as admin: %d %s", code, body)
	}
	request(t, "POST", s.url, admin, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	getPods := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"mycli_get_pods","arguments":{"flags":{"all-namespaces":true}}}}`
	pods := func() string {
		t.Helper()
		code, _, body := request(t, "POST", s.url, admin, sid, getPods)
		if code != 200 || !strings.Contains(body, "db-0") {
			t.Fatalf("get pods as admin: %d %s", code, body)
		}
		return body
	}
	before := pods()
	deleteAll := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"mycli_delete_pod","arguments":{"flags":{"all":true}}}}`
	meta := s.base + "/.well-known/oauth-protected-resource/mcp"
	for _, c := range []struct {
		name, token string
		code        int
		body, auth  string
	}{
		{"a read-only rule's token", reader, 403, "Forbidden: your access changed since this session began", ""},
		{"a token no rule admits", nobody, 403, "Forbidden: access: no access rule admits this caller", `Bearer error="insufficient_scope", scope="mycli.read", resource_metadata="` + meta + `"`},
		{"an expired token", expired, 401, "", `Bearer error="invalid_token", resource_metadata="` + meta + `"`},
	} {
		a, err := mcphttp.Send("POST", s.url, c.token, sid, deleteAll)
		if err != nil {
			t.Fatal(err)
		}
		if a.Code != c.code || !strings.Contains(a.Body, c.body) || !strings.HasPrefix(a.Header.Get("WWW-Authenticate"), c.auth) {
			t.Errorf("%s: delete pod --all on the admin's session: %d %q, WWW-Authenticate %q; want %d %q %q",
				c.name, a.Code, a.Body, a.Header.Get("WWW-Authenticate"), c.code, c.body, c.auth)
		}
	}
	// Nothing ran: every pod is still there, and the session serves the
	// admin's token again.
	if after := pods(); after != before {
		t.Errorf("the pods changed after the refused deletes:\nbefore %s\nafter  %s", before, after)
	}

	// The go-sdk client, whose token the provider reissued: its call is
	// refused, and it gives the session up; a new session with the
	// reader's token is the reader's.
	rt := &swappable{next: http.DefaultTransport}
	rt.set(admin)
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "httpe2e", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.url, HTTPClient: &http.Client{Transport: rt}, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	rt.set(reader)
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_delete_pod", Arguments: map[string]any{"flags": map[string]any{"all": true}}}); err == nil {
		t.Errorf("the go-sdk client's delete with the reader's token on the admin's session: %s", text(res))
	}
	if after := pods(); after != before {
		t.Errorf("the pods changed after the go-sdk client's refused delete")
	}
	rcs := mustConnect(t, s, reader)
	l, err := rcs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range l.Tools {
		if tool.Name == "mycli_delete_pod" {
			t.Error("the reader's new session lists mycli_delete_pod")
		}
	}
}

// Issue 34, item 2, at the server: 300 requests with forged tokens (iss
// and aud right, unknown kid, no kid, or a bad signature under the
// published kid) cause at most one fetch of the provider's keys, and the
// server keeps serving a good token meanwhile.
func TestForgedTokenFloodAtServer(t *testing.T) {
	idp := oidctest.Start(t)
	s := oauthServer(t, idp, false)
	claims := map[string]any{"sub": "mallory", "aud": s.url}
	good := idp.Token(t, map[string]any{"sub": "alice", "aud": s.url})
	if code, _, body := request(t, "POST", s.url, good, "", initialize); code != 200 {
		t.Fatalf("a good token: %d %s", code, body)
	}
	start := idp.JWKSFetches()
	other := oidctest.NewKey(t)
	sameKid := oidctest.NewKey(t)
	sameKid.Kid, _ = idp.MockOIDC().Keypair.KeyID()
	var forged []string
	for range 100 {
		forged = append(forged,
			idp.SignWith(t, other, map[string]any{"kid": rand.Text()}, claims),
			idp.SignWith(t, other, map[string]any{"kid": nil}, claims),
			idp.Sign(t, sameKid, "JWT", claims))
	}
	var wg sync.WaitGroup
	var accepted atomic.Int32
	client := &http.Client{Timeout: 2 * time.Second} // an attacker that does not wait long
	for _, tok := range forged {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("POST", s.url, strings.NewReader(initialize))
			req.Header.Set("Authorization", "Bearer "+tok)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if resp, err := client.Do(req); err == nil {
				if resp.StatusCode != 401 {
					accepted.Add(1)
				}
				resp.Body.Close()
			}
		}()
	}
	if code, _, body := request(t, "POST", s.url, good, "", initialize); code != 200 {
		t.Errorf("a good token during the flood: %d %s", code, body)
	}
	wg.Wait()
	if n := accepted.Load(); n > 0 {
		t.Errorf("%d forged tokens were not answered 401", n)
	}
	if n := idp.JWKSFetches() - start; n > 1 {
		t.Errorf("300 forged tokens caused %d fetches of the provider's keys, want at most 1", n)
	}
}

// Issue 34, item 3, at the server: with --oauth-key-refresh 2s, a key
// removed at the provider is refused within the interval, without any
// token naming a new key.
func TestRemovedKeyAtServer(t *testing.T) {
	idp := oidctest.Start(t)
	s := oauthServer(t, idp, false, "--oauth-key-refresh", "2s")
	old := idp.Token(t, map[string]any{"sub": "alice", "aud": s.url})
	if code, _, body := request(t, "POST", s.url, old, "", initialize); code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	idp.Rotate(t)
	deadline := time.Now().Add(2*time.Second + 5*time.Second)
	for {
		code, _, _ := request(t, "POST", s.url, old, "", initialize)
		if code == 401 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a token of the removed key is still accepted (%d) 7s after the rotation, with --oauth-key-refresh 2s", code)
		}
		time.Sleep(100 * time.Millisecond)
	}
	waitFor(t, "the log to say why the token is refused", func() bool {
		return strings.Contains(s.stderr.String(), "withdrawn by the issuer")
	})
}
