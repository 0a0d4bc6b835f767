package oauth_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/cobramcp/cobramcp/internal/caller"
	"github.com/cobramcp/cobramcp/internal/oidctest"
	"github.com/cobramcp/cobramcp/oauth"
	"github.com/cobramcp/cobramcp/serve"
	"github.com/cobramcp/cobramcp/test/proctest"
)

const resource = "http://127.0.0.1:8080/mcp"

// errNotJWT is what an opaque token is told.
const errNotJWT = "this token is not a JWT: configure your provider to issue JWT access tokens"

func newRS(t *testing.T, idp *oidctest.Provider) *oauth.ResourceServer {
	t.Helper()
	rs, err := oauth.New(context.Background(), serve.OAuthConfig{Issuer: idp.Issuer(), Resource: resource, Scopes: []string{"mycli.read", "mycli.write"}})
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// unsigned returns a token with alg none and claims.
func unsigned(claims map[string]any) string {
	h, _ := json.Marshal(map[string]any{"alg": "none", "typ": "JWT"})
	c, _ := json.Marshal(claims)
	return base64.RawURLEncoding.EncodeToString(h) + "." + base64.RawURLEncoding.EncodeToString(c) + "."
}

func TestVerify(t *testing.T) {
	idp := oidctest.Start(t)
	rs := newRS(t, idp)
	other := oidctest.NewKey(t)
	sameKid := oidctest.NewKey(t)
	sameKid.Kid, _ = idp.MockOIDC().Keypair.KeyID()
	now := time.Now()
	good := map[string]any{"sub": "alice", "aud": resource, "scope": "mycli.read openid", "groups": []string{"viewers"}, "email": "alice@example.com"}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for a, b := range good {
			m[a] = b
		}
		m[k] = v
		return m
	}
	kp := idp.MockOIDC().Keypair
	hs256, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"iss": idp.Issuer(), "sub": "alice", "aud": resource, "exp": now.Add(time.Minute).Unix()}).SignedString([]byte("a shared secret of some length"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		token   string
		wantErr string // "" when valid
	}{
		{"valid, typ JWT", idp.Token(t, good), ""},
		{"valid, typ at+jwt", idp.Sign(t, kp, "at+jwt", good), ""},
		{"valid, typ application/at+jwt", idp.Sign(t, kp, "application/at+jwt", good), ""},
		{"valid, no typ", idp.Sign(t, kp, "", good), ""},
		{"valid, audience among others", idp.Token(t, with("aud", []string{"https://other.example", resource})), ""},
		{"expired within the clock skew", idp.Token(t, with("exp", now.Add(-10*time.Second).Unix())), ""},
		{"wrong audience", idp.Token(t, with("aud", "https://other.example/mcp")), "expected audience"},
		{"no audience", idp.Token(t, with("aud", nil)), "expected audience"},
		{"expired", idp.Token(t, with("exp", now.Add(-5*time.Minute).Unix())), "expired"},
		{"no exp", idp.Token(t, with("exp", nil)), "expired"},
		{"not yet valid", idp.Token(t, with("nbf", now.Add(3*time.Minute).Unix())), "not valid before"},
		{"another issuer", idp.Token(t, with("iss", "https://evil.example")), "different provider"},
		{"signed by another key", idp.Sign(t, other, "JWT", good), "verify"},
		{"another key with the published kid", idp.Sign(t, sameKid, "JWT", good), "verify"},
		{"alg none", unsigned(with("iss", idp.Issuer())), "alg none"},
		{"HS256 with a shared secret", hs256, "malformed"},
		{"an ID token type", idp.Sign(t, kp, "id_token+jwt", good), "not an access token"},
		{"no sub", idp.Token(t, with("sub", nil)), "no sub"},
		{"nbf a string 200s ahead", idp.Token(t, with("nbf", fmt.Sprint(now.Add(200*time.Second).Unix()))), "nbf is a string, not a number"},
		{"nbf a string in the past", idp.Token(t, with("nbf", fmt.Sprint(now.Add(-time.Hour).Unix()))), "nbf is a string, not a number"},
		{"exp a string", idp.Token(t, with("exp", fmt.Sprint(now.Add(time.Hour).Unix()))), "exp is a string, not a number"},
		{"iat a string", idp.Token(t, with("iat", fmt.Sprint(now.Unix()))), "iat is a string, not a number"},
		{"iat null", idp.Token(t, with("iat", json.RawMessage("null"))), "unmarshal claims"}, // go-oidc refuses it first
		{"nbf an object", idp.Token(t, with("nbf", map[string]any{"t": 1})), "unmarshal claims"},
		{"nbf 200s ahead", idp.Token(t, with("nbf", now.Add(200*time.Second).Unix())), "not valid before"},
		{"nbf within the clock skew", idp.Token(t, with("nbf", now.Add(10*time.Second).Unix())), ""},
		{"not a JWT", "opaque-token-0123456789", errNotJWT},
		{"an opaque token with a dot (Ory Hydra's)", "ory_at_6hW3cTZ1mXq0pJr8kLbYvN2sD4fGhJk.9sF3kLmNpQrStUvWxYz0aBcDeFgHiJk", errNotJWT},
		{"three parts, no JSON header", "abc.def.ghi", errNotJWT},
		{"an encrypted token (JWE)", "eyJhbGciOiJSU0EtT0FFUCJ9.a.b.c.d", "encrypted (JWE)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, err := rs.Verify(context.Background(), tt.token, nil)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("accepted %+v, want an error with %q", info, tt.wantErr)
			}
			if !errors.Is(err, auth.ErrInvalidToken) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %q, want auth.ErrInvalidToken with %q", err, tt.wantErr)
			}
		})
	}
}

