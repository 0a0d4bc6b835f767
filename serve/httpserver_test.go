package serve_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/internal/httpserve"
	"github.com/cobramcp/cobramcp/internal/oidctest"
	"github.com/cobramcp/cobramcp/oauth"
	"github.com/cobramcp/cobramcp/serve"
	"github.com/cobramcp/cobramcp/test/mcphttp"
)

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`

type answer struct {
	code int
	sid  string
	body string
}

func do(t *testing.T, method, url, token, sid, body string) answer {
	t.Helper()
	a, err := send(method, url, token, sid, body)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// send is do for a goroutine of the test's: it returns the error.
func send(method, url, token, sid, body string) (answer, error) {
	a, err := mcphttp.Send(method, url, token, sid, body)
	if err != nil {
		return answer{}, err
	}
	return answer{a.Code, a.SessionID(), a.Body}, nil
}

// open initializes a session and returns its id.
func open(t *testing.T, url, token string) string {
	t.Helper()
	a := do(t, "POST", url, token, "", initBody)
	if a.code != 200 || a.sid == "" {
		t.Fatalf("initialize: %d %q", a.code, a.body)
	}
	if a := do(t, "POST", url, token, a.sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); a.code != 202 {
		t.Fatalf("initialized: %d %q", a.code, a.body)
	}
	return a.sid
}

// blocker is a server with a tool "block" that runs until released or
// cancelled, and reports how it ended.
type blocker struct {
	srv     *mcp.Server
	started chan struct{}
	release chan struct{}
	ended   chan error
}

func newBlocker(name string) *blocker {
	b := &blocker{srv: mcp.NewServer(&mcp.Implementation{Name: name, Version: "1"}, nil),
		started: make(chan struct{}, 1), release: make(chan struct{}), ended: make(chan error, 1)}
	mcp.AddTool(b.srv, &mcp.Tool{Name: "block"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		b.started <- struct{}{}
		select {
		case <-b.release:
			b.ended <- nil
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "released"}}}, nil, nil
		case <-ctx.Done():
			b.ended <- ctx.Err()
			return nil, nil, ctx.Err()
		}
	})
	mcp.AddTool(b.srv, &mcp.Tool{Name: name + "_only"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})
	return b
}

func oauthServer(t *testing.T, idp *oidctest.Provider, srv *mcp.Server, opts serve.HTTPOptions) (url string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url = "http://" + ln.Addr().String() + "/mcp"
	rs, err := oauth.New(context.Background(), serve.OAuthConfig{Issuer: idp.Issuer(), Resource: url})
	if err != nil {
		t.Fatal(err)
	}
	opts.Auth = rs
	hs, err := serve.NewHTTPServer(srv, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ctx, ln) }()
	t.Cleanup(func() { hs.Abort(); cancel(); <-done })
	return url
}

// Sessions belong to the identity that opened them: another identity that
// uses or deletes one is refused, and the owner's session and its running
// call go on.
func TestSessionOwnership(t *testing.T) {
	idp := oidctest.Start(t)
	b := newBlocker("owned")
	url := oauthServer(t, idp, b.srv, serve.HTTPOptions{})
	alice := idp.Token(t, map[string]any{"sub": "alice", "aud": url})
	bob := idp.Token(t, map[string]any{"sub": "bob", "aud": url})

	sid := open(t, url, alice)
	call := make(chan answer, 1)
	go func() {
		a, err := send("POST", url, alice, sid, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"block","arguments":{}}}`)
		if err != nil {
			a.body = err.Error()
		}
		call <- a
	}()
	<-b.started

	if a := do(t, "POST", url, bob, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); a.code != http.StatusForbidden {
		t.Errorf("bob using alice's session: %d %q, want 403", a.code, a.body)
	}
	if a := do(t, "DELETE", url, bob, sid, ""); a.code != http.StatusForbidden {
		t.Errorf("bob deleting alice's session: %d %q, want 403", a.code, a.body)
	}
	if a := do(t, "GET", url, bob, sid, ""); a.code != http.StatusForbidden {
		t.Errorf("bob opening alice's stream: %d %q, want 403", a.code, a.body)
	}
	select {
	case err := <-b.ended:
		t.Fatalf("alice's call ended (%v) after bob's DELETE", err)
	default:
	}
	if a := do(t, "POST", url, alice, sid, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`); a.code != 200 || !strings.Contains(a.body, `"block"`) {
		t.Errorf("alice's own session after bob's attempts: %d %q", a.code, a.body)
	}
	close(b.release)
	if a := <-call; a.code != 200 || !strings.Contains(a.body, "released") {
		t.Errorf("alice's call: %d %q, want its result", a.code, a.body)
	}
	if a := do(t, "DELETE", url, alice, sid, ""); a.code != http.StatusNoContent {
		t.Errorf("alice deleting her session: %d %q, want 204", a.code, a.body)
	}
}

// The owner's DELETE ends the owner's running call.
func TestOwnerDeleteEndsCalls(t *testing.T) {
	idp := oidctest.Start(t)
	b := newBlocker("owned")
	url := oauthServer(t, idp, b.srv, serve.HTTPOptions{})
	alice := idp.Token(t, map[string]any{"sub": "alice", "aud": url})
	sid := open(t, url, alice)
	go send("POST", url, alice, sid, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"block","arguments":{}}}`)
	<-b.started
	if a := do(t, "DELETE", url, alice, sid, ""); a.code != http.StatusNoContent {
		t.Errorf("DELETE: %d %q", a.code, a.body)
	}
	if err := <-b.ended; !errors.Is(err, context.Canceled) {
		t.Errorf("the call ended with %v, want it cancelled", err)
	}
}

