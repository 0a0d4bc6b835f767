package hydra

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

var hydraBin, mycliBin string

func TestMain(m *testing.M) { os.Exit(runMain(m)) }

func runMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "cobramcp-hydra-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	build := func(env, out, pkgDir string, args ...string) (string, error) {
		if p := os.Getenv(env); p != "" {
			return filepath.Abs(p)
		}
		out = filepath.Join(dir, out)
		cmd := exec.Command("go", append([]string{"build", "-o", out}, args...)...)
		cmd.Dir = pkgDir
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		return out, cmd.Run()
	}
	// Hydra's in-memory database is SQLite, which needs cgo and the tag.
	if hydraBin, err = build("HYDRA_BIN", "hydra", ".", "-tags", "sqlite,sqlite_omit_load_extension", "github.com/ory/hydra/v2"); err != nil {
		fmt.Fprintln(os.Stderr, "building hydra:", err)
		return 1
	}
	if mycliBin, err = build("MYCLI_TEAM_BIN", "mycli", "../..", "./example/team"); err != nil {
		fmt.Fprintln(os.Stderr, "building mycli:", err)
		return 1
	}
	return m.Run()
}

// freeAddr and syncBuffer are test/proctest's FreeAddr and Buffer again:
// this module requires nothing of the root module, whose requirements would
// otherwise move Hydra's (OpenTelemetry, x/net) by minimal version
// selection, so that Hydra is built as its release's go.mod says.

// freeAddr returns a loopback address that was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// syncBuffer is a bytes.Buffer safe for one writer and many readers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// start runs bin with args and env (added to PATH and HOME), its stderr
// and stdout kept; it is ended with SIGTERM at the end of the test.
func start(t *testing.T, bin string, env []string, args ...string) *syncBuffer {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	return keep(t, cmd, filepath.Base(bin)+"'s output")
}

// keep starts cmd in a process group of its own, its stdout and stderr
// kept, and ends the group at the end of the test (SIGTERM, then SIGKILL
// after 20s), logging the output under what if the test failed.
func keep(t *testing.T, cmd *exec.Cmd, what string) *syncBuffer {
	t.Helper()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		if t.Failed() {
			t.Logf("%s:\n%s", what, out)
		}
	})
	return out
}

// waitHTTP waits until GET url answers 200.
func waitHTTP(t *testing.T, url string, out *syncBuffer) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not answer 200 within 60s (%v):\n%s", url, err, out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// user is who logs in at the login app.
type user struct {
	subject string
	email   string
	groups  []string
}

// idp is a running Hydra and the login and consent app that the test is.
type idp struct {
	issuer, admin string
	resource      string // the MCP URL each consent grants as audience
	out           *syncBuffer

	mu   sync.Mutex
	next user // who logs in next
}

// startHydra starts Hydra as docs/deploy.md sets it up for resource, with
// extra environment variables.
func startHydra(t *testing.T, resource string, extra ...string) *idp {
	t.Helper()
	pub, adm := freeAddr(t), freeAddr(t)
	h := &idp{issuer: "http://" + pub, admin: "http://" + adm, resource: resource}
	app := httptest.NewServer(http.HandlerFunc(h.serveApp))
	t.Cleanup(app.Close)
	_, pubPort, _ := net.SplitHostPort(pub)
	_, admPort, _ := net.SplitHostPort(adm)
	env := append([]string{
		"DSN=memory",
		"SECRETS_SYSTEM=a-system-secret-for-this-test-only",
		"URLS_SELF_ISSUER=" + h.issuer, // exactly the --oauth-issuer, no trailing slash
		"URLS_LOGIN=" + app.URL + "/login",
		"URLS_CONSENT=" + app.URL + "/consent",
		"SERVE_PUBLIC_HOST=127.0.0.1", "SERVE_PUBLIC_PORT=" + pubPort,
		"SERVE_ADMIN_HOST=127.0.0.1", "SERVE_ADMIN_PORT=" + admPort,
		"STRATEGIES_ACCESS_TOKEN=jwt",
		"OAUTH2_ALLOWED_TOP_LEVEL_CLAIMS=email,groups",
		"OIDC_DYNAMIC_CLIENT_REGISTRATION_ENABLED=true",
		"OIDC_DYNAMIC_CLIENT_REGISTRATION_DEFAULT_SCOPE=openid,offline_access,offline,mycli.read",
		"WEBFINGER_OIDC_DISCOVERY_CLIENT_REGISTRATION_URL=" + h.issuer + "/oauth2/register",
		"WEBFINGER_OIDC_DISCOVERY_SUPPORTED_SCOPE=mycli.read",
		"TTL_ACCESS_TOKEN=20s",
		"LOG_LEVEL=warn",
	}, extra...)
	h.out = start(t, hydraBin, env, "serve", "all", "--dev", "--sqa-opt-out")
	waitHTTP(t, h.admin+"/health/ready", h.out)
	waitHTTP(t, h.issuer+"/.well-known/openid-configuration", h.out)
	return h
}