// The token's information is what serve, access rules and audit read.
func TestTokenInfo(t *testing.T) {
	idp := oidctest.Start(t)
	rs := newRS(t, idp)
	exp := time.Now().Add(5 * time.Minute).Truncate(time.Second)
	for _, tt := range []struct {
		name   string
		claims map[string]any
		scopes []string
	}{
		{"scope", map[string]any{"scope": "mycli.read openid"}, []string{"mycli.read", "openid"}},
		{"scp string (Entra ID)", map[string]any{"scp": "mycli.read"}, []string{"mycli.read"}},
		{"scp list (Okta)", map[string]any{"scp": []string{"mycli.read", "mycli.write"}}, []string{"mycli.read", "mycli.write"}},
		{"none", map[string]any{}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			claims := map[string]any{"sub": "bob", "aud": resource, "exp": exp.Unix(), "groups": []string{"admins", "oncall"}, "email": "bob@example.com"}
			for k, v := range tt.claims {
				claims[k] = v
			}
			info, err := rs.Verify(context.Background(), idp.Token(t, claims), nil)
			if err != nil {
				t.Fatal(err)
			}
			if info.UserID != "bob" || !info.Expiration.Equal(exp) || !slices.Equal(info.Scopes, tt.scopes) {
				t.Errorf("UserID %q, Expiration %v, Scopes %q; want bob, %v, %q", info.UserID, info.Expiration, info.Scopes, exp, tt.scopes)
			}
			if info.Extra["email"] != "bob@example.com" || fmt.Sprint(info.Extra["groups"]) != "[admins oncall]" || info.Extra["iss"] != idp.Issuer() {
				t.Errorf("Extra %v lacks the claims", info.Extra)
			}
			if info.Extra["exp"] != json.Number(fmt.Sprint(exp.Unix())) {
				t.Errorf("Extra exp %#v, want the json.Number %d", info.Extra["exp"], exp.Unix())
			}
		})
	}
}