// ServerFor chooses each session's server from its caller; ErrForbidden
// is 403, another error 500, and the server a caller got keeps serving
// that caller's session.
func TestServerFor(t *testing.T) {
	idp := oidctest.Start(t)
	servers := map[string]*blocker{"alice": newBlocker("alice"), "bob": newBlocker("bob")}
	var mu sync.Mutex
	calls := map[string]int{}
	serverFor := func(ctx context.Context, who *auth.TokenInfo) (*mcp.Server, error) {
		mu.Lock()
		calls[who.UserID]++
		mu.Unlock()
		if b, ok := servers[who.UserID]; ok {
			return b.srv, nil
		}
		if who.UserID == "dave" {
			return nil, fmt.Errorf("%w: no rule matches this caller", serve.ErrForbidden)
		}
		return nil, errors.New("the access file is broken")
	}
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprint("stateless=", stateless), func(t *testing.T) {
			url := oauthServer(t, idp, nil, serve.HTTPOptions{ServerFor: serverFor, Stateless: stateless})
			tok := func(sub string) string { return idp.Token(t, map[string]any{"sub": sub, "aud": url}) }
			for _, who := range []string{"alice", "bob", "alice"} {
				sid := ""
				if !stateless {
					sid = open(t, url, tok(who))
				}
				a := do(t, "POST", url, tok(who), sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
				other := map[string]string{"alice": "bob", "bob": "alice"}[who]
				if a.code != 200 || !strings.Contains(a.body, who+"_only") || strings.Contains(a.body, other+"_only") {
					t.Errorf("%s's tools/list: %d %q, want %s's tools only", who, a.code, a.body, who)
				}
			}
			if a := do(t, "POST", url, tok("dave"), "", initBody); a.code != http.StatusForbidden || !strings.Contains(a.body, "no rule matches") {
				t.Errorf("dave: %d %q, want 403 saying why", a.code, a.body)
			}
			if a := do(t, "POST", url, tok("erin"), "", initBody); a.code != http.StatusInternalServerError || strings.Contains(a.body, "access file") {
				t.Errorf("erin: %d %q, want 500 without the error's detail", a.code, a.body)
			}
		})
	}
}

