// Package oidctest runs an OpenID Connect provider inside the test process
// (github.com/oauth2-proxy/mockoidc: discovery, JWKS, authorization code
// with PKCE) that signs access tokens with the claims a test chooses and
// rotates its signing key on demand. It is for tests only.
//
//	idp := oidctest.Start(t)
//	tok := idp.Token(t, map[string]any{"sub": "alice", "aud": "http://127.0.0.1:8080/mcp", "groups": []string{"admins"}})
package oidctest

import (
	"crypto/rand"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/oauth2-proxy/mockoidc"
)

// Provider is a running test provider.
type Provider struct {
	m      *mockoidc.MockOIDC
	issuer string

	mu        sync.Mutex
	signer    *mockoidc.Keypair
	published []*mockoidc.Keypair

	cacheControl string // the key set's Cache-Control header, when set

	fetches atomic.Int64
	stopped atomic.Bool
}

// Start starts a provider on a loopback port; it stops when the test ends.
// Its issuer URL has a path (http://127.0.0.1:PORT/oidc), as Keycloak's.
func Start(t testing.TB) *Provider { return StartFor(t, "") }

// StartFor is Start with the id of the provider's one client: the access
// tokens of its authorization code flow (Login) carry it as audience, so
// that a resource URL makes them tokens for that resource. Empty means a
// random id.
func StartFor(t testing.TB, clientID string) *Provider {
	t.Helper()
	m, err := mockoidc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	if clientID != "" {
		m.ClientID = clientID
	}
	p := &Provider{m: m, signer: m.Keypair, published: []*mockoidc.Keypair{m.Keypair}}
	// The key set is served from the published keys, which Rotate changes.
	m.AddMiddleware(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != mockoidc.JWKSEndpoint {
				next.ServeHTTP(w, r)
				return
			}
			p.fetches.Add(1)
			w.Header().Set("Content-Type", "application/json")
			p.mu.Lock()
			if p.cacheControl != "" {
				w.Header().Set("Cache-Control", p.cacheControl)
			}
			p.mu.Unlock()
			w.Write(p.jwks(t))
		})
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Start(ln, nil); err != nil {
		t.Fatal(err)
	}
	p.issuer = m.Issuer()
	t.Cleanup(p.Stop)
	return p
}

// Issuer returns the issuer URL, as tokens' iss claim has it.
func (p *Provider) Issuer() string { return p.issuer }

// MockOIDC returns the mockoidc server, for its authorization code flow.
func (p *Provider) MockOIDC() *mockoidc.MockOIDC { return p.m }

// Stop stops the provider: its discovery and keys become unreachable.
func (p *Provider) Stop() {
	if p.stopped.CompareAndSwap(false, true) {
		p.m.Shutdown()
	}
}

// Login runs the provider's authorization code flow with PKCE (S256) for
// user, as a client would without the browser, and returns the access
// token that the provider's token endpoint issued (signed with its first
// key, audience the client id).
func (p *Provider) Login(t testing.TB, user *mockoidc.MockUser) string {
	t.Helper()
	verifier := rand.Text() + rand.Text()
	challenge, err := mockoidc.GenerateCodeChallenge(mockoidc.CodeChallengeMethodS256, verifier)
	if err != nil {
		t.Fatal(err)
	}
	p.m.QueueUser(user)
	const redirect = "http://127.0.0.1/callback"
	q := url.Values{"client_id": {p.m.ClientID}, "response_type": {"code"}, "scope": {"openid email groups"},
		"state": {"s"}, "redirect_uri": {redirect}, "code_challenge": {challenge}, "code_challenge_method": {"S256"}}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get(p.m.AuthorizationEndpoint() + "?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || loc.Query().Get("code") == "" {
		t.Fatalf("authorize: %s, Location %q", resp.Status, resp.Header.Get("Location"))
	}
	resp, err = http.PostForm(p.m.TokenEndpoint(), url.Values{"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")},
		"client_id": {p.m.ClientID}, "client_secret": {p.m.ClientSecret}, "redirect_uri": {redirect}, "code_verifier": {verifier}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil || tok.AccessToken == "" {
		t.Fatalf("token endpoint: %s, %v", resp.Status, err)
	}
	return tok.AccessToken
}

// JWKSFetches returns how many times the key set was fetched.
func (p *Provider) JWKSFetches() int64 { return p.fetches.Load() }

func (p *Provider) jwks(t testing.TB) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	for _, kp := range p.published {
		b, err := kp.JWKS()
		if err != nil {
			t.Error(err)
			continue
		}
		var one struct {
			Keys []json.RawMessage `json:"keys"`
		}
		json.Unmarshal(b, &one)
		set.Keys = append(set.Keys, one.Keys...)
	}
	b, _ := json.Marshal(set)
	return b
}

// SetKeyCacheControl sets the Cache-Control header of the key set's
// answers ("max-age=60"); "" sends none.
func (p *Provider) SetKeyCacheControl(v string) {
	p.mu.Lock()
	p.cacheControl = v
	p.mu.Unlock()
}

// NewKey returns a new RSA key pair, published nowhere.
func NewKey(t testing.TB) *mockoidc.Keypair {
	t.Helper()
	kp, err := mockoidc.RandomKeypair(2048)
	if err != nil {
		t.Fatal(err)
	}
	return kp
}

// Rotate makes a new key the signing key and the only published one (the
// old key is withdrawn), and returns it.
func (p *Provider) Rotate(t testing.TB) *mockoidc.Keypair {
	kp := NewKey(t)
	p.mu.Lock()
	p.signer, p.published = kp, []*mockoidc.Keypair{kp}
	p.mu.Unlock()
	return kp
}

// Token returns an access token (header typ JWT) signed with the current
// key, with claims; iss, iat and exp (10 minutes on) are added when
// absent, and a claim given as nil is left out.
func (p *Provider) Token(t testing.TB, claims map[string]any) string {
	p.mu.Lock()
	kp := p.signer
	p.mu.Unlock()
	return p.Sign(t, kp, "JWT", claims)
}

// Sign is Token with the key kp and the header typ (none when empty).
func (p *Provider) Sign(t testing.TB, kp *mockoidc.Keypair, typ string, claims map[string]any) string {
	t.Helper()
	var typv any
	if typ != "" {
		typv = typ
	}
	return p.SignWith(t, kp, map[string]any{"typ": typv}, claims)
}

// SignWith is Token with the key kp and header fields set (a field given
// as nil is left out: {"kid": nil} names no key); alg is RS256 and kid
// kp's unless header says otherwise.
func (p *Provider) SignWith(t testing.TB, kp *mockoidc.Keypair, header map[string]any, claims map[string]any) string {
	t.Helper()
	now := time.Now()
	mc := jwt.MapClaims{"iss": p.issuer, "iat": now.Unix(), "exp": now.Add(10 * time.Minute).Unix()}
	for k, v := range claims {
		if v == nil {
			delete(mc, k)
		} else {
			mc[k] = v
		}
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, mc)
	kid, err := kp.KeyID()
	if err != nil {
		t.Fatal(err)
	}
	tok.Header["kid"] = kid
	for k, v := range header {
		if v == nil {
			delete(tok.Header, k)
		} else {
			tok.Header[k] = v
		}
	}
	s, err := tok.SignedString(kp.PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