// A key published after a rotation is fetched when a token names it; the
// withdrawn key's tokens are refused once the new keys are stored.
func TestKeyRotation(t *testing.T) {
	idp := oidctest.Start(t)
	rs := newRS(t, idp)
	claims := map[string]any{"sub": "alice", "aud": resource}
	old := idp.Token(t, claims)
	if _, err := rs.Verify(context.Background(), old, nil); err != nil {
		t.Fatal(err)
	}
	before := idp.JWKSFetches()
	idp.Rotate(t)
	// go-oidc hands fetched keys to the verification that asked before it
	// ends that fetch: a verification just after may join the ended fetch
	// and see the keys it fetched, not the new ones. The next one fetches.
	fresh := idp.Token(t, claims)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		_, err := rs.Verify(context.Background(), fresh, nil)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a token of the new key is still refused 10s after the rotation: %v", err)
		}
	}
	if idp.JWKSFetches() <= before {
		t.Errorf("the key set was not fetched again after the rotation")
	}
	// go-oidc stores the keys it fetched just after it hands them to the
	// verification that asked: the withdrawn key goes from its cache soon
	// after, not at once.
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := rs.Verify(context.Background(), old, nil); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a token of the withdrawn key is still accepted 10s after the new keys were fetched")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Keys already fetched keep working while the issuer is down; a token of
// a key not yet seen is refused.
func TestIssuerDownLater(t *testing.T) {
	idp := oidctest.Start(t)
	rs := newRS(t, idp)
	tok := idp.Token(t, map[string]any{"sub": "alice", "aud": resource})
	if _, err := rs.Verify(context.Background(), tok, nil); err != nil {
		t.Fatal(err)
	}
	idp.Stop()
	for i := 0; i < 3; i++ {
		if _, err := rs.Verify(context.Background(), tok, nil); err != nil {
			t.Fatalf("with the issuer down, a token of a fetched key: %v", err)
		}
	}
	if _, err := rs.Verify(context.Background(), idp.Sign(t, oidctest.NewKey(t), "JWT", map[string]any{"sub": "alice", "aud": resource}), nil); err == nil {
		t.Error("a token of an unknown key was accepted with the issuer down")
	}
}

func TestIssuerUnreachableAtStart(t *testing.T) {
	addr := proctest.FreeAddr(t)
	_, err := oauth.New(context.Background(), serve.OAuthConfig{Issuer: "http://" + addr + "/realms/team", Resource: resource})
	if !errors.Is(err, oauth.ErrIssuerUnreachable) || !strings.Contains(err.Error(), addr) {
		t.Errorf("error %v, want ErrIssuerUnreachable naming %s", err, addr)
	}
}