// loginNext makes u the next person to log in.
func (h *idp) loginNext(u user) {
	h.mu.Lock()
	h.next = u
	h.mu.Unlock()
}

// serveApp is Hydra's login and consent app: it logs in the next user
// without asking, and grants what the client asked for, the MCP URL as
// audience, and the user's email and groups in the access token. It adds
// the MCP URL to the client's audience when the client lacks it, as
// Hydra's refresh grant needs.
func (h *idp) serveApp(w http.ResponseWriter, r *http.Request) {
	fail := func(err error) {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
	h.mu.Lock()
	u := h.next
	h.mu.Unlock()
	switch r.URL.Path {
	case "/login":
		var to struct {
			RedirectTo string `json:"redirect_to"`
		}
		if err := h.adminCall("PUT", "/admin/oauth2/auth/requests/login/accept?login_challenge="+url.QueryEscape(r.URL.Query().Get("login_challenge")),
			map[string]any{"subject": u.subject}, &to); err != nil {
			fail(err)
			return
		}
		http.Redirect(w, r, to.RedirectTo, http.StatusFound)
	case "/consent":
		challenge := url.QueryEscape(r.URL.Query().Get("consent_challenge"))
		var req struct {
			RequestedScope []string `json:"requested_scope"`
			Client         struct {
				ClientID string   `json:"client_id"`
				Audience []string `json:"audience"`
			} `json:"client"`
		}
		if err := h.adminCall("GET", "/admin/oauth2/auth/requests/consent?consent_challenge="+challenge, nil, &req); err != nil {
			fail(err)
			return
		}
		if !slices.Contains(req.Client.Audience, h.resource) {
			patch := []map[string]any{{"op": "add", "path": "/audience/-", "value": h.resource}}
			if req.Client.Audience == nil {
				patch = []map[string]any{{"op": "add", "path": "/audience", "value": []string{h.resource}}}
			}
			if err := h.adminCall("PATCH", "/admin/clients/"+url.PathEscape(req.Client.ClientID), patch, nil); err != nil {
				fail(err)
				return
			}
		}
		var to struct {
			RedirectTo string `json:"redirect_to"`
		}
		if err := h.adminCall("PUT", "/admin/oauth2/auth/requests/consent/accept?consent_challenge="+challenge, map[string]any{
			"grant_scope":                 req.RequestedScope,
			"grant_access_token_audience": []string{h.resource},
			"session":                     map[string]any{"access_token": map[string]any{"email": u.email, "groups": u.groups}},
		}, &to); err != nil {
			fail(err)
			return
		}
		http.Redirect(w, r, to.RedirectTo, http.StatusFound)
	default:
		http.NotFound(w, r)
	}
}

// adminCall sends body (JSON) to Hydra's admin API and decodes its answer
// into out (when not nil).
func (h *idp) adminCall(method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, h.admin+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if method == "PATCH" {
		req.Header.Set("Content-Type", "application/json-patch+json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s %s", method, path, resp.Status, b)
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// browser returns the AuthorizationCodeFetcher of a person who opens the
// authorization URL and whose browser follows the redirects (login,
// consent) to the client's redirect URL.
func browser(t *testing.T, redirect string) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		jar, _ := cookiejar.New(nil)
		var landed *url.URL
		c := &http.Client{Jar: jar, CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if strings.HasPrefix(req.URL.String(), redirect) {
				landed = req.URL
				return http.ErrUseLastResponse
			}
			if len(via) > 20 {
				return errors.New("too many redirects")
			}
			return nil
		}}
		req, _ := http.NewRequestWithContext(ctx, "GET", args.URL, nil)
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if landed == nil {
			return nil, fmt.Errorf("the browser did not reach %s: %s %s", redirect, resp.Status, b)
		}
		q := landed.Query()
		if e := q.Get("error"); e != "" {
			return nil, fmt.Errorf("authorization refused: %s: %s", e, q.Get("error_description"))
		}
		return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
	}
}

