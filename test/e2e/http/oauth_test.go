package httpe2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oauth2-proxy/mockoidc"

	"github.com/cobramcp/cobramcp/internal/oidctest"
	"github.com/cobramcp/cobramcp/test/mcphttp"
	"github.com/cobramcp/cobramcp/test/proctest"
)

// oauthServer starts `mycli mcp stream` as the resource server of idp, on
// a free loopback port whose URL is the resource, with the OAuth settings
// given by flags (or, with env, by MYCLI_MCP_OAUTH_*).
func oauthServer(t testing.TB, idp *oidctest.Provider, viaEnv bool, args ...string) *server {
	t.Helper()
	return oauthServerAt(t, proctest.FreeAddr(t), idp, viaEnv, args...)
}

// oauthServerAt is oauthServer on addr.
func oauthServerAt(t testing.TB, addr string, idp *oidctest.Provider, viaEnv bool, args ...string) *server {
	t.Helper()
	resource := "http://" + addr + "/mcp"
	var env []string
	if viaEnv {
		env = []string{"MYCLI_MCP_OAUTH_ISSUER=" + idp.Issuer(), "MYCLI_MCP_OAUTH_RESOURCE=" + resource}
	} else {
		args = append(args, "--oauth-issuer", idp.Issuer(), "--oauth-resource", resource)
	}
	s, err := tryStartServer(t, env, append([]string{"--addr", addr}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	if s.url != resource {
		t.Fatalf("serving at %s, want %s", s.url, resource)
	}
	return s
}

func request(t *testing.T, method, url, token, sid, body string) (int, http.Header, string) {
	t.Helper()
	a, err := mcphttp.Send(method, url, token, sid, body)
	if err != nil {
		t.Fatal(err)
	}
	return a.Code, a.Header, a.Body
}

// `mycli mcp stream --oauth-issuer --oauth-resource` against a provider in
// the test process: the challenges, the metadata, a client with a token,
// and sessions that belong to their identity.
func TestOAuth(t *testing.T) {
	idp := oidctest.Start(t)
	for _, viaEnv := range []bool{false, true} {
		t.Run(fmt.Sprint("env=", viaEnv), func(t *testing.T) {
			s := oauthServer(t, idp, viaEnv)
			alice := idp.Token(t, map[string]any{"sub": "alice", "aud": s.url, "scope": "mycli.read"})
			bob := idp.Token(t, map[string]any{"sub": "bob", "aud": s.url})
			meta := s.base + "/.well-known/oauth-protected-resource/mcp"

			code, h, _ := request(t, "POST", s.url, "", "", initialize)
			if got := h.Get("WWW-Authenticate"); code != 401 || got != `Bearer resource_metadata="`+meta+`"` {
				t.Errorf("no token: %d %q", code, got)
			}
			wrongAud := idp.Token(t, map[string]any{"sub": "alice", "aud": "http://elsewhere/mcp"})
			expired := idp.Token(t, map[string]any{"sub": "alice", "aud": s.url, "exp": time.Now().Add(-time.Hour).Unix()})
			for name, tok := range map[string]string{"wrong audience": wrongAud, "expired": expired, "another key": idp.Sign(t, oidctest.NewKey(t), "JWT", map[string]any{"sub": "alice", "aud": s.url})} {
				code, h, _ := request(t, "POST", s.url, tok, "", initialize)
				if got := h.Get("WWW-Authenticate"); code != 401 || got != `Bearer error="invalid_token", resource_metadata="`+meta+`"` {
					t.Errorf("%s: %d %q", name, code, got)
				}
			}
			if code, _, body := request(t, "POST", s.url+"?access_token="+alice, "", "", initialize); code != 400 || !strings.Contains(body, "query string") {
				t.Errorf("token in the query: %d %q", code, body)
			}
			for _, p := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
				code, _, body := request(t, "GET", s.base+p, "", "", "")
				var doc struct {
					Resource             string   `json:"resource"`
					AuthorizationServers []string `json:"authorization_servers"`
					Bearer               []string `json:"bearer_methods_supported"`
					Scopes               []string `json:"scopes_supported"`
				}
				json.Unmarshal([]byte(body), &doc)
				if code != 200 || doc.Resource != s.url || !slices.Equal(doc.AuthorizationServers, []string{idp.Issuer()}) || !slices.Equal(doc.Bearer, []string{"header"}) || len(doc.Scopes) == 0 {
					t.Errorf("GET %s: %d %s", p, code, body)
				}
			}

			// A client with a token lists and calls.
			cs := mustConnect(t, s, alice)
			if out, err := callEcho(context.Background(), cs, "hi"); err != nil || strings.Join(out.Args, " ") != "hi" {
				t.Errorf("alice's call: %+v %v", out, err)
			}

			// Alice's session is hers.
			code, h, body := request(t, "POST", s.url, alice, "", initialize)
			sid := h.Get("Mcp-Session-Id")
			if code != 200 || sid == "" {
				t.Fatalf("alice's initialize: %d %s", code, body)
			}
			request(t, "POST", s.url, alice, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			if code, _, body := request(t, "POST", s.url, bob, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); code != 403 {
				t.Errorf("bob on alice's session: %d %s", code, body)
			}
			if code, _, body := request(t, "DELETE", s.url, bob, sid, ""); code != 403 {
				t.Errorf("bob deleting alice's session: %d %s", code, body)
			}
			if code, _, body := request(t, "POST", s.url, alice, sid, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`); code != 200 || !strings.Contains(body, "mycli_echo") {
				t.Errorf("alice after bob's attempts: %d %s", code, body)
			}
			if code, _, body := request(t, "DELETE", s.url, alice, sid, ""); code != 204 {
				t.Errorf("alice deleting her session: %d %s", code, body)
			}
		})
	}
}

// In stateless mode every request is checked on its own: a client with a
// token calls, one without is refused.
func TestOAuthStateless(t *testing.T) {
	idp := oidctest.Start(t)
	s := oauthServer(t, idp, false, "--stateless")
	if code, _, _ := request(t, "POST", s.url, "", "", initialize); code != 401 {
		t.Errorf("no token: %d", code)
	}
	cs := mustConnect(t, s, idp.Token(t, map[string]any{"sub": "alice", "aud": s.url}))
	if out, err := callEcho(context.Background(), cs, "stateless"); err != nil || strings.Join(out.Args, " ") != "stateless" {
		t.Errorf("alice's call: %+v %v", out, err)
	}
}

// The settings that cannot serve stop the server at start with a message
// that says why.
func TestOAuthRefusedSettings(t *testing.T) {
	idp := oidctest.Start(t)
	deadURL := "http://" + proctest.FreeAddr(t) + "/realms/team"
	tests := []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"token and OAuth", []string{"MYCLI_MCP_TOKEN=" + testToken}, []string{"--oauth-issuer", idp.Issuer(), "--oauth-resource", "http://127.0.0.1:1/mcp"}, "keep one"},
		{"issuer unreachable", nil, []string{"--oauth-issuer", deadURL, "--oauth-resource", "http://127.0.0.1:1/mcp"}, "cannot discover the OAuth issuer " + deadURL},
		{"issuer without resource", nil, []string{"--oauth-issuer", idp.Issuer()}, "needs --oauth-resource"},
		{"resource without issuer", []string{"MYCLI_MCP_OAUTH_RESOURCE=http://127.0.0.1:1/mcp"}, nil, "needs --oauth-issuer"},
		{"resource not a URL", nil, []string{"--oauth-issuer", idp.Issuer(), "--oauth-resource", "mcp"}, "want the absolute http(s) URL"},
		{"key refresh zero", nil, []string{"--oauth-issuer", idp.Issuer(), "--oauth-resource", "http://127.0.0.1:1/mcp", "--oauth-key-refresh", "0"}, "--oauth-key-refresh 0s: want a positive duration"},
		{"key refresh variable not a duration", []string{"MYCLI_MCP_OAUTH_KEY_REFRESH=soon"}, []string{"--oauth-issuer", idp.Issuer(), "--oauth-resource", "http://127.0.0.1:1/mcp"}, `$MYCLI_MCP_OAUTH_KEY_REFRESH "soon": want a duration`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tryStartServer(t, tt.env, append([]string{"--addr", "127.0.0.1:0"}, tt.args...)...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an exit saying %q", err, tt.want)
			}
		})
	}
	// OAuth counts as authentication: a public address is served.
	s, err := tryStartServer(t, nil, "--addr", "0.0.0.0:0", "--oauth-issuer", idp.Issuer(), "--oauth-resource", "http://mcp.example/mcp")
	if err != nil {
		t.Errorf("OAuth on a public address: %v", err)
	} else if strings.Contains(s.stderr.String(), "WITHOUT AUTHENTICATION") {
		t.Errorf("warned of no authentication:\n%s", s.stderr)
	}
}

// The official TypeScript SDK client connects with an access token that
// the provider issued through its authorization code flow (PKCE), lists
// and calls.
func TestOAuthTypeScriptClient(t *testing.T) {
	dir := nodeModules(t)
	addr := proctest.FreeAddr(t)
	idp := oidctest.StartFor(t, "http://"+addr+"/mcp")
	s := oauthServerAt(t, addr, idp, false)
	tok := idp.Login(t, &mockoidc.MockUser{Subject: "alice", Email: "alice@example.com", Groups: []string{"admins"}})
	steps := runHTTPClient(t, dir, s.url, tok, s.stderr, func(st tsStep, stdin io.Writer) {
		switch st.Step {
		case "cancel-started":
			io.WriteString(stdin, "cancel\n")
		case "cancel":
			io.WriteString(stdin, "close\n")
		}
	})
	if u := steps["unauthorized"]; u.Code != 401 {
		t.Errorf("a wrong token: %+v, want an error with code 401", u)
	}
	if tools := steps["list"].Tools; !slices.Contains(tools, "mycli_echo") {
		t.Errorf("tools/list: %v", tools)
	}
	var call tsResult
	json.Unmarshal(steps["call"].Result, &call)
	var echo echoOut
	json.Unmarshal([]byte(call.StructuredContent.Stdout), &echo)
	if call.IsError || strings.Join(echo.Args, " ") != "from typescript" {
		t.Errorf("call: %s", steps["call"].Result)
	}
	if _, ok := steps["done"]; !ok {
		t.Error("the script did not finish")
	}
}