func TestBadConfig(t *testing.T) {
	idp := oidctest.Start(t)
	for _, c := range []serve.OAuthConfig{
		{Issuer: idp.Issuer()},
		{Issuer: idp.Issuer(), Resource: "/mcp"},
		{Issuer: idp.Issuer(), Resource: resource + "#x"},
		{Resource: resource},
		{Issuer: idp.Issuer(), Resource: resource, Algorithms: []string{"none"}},
		{Issuer: idp.Issuer(), Resource: resource, Algorithms: []string{"HS256"}},
	} {
		if _, err := oauth.New(context.Background(), c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

// An issuer without OpenID Connect discovery is found by its RFC 8414
// metadata, whose well-known path goes before the issuer's path.
func TestRFC8414Discovery(t *testing.T) {
	idp := oidctest.Start(t)
	var issuer string
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server/tenant", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"issuer": issuer, "authorization_endpoint": issuer + "/authorize", "token_endpoint": issuer + "/token",
			"jwks_uri": idp.MockOIDC().JWKSEndpoint(), "response_types_supported": []string{"code"},
			"code_challenge_methods_supported": []string{"S256"}, "scopes_supported": []string{"mcp"},
		})
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	issuer = srv.URL + "/tenant"
	rs, err := oauth.New(context.Background(), serve.OAuthConfig{Issuer: issuer, Resource: resource})
	if err != nil {
		t.Fatal(err)
	}
	tok := idp.Token(t, map[string]any{"iss": issuer, "sub": "alice", "aud": resource})
	if _, err := rs.Verify(context.Background(), tok, nil); err != nil {
		t.Error(err)
	}
	if got := rs.Metadata().ScopesSupported; !slices.Equal(got, []string{"mcp"}) {
		t.Errorf("scopes_supported %q, want the issuer's [mcp]", got)
	}
}

// The HTTP face: 401 with the challenge that points to the metadata, 400
// for a token in the query string, the metadata documents without a token.
func TestRequire(t *testing.T) {
	idp := oidctest.Start(t)
	rs := newRS(t, idp)
	var seen *auth.TokenInfo
	protected := rs.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = auth.TokenInfoFromContext(r.Context())
		io.WriteString(w, "ok")
	}))
	mux := http.NewServeMux()
	for p, h := range rs.Public() {
		mux.Handle(p, h)
	}
	mux.Handle("/mcp", protected)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	const meta = "http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp"
	good := idp.Token(t, map[string]any{"sub": "alice", "aud": resource})
	tests := []struct {
		name, path, auth string
		want             int
		challenge        string
	}{
		{"missing token", "/mcp", "", 401, `Bearer resource_metadata="` + meta + `"`},
		{"not a bearer", "/mcp", "Basic YWxpY2U6eA==", 401, `Bearer resource_metadata="` + meta + `"`},
		{"bad token", "/mcp", "Bearer " + good + "x", 401, `Bearer error="invalid_token", resource_metadata="` + meta + `"`},
		{"wrong audience", "/mcp", "Bearer " + idp.Token(t, map[string]any{"sub": "alice", "aud": "https://other"}), 401, `Bearer error="invalid_token", resource_metadata="` + meta + `"`},
		{"token in the query", "/mcp?access_token=" + good, "", 400, `Bearer error="invalid_request"`},
		{"token in the query and the header", "/mcp?access_token=" + good, "Bearer " + good, 400, `Bearer error="invalid_request"`},
		{"good token", "/mcp", "Bearer " + good, 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", srv.URL+tt.path, nil)
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.want || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), tt.challenge) {
				t.Errorf("%d %q, WWW-Authenticate %q; want %d and %q", resp.StatusCode, body, resp.Header.Get("WWW-Authenticate"), tt.want, tt.challenge)
			}
			if tt.want == 400 && !strings.Contains(string(body), "query string") {
				t.Errorf("body %q does not say why", body)
			}
		})
	}
	if seen == nil || seen.UserID != "alice" {
		t.Errorf("the handler saw token info %+v, want alice's", seen)
	}

	for _, p := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
		resp, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		err = json.NewDecoder(resp.Body).Decode(&doc)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %v", p, resp.StatusCode, err)
		}
		want := fmt.Sprintf("map[authorization_servers:[%s] bearer_methods_supported:[header] resource:%s scopes_supported:[mycli.read mycli.write]]", idp.Issuer(), resource)
		if fmt.Sprint(doc) != want {
			t.Errorf("GET %s: %v\nwant %s", p, doc, want)
		}
	}
}

// Numeric claims keep their exact text: 2^53+1 and 2^53 are two values,
// and an integer is never written with an exponent (issue 34, item 4).
func TestExactNumbers(t *testing.T) {
	idp := oidctest.Start(t)
	rs := newRS(t, idp)
	for _, tt := range []struct{ claim, want string }{
		{"1234567", "1234567"},
		{"9007199254740993", "9007199254740993"},
		{"9007199254740992", "9007199254740992"},
		{"-42", "-42"},
		{"12345678901234567890123", "12345678901234567890123"},
		{"0.5", "0.5"},
	} {
		info, err := rs.Verify(context.Background(), idp.Token(t, map[string]any{"sub": "alice", "aud": resource, "uid": json.Number(tt.claim)}), nil)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := caller.FromToken(info).Claim("uid")
		if !ok || got != tt.want {
			t.Errorf("uid %s reads as %q %v, want %q", tt.claim, got, ok, tt.want)
		}
	}
}