// register registers a client the way an MCP client does (RFC 7591), at
// the registration_endpoint that Hydra's discovery document advertises.
// The go-sdk's own registration (v1.8.0) cannot read Hydra's answer: it
// takes the answer's "jwks" for a string, and Hydra sends an object.
func (h *idp) register(t *testing.T, redirect string) *oauthex.ClientCredentials {
	t.Helper()
	var disco struct {
		Registration string   `json:"registration_endpoint"`
		Scopes       []string `json:"scopes_supported"`
	}
	resp, err := http.Get(h.issuer + "/.well-known/openid-configuration")
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&disco)
	resp.Body.Close()
	if disco.Registration == "" {
		t.Fatal("Hydra's discovery document has no registration_endpoint")
	}
	if !slices.Contains(disco.Scopes, "offline_access") {
		t.Errorf("Hydra's scopes_supported %v lacks offline_access", disco.Scopes)
	}
	b, _ := json.Marshal(map[string]any{"client_name": "hydra-e2e", "redirect_uris": []string{redirect},
		"grant_types": []string{"authorization_code", "refresh_token"}, "response_types": []string{"code"},
		"token_endpoint_auth_method": "client_secret_post"}) // how the go-sdk sends a registered client's secret
	resp, err = http.Post(disco.Registration, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var c struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
		Scope        string `json:"scope"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil || resp.StatusCode != http.StatusCreated || c.ClientID == "" {
		t.Fatalf("registering at %s: %s %v", disco.Registration, resp.Status, err)
	}
	if !strings.Contains(c.Scope, "mycli.read") || !strings.Contains(c.Scope, "offline_access") {
		t.Errorf("a registered client may ask for %q, want mycli.read and offline_access (the default scope of registration)", c.Scope)
	}
	return &oauthex.ClientCredentials{ClientID: c.ClientID, ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: c.ClientSecret}}
}

// mcpClient is the go-sdk client logging in by itself (with a client
// registered by register): authorization code with PKCE, the resource
// parameter, refresh tokens, step-up.
func mcpClient(t *testing.T, h *idp, endpoint string) (*mcp.ClientSession, *auth.AuthorizationCodeHandler, error) {
	t.Helper()
	const redirect = "http://127.0.0.1:1/callback"
	handler, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		PreregisteredClient:      h.register(t, redirect),
		RedirectURL:              redirect,
		AuthorizationCodeFetcher: browser(t, redirect),
		RequestRefreshToken:      true,
		AcceptUnadvertisedIss:    true,
	})
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "hydra-e2e", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, OAuthHandler: handler, MaxRetries: -1}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, handler, err
}

// claims decodes a JWT's claims without verifying it.
func claims(t *testing.T, jwt string) map[string]any {
	t.Helper()
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		t.Fatalf("the access token is not a JWT: %.40s...", jwt)
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

var urlRE = regexp.MustCompile(`msg="serving MCP over streamable HTTP" url=(\S+)`)

// startMycli runs `mycli mcp stream` on addr as the resource server of
// issuer, with args, and waits until it serves.
func startMycli(t *testing.T, addr, issuer string, args ...string) *syncBuffer {
	t.Helper()
	args = append([]string{"mcp", "stream", "--addr", addr, "--oauth-issuer", issuer, "--oauth-resource", "http://" + addr + "/mcp"}, args...)
	out := start(t, mycliBin, []string{"MYCLI_STATE=" + filepath.Join(t.TempDir(), "state.json")}, args...)
	deadline := time.Now().Add(30 * time.Second)
	for !urlRE.MatchString(out.String()) {
		if time.Now().After(deadline) {
			t.Fatalf("mycli mcp stream did not serve within 30s:\n%s", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return out
}

func toolNames(l *mcp.ListToolsResult) []string {
	var out []string
	for _, tool := range l.Tools {
		out = append(out, tool.Name)
	}
	return out
}

// An admin logs in through Hydra with the go-sdk client, which registers
// itself, runs the authorization code flow with PKCE, and refreshes its
// token; a person whose token no rule admits is asked for the scope a
// rule wants (step-up), gets it, and is served read-only; an opaque token
// is refused saying what to configure; an issuer given with a trailing
// slash Hydra's tokens do not have stops the server at start.
func TestHydraLogin(t *testing.T) {
	addr := freeAddr(t)
	resource := "http://" + addr + "/mcp"
	h := startHydra(t, resource)
	dir := t.TempDir()
	accessFile := filepath.Join(dir, "access.json")
	if err := os.WriteFile(accessFile, []byte(`{"rules": [
		{"group": "admins"},
		{"scope": "mycli.read", "read-only": true}
	]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	// The metadata offers openid alone: the read scope is asked for by
	// step-up, when a rule wants it.
	out := startMycli(t, addr, h.issuer, "--access", accessFile, "--oauth-scopes", "openid")
	ctx := context.Background()

	t.Run("admin", func(t *testing.T) {
		h.loginNext(user{subject: "alice", email: "alice@example.com", groups: []string{"admins"}})
		cs, handler, err := mcpClient(t, h, resource)
		if err != nil {
			t.Fatalf("the go-sdk client's login through Hydra: %v", err)
		}
		l, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(toolNames(l), "mycli_delete_pod") {
			t.Errorf("the admin lists %v, want every tool", toolNames(l))
		}
		ts, err := handler.TokenSource(ctx)
		if err != nil {
			t.Fatal(err)
		}
		tok, err := ts.Token()
		if err != nil {
			t.Fatal(err)
		}
		c := claims(t, tok.AccessToken)
		aud, _ := c["aud"].([]any)
		if c["iss"] != h.issuer || !slices.Contains(aud, any(resource)) || c["sub"] != "alice" || c["email"] != "alice@example.com" || fmt.Sprint(c["groups"]) != "[admins]" {
			t.Errorf("Hydra's access token: %v, want iss %s, aud with %s, sub, and email and groups at the top", c, h.issuer, resource)
		}
		if tok.RefreshToken == "" {
			t.Error("no refresh token: offline_access was not granted")
		}
		// The token lives 20s: a call after that refreshes it.
		time.Sleep(time.Until(tok.Expiry) + time.Second)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_version", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("a call after the token expired (refresh): %v %+v", err, res)
		}
		fresh, err := ts.Token()
		if err != nil {
			t.Fatal(err)
		}
		if fresh.AccessToken == tok.AccessToken {
			t.Error("the token was not refreshed")
		}
		if aud, _ := claims(t, fresh.AccessToken)["aud"].([]any); !slices.Contains(aud, any(resource)) {
			t.Errorf("the refreshed token's aud %v lacks %s", aud, resource)
		}
	})

	t.Run("step-up", func(t *testing.T) {
		h.loginNext(user{subject: "bob", email: "bob@example.com", groups: []string{"dev"}})
		cs, handler, err := mcpClient(t, h, resource)
		if err != nil {
			t.Fatalf("bob's login, with step-up: %v", err)
		}
		l, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Tools) == 0 || slices.Contains(toolNames(l), "mycli_delete_pod") {
			t.Errorf("bob lists %v, want the read-only tools", toolNames(l))
		}
		ts, _ := handler.TokenSource(ctx)
		tok, err := ts.Token()
		if err != nil {
			t.Fatal(err)
		}
		if scope, _ := claims(t, tok.AccessToken)["scp"].([]any); !slices.Contains(scope, any("mycli.read")) {
			t.Errorf("bob's token has scopes %v, want mycli.read (asked for by step-up)", scope)
		}
		if !strings.Contains(out.String(), "a scope would admit the caller") {
			t.Errorf("the server did not challenge bob for a scope:\n%s", out)
		}
	})

	t.Run("opaque token", func(t *testing.T) {
		var client struct {
			ClientID     string `json:"client_id"`
			ClientSecret string `json:"client_secret"`
		}
		if err := h.adminCall("POST", "/admin/clients", map[string]any{
			"grant_types": []string{"client_credentials"}, "audience": []string{resource},
			"access_token_strategy": "opaque", "scope": "mycli.read", "token_endpoint_auth_method": "client_secret_post",
		}, &client); err != nil {
			t.Fatal(err)
		}
		resp, err := http.PostForm(h.issuer+"/oauth2/token", url.Values{"grant_type": {"client_credentials"}, "client_id": {client.ClientID},
			"client_secret": {client.ClientSecret}, "audience": {resource}, "scope": {"mycli.read"}})
		if err != nil {
			t.Fatal(err)
		}
		var tok struct {
			AccessToken string `json:"access_token"`
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		json.Unmarshal(b, &tok)
		if tok.AccessToken == "" || strings.Count(tok.AccessToken, ".") == 2 {
			t.Fatalf("Hydra's opaque token: %s %s", resp.Status, b)
		}
		req, _ := http.NewRequest("POST", resource, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`))
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 401 {
			t.Errorf("an opaque token: %s, want 401", resp.Status)
		}
		const want = "this token is not a JWT: configure your provider to issue JWT access tokens"
		deadline := time.Now().Add(5 * time.Second)
		for !strings.Contains(out.String(), want) {
			if time.Now().After(deadline) {
				t.Fatalf("the server's log does not say %q:\n%s", want, out)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})

	t.Run("issuer with a trailing slash", func(t *testing.T) {
		addr := freeAddr(t)
		cmd := exec.Command(mycliBin, "mcp", "stream", "--addr", addr, "--oauth-issuer", h.issuer+"/", "--oauth-resource", "http://"+addr+"/mcp")
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		b, err := exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...).CombinedOutput()
		if err == nil || !strings.Contains(string(b), h.issuer) {
			t.Errorf("--oauth-issuer %s/: %v\n%s\nwant a refusal at start naming the issuer", h.issuer, err, b)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			t.Log(sc.Text())
		}
	})
}