// The zero options are mcp stream's defaults: a session cap, body limit,
// loopback only without authentication, health check, missing session
// header named.
func TestHTTPServerDefaults(t *testing.T) {
	b := newBlocker("d")
	hs, err := serve.NewHTTPServer(b.srv, serve.HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(hs.Handler())
	defer ts.Close()
	url := ts.URL + httpserve.DefaultPath
	if a := do(t, "POST", url, "", "", `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`); a.code != 200 || !strings.Contains(a.body, "missing the Mcp-Session-Id header") || !strings.Contains(a.body, `"id":5`) {
		t.Errorf("tools/list without a session: %d %q, want the missing header named", a.code, a.body)
	}
	if a := do(t, "POST", url, "", "", `{"jsonrpc":"2.0","method":"notifications/initialized"}`); a.code != 400 || !strings.Contains(a.body, "missing the Mcp-Session-Id header") {
		t.Errorf("a notification without a session: %d %q, want 400 naming the header", a.code, a.body)
	}
	// A body over 4 MiB is refused from its Content-Length, before it is
	// read. The client asks to send it (Expect: 100-continue, as curl
	// does for a large body) and gets the 413 instead; one that sent it
	// at once could get the server's reset of the unread rest first.
	big, err := http.NewRequest("POST", url, strings.NewReader(strings.Repeat(" ", httpserve.DefaultMaxBodyBytes+1)))
	if err != nil {
		t.Fatal(err)
	}
	big.Header.Set("Content-Type", "application/json")
	big.Header.Set("Expect", "100-continue")
	client := &http.Client{Transport: &http.Transport{ExpectContinueTimeout: time.Minute}}
	resp, err := client.Do(big)
	if err != nil {
		t.Fatalf("a body over 4 MiB: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a body over 4 MiB: %d, want 413", resp.StatusCode)
	}
	if a := do(t, "GET", ts.URL+httpserve.HealthPath, "", "", ""); a.code != 200 {
		t.Errorf("health: %d", a.code)
	}
	public := &net.TCPAddr{IP: net.ParseIP("192.0.2.1"), Port: 80}
	if err := hs.CheckExposure(public); !errors.Is(err, serve.ErrPublicWithoutAuth) {
		t.Errorf("CheckExposure of a public address without auth: %v", err)
	}
	// The session cap: 1000 sessions are admitted, the next one refused.
	for i := 0; i < httpserve.DefaultMaxSessions; i++ {
		if a := do(t, "POST", url, "", "", initBody); a.code != 200 || a.sid == "" {
			t.Fatalf("session %d: %d %q", i, a.code, a.body)
		}
	}
	if a := do(t, "POST", url, "", "", initBody); !strings.Contains(a.body, fmt.Sprint(serve.CodeTooManySessions)) {
		t.Errorf("session %d: %d %q, want refused", httpserve.DefaultMaxSessions+1, a.code, a.body)
	}
}

// With a static token there is no identity: ServerFor gets a nil caller.
func TestServerForStaticToken(t *testing.T) {
	const token = "a-static-token-0123456789"
	authn, err := serve.StaticToken([]byte(token))
	if err != nil {
		t.Fatal(err)
	}
	b := newBlocker("static")
	var got []*auth.TokenInfo
	hs, err := serve.NewHTTPServer(nil, serve.HTTPOptions{Auth: authn, ServerFor: func(_ context.Context, who *auth.TokenInfo) (*mcp.Server, error) {
		got = append(got, who)
		return b.srv, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(hs.Handler())
	defer ts.Close()
	if a := do(t, "POST", ts.URL+"/mcp", "", "", initBody); a.code != 401 {
		t.Errorf("without the token: %d", a.code)
	}
	open(t, ts.URL+"/mcp", token)
	if len(got) != 2 || got[0] != nil || got[1] != nil {
		t.Errorf("ServerFor saw %v, want a nil caller for each of the session's two requests", got)
	}
}

// ServerFor is asked for every request of a session, with that request's
// token: a request whose caller it now gives another server, or refuses,
// is answered 403 saying why, and nothing of it runs; the session goes on
// for requests whose token still gives its server. Another identity's
// request is the go-sdk's to refuse, and a DELETE always ends the
// session (issue 34, item 1).
func TestServerForEveryRequest(t *testing.T) {
	idp := oidctest.Start(t)
	full, reader := newBlocker("full"), newBlocker("reader")
	var ran atomic.Int32 // calls of the admin's tool that ran
	mcp.AddTool(full.srv, &mcp.Tool{Name: "delete_all"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		ran.Add(1)
		return &mcp.CallToolResult{}, nil, nil
	})
	var mu sync.Mutex
	var asked []string
	serverFor := func(_ context.Context, who *auth.TokenInfo) (*mcp.Server, error) {
		role, _ := who.Extra["role"].(string)
		mu.Lock()
		asked = append(asked, who.UserID+":"+role)
		mu.Unlock()
		switch role {
		case "admin":
			return full.srv, nil
		case "reader":
			return reader.srv, nil
		}
		return nil, fmt.Errorf("%w: no rule admits this caller", serve.ErrForbidden)
	}
	url := oauthServer(t, idp, nil, serve.HTTPOptions{ServerFor: serverFor})
	tok := func(sub, role string) string {
		return idp.Token(t, map[string]any{"sub": sub, "aud": url, "role": role})
	}
	call := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"delete_all","arguments":{}}}`

	sid := open(t, url, tok("alice", "admin"))
	if a := do(t, "POST", url, tok("alice", "admin"), sid, call); a.code != 200 || strings.Contains(a.body, `"isError":true`) {
		t.Fatalf("alice's call as admin: %d %q", a.code, a.body)
	}
	// Demoted: the same subject, a token that gives another server.
	for _, tt := range []struct{ role, want string }{
		{"reader", "your access changed since this session began"},
		{"none", "no rule admits this caller"},
	} {
		for _, m := range []struct{ method, body string }{{"POST", call}, {"GET", ""}} {
			// A GET that is not refused opens the session's stream, which
			// answers only when it ends.
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			a, err := mcphttp.SendContext(ctx, m.method, url, tok("alice", tt.role), sid, m.body)
			cancel()
			if err != nil || a.Code != http.StatusForbidden || !strings.Contains(a.Body, tt.want) {
				t.Errorf("alice as %s, %s on her admin session: %d %q %v, want 403 with %q", tt.role, m.method, a.Code, a.Body, err, tt.want)
			}
		}
	}
	// Promoted back: the session serves again.
	if a := do(t, "POST", url, tok("alice", "admin"), sid, `{"jsonrpc":"2.0","id":10,"method":"tools/list"}`); a.code != 200 || !strings.Contains(a.body, "full_only") {
		t.Errorf("alice as admin again: %d %q", a.code, a.body)
	}
	// Another identity: the go-sdk's refusal, whatever its token gives.
	if a := do(t, "POST", url, tok("bob", "admin"), sid, call); a.code != http.StatusForbidden || !strings.Contains(a.body, "session user mismatch") {
		t.Errorf("bob on alice's session: %d %q, want the go-sdk's 403", a.code, a.body)
	}
	// A session opened as a reader is the reader's server's.
	rsid := open(t, url, tok("carol", "reader"))
	if a := do(t, "POST", url, tok("carol", "admin"), rsid, call); a.code != http.StatusForbidden || !strings.Contains(a.body, "your access changed") {
		t.Errorf("carol promoted, on her reader session: %d %q, want 403", a.code, a.body)
	}
	// Her DELETE ends it, whatever her token gives now.
	if a := do(t, "DELETE", url, tok("carol", "none"), rsid, ""); a.code != http.StatusNoContent {
		t.Errorf("carol's DELETE: %d %q, want 204", a.code, a.body)
	}
	if n := ran.Load(); n != 1 {
		t.Errorf("the admin's tool ran %d times, want once (refused requests run nothing)", n)
	}
	mu.Lock()
	n := len(asked)
	mu.Unlock()
	// 2 opens × 2 requests, 1 call, 4 refusals, 1 list, 1 promoted call;
	// neither bob's request nor the DELETE asks.
	if n != 11 {
		t.Errorf("ServerFor asked %d times (%v), want once per request of an owner but DELETE: 11", n, asked)
	}
}

// A *ScopeError is answered 403 with the step-up challenge of the MCP
// authorization specification: error="insufficient_scope", the scopes
// that would admit the caller, and the metadata URL (issue 34, item 12).
func TestScopeChallenge(t *testing.T) {
	idp := oidctest.Start(t)
	url := oauthServer(t, idp, nil, serve.HTTPOptions{ServerFor: func(_ context.Context, who *auth.TokenInfo) (*mcp.Server, error) {
		return nil, &serve.ScopeError{Scopes: []string{"team.read", "team.write"}, Err: errors.New("access: no access rule admits this caller")}
	}})
	resp, err := mcphttp.Send("POST", url, idp.Token(t, map[string]any{"sub": "alice", "aud": url}), "", initBody)
	if err != nil {
		t.Fatal(err)
	}
	meta := strings.Replace(url, "/mcp", "/.well-known/oauth-protected-resource/mcp", 1)
	want := `Bearer error="insufficient_scope", scope="team.read team.write", resource_metadata="` + meta + `", error_description=`
	if got := resp.Header.Get("WWW-Authenticate"); resp.Code != http.StatusForbidden || !strings.HasPrefix(got, want) || !strings.Contains(resp.Body, "no access rule admits") {
		t.Errorf("%d %q, WWW-Authenticate %q; want 403 and %q", resp.Code, resp.Body, got, want)
	}
}
