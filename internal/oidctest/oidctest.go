// Package oidctest runs an OpenID Connect provider inside the test process
// (github.com/oauth2-proxy/mockoidc: discovery, JWKS, authorization code
// with PKCE) that signs access tokens with the claims a test chooses and
// rotates its signing key on demand. It is for tests only.
//
//	idp := oidctest.Start(t)
//	tok := idp.Token(t, map[string]any{"sub": "alice", "aud": "http://127.0.0.1:8080/mcp", "groups": []string{"admins"}})
package oidctest

import (
	"encoding/json"
	"net"
	"net/http"
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

	fetches atomic.Int64
	stopped atomic.Bool
}

// Start starts a provider on a loopback port; it stops when the test ends.
// Its issuer URL has a path (http://127.0.0.1:PORT/oidc), as Keycloak's.
func Start(t testing.TB) *Provider {
	t.Helper()
	m, err := mockoidc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
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
	if typ == "" {
		delete(tok.Header, "typ")
	} else {
		tok.Header["typ"] = typ
	}
	s, err := tok.SignedString(kp.PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
