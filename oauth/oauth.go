package oauth

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/cobramcp/cobramcp/internal/httpserve"
	"github.com/cobramcp/cobramcp/serve"
)

// defaultAlgorithms are the signature algorithms accepted when
// serve.OAuthConfig.Algorithms is empty.
var defaultAlgorithms = []string{
	oidc.RS256, oidc.RS384, oidc.RS512,
	oidc.ES256, oidc.ES384, oidc.ES512,
	oidc.PS256, oidc.PS384, oidc.PS512,
	oidc.EdDSA,
}

// defaultClockSkew is the tolerance on a token's exp and nbf when
// serve.OAuthConfig.ClockSkew is zero.
const defaultClockSkew = 30 * time.Second

// metadataPath is where the RFC 9728 protected-resource metadata is
// served; the resource URL's path, when it has one, is appended to it
// too ("/.well-known/oauth-protected-resource/mcp").
const metadataPath = "/.well-known/oauth-protected-resource"

// maxToken bounds the length of a token that is parsed at all.
const maxToken = 16 << 10

// ErrIssuerUnreachable is returned (wrapped) by [New] when the issuer's
// metadata cannot be fetched by either discovery.
var ErrIssuerUnreachable = errors.New("cannot discover the OAuth issuer")

// ResourceServer verifies the access tokens of one issuer for one
// resource and serves the resource's metadata. It is safe for concurrent
// use.
type ResourceServer struct {
	cfg         serve.OAuthConfig
	verifier    *oidc.IDTokenVerifier
	meta        oauthex.ProtectedResourceMetadata
	metadataURL string
	paths       []string
	log         *slog.Logger
}

// New discovers cfg.Issuer (OpenID Connect discovery at
// {issuer}/.well-known/openid-configuration, else RFC 8414 authorization
// server metadata) and returns the resource server of cfg.Resource. The
// issuer's signing keys are fetched when a token first needs them, again
// once they are older than cfg.KeyRefresh (or the key set's max-age), and
// when a token names a key not yet seen (key rotation), at most once per
// 10 seconds; keys already fetched keep working while the issuer is
// unreachable.
//
// New is what a CLI gives bridge.WithOAuth to serve a team with its
// identity provider (`mcp stream --oauth-issuer`).
func New(ctx context.Context, cfg serve.OAuthConfig) (*ResourceServer, error) {
	if cfg.Issuer == "" {
		return nil, errors.New("oauth: no issuer URL")
	}
	iss, err := url.Parse(cfg.Issuer)
	if err != nil || (iss.Scheme != "https" && iss.Scheme != "http") || iss.Host == "" {
		return nil, fmt.Errorf("oauth: issuer %q: want an absolute http(s) URL", cfg.Issuer)
	}
	res, err := url.Parse(cfg.Resource)
	if err != nil || (res.Scheme != "https" && res.Scheme != "http") || res.Host == "" || res.Fragment != "" || res.RawQuery != "" {
		return nil, fmt.Errorf("oauth: resource %q: want the absolute http(s) URL that clients use, without query or fragment (e.g. https://mcp.example.com/mcp)", cfg.Resource)
	}
	if len(cfg.Algorithms) == 0 {
		cfg.Algorithms = defaultAlgorithms
	}
	for _, a := range cfg.Algorithms {
		if strings.EqualFold(a, "none") || strings.HasPrefix(strings.ToUpper(a), "HS") {
			return nil, fmt.Errorf("oauth: algorithm %q is never accepted", a)
		}
	}
	if cfg.ClockSkew == 0 {
		cfg.ClockSkew = defaultClockSkew
	}
	if cfg.KeyRefresh < 0 {
		return nil, fmt.Errorf("oauth: key refresh interval %v: want a positive duration", cfg.KeyRefresh)
	}
	if cfg.KeyRefresh == 0 {
		cfg.KeyRefresh = httpserve.DefaultOAuthKeyRefresh
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if iss.Scheme == "http" && !loopback(iss.Hostname()) {
		log.Warn("the OAuth issuer is reached over plain HTTP: whoever is on the path can replace its keys and sign tokens; use https", "issuer", cfg.Issuer)
	}
	jwks, scopes, err := discover(ctx, cfg.HTTPClient, cfg.Issuer)
	if err != nil {
		return nil, err
	}
	if len(cfg.Scopes) == 0 {
		cfg.Scopes = scopes
	}
	skew := cfg.ClockSkew
	keys := newKeySet(jwks, cfg.HTTPClient, cfg.Algorithms, cfg.KeyRefresh, log)
	rs := &ResourceServer{
		cfg: cfg,
		log: log,
		verifier: oidc.NewVerifier(cfg.Issuer, keys, &oidc.Config{
			ClientID:             cfg.Resource,
			SupportedSigningAlgs: cfg.Algorithms,
			Now:                  func() time.Time { return time.Now().Add(-skew) },
		}),
		meta: oauthex.ProtectedResourceMetadata{
			Resource:               cfg.Resource,
			AuthorizationServers:   []string{cfg.Issuer},
			ScopesSupported:        cfg.Scopes,
			BearerMethodsSupported: []string{"header"},
		},
	}
	path := strings.TrimSuffix(res.EscapedPath(), "/")
	rs.paths = []string{metadataPath}
	if path != "" {
		rs.paths = append([]string{metadataPath + path}, rs.paths...)
	}
	rs.metadataURL = res.Scheme + "://" + res.Host + rs.paths[0]
	return rs, nil
}

// loopback reports whether host names the loopback interface.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// discover returns the issuer's jwks_uri and scopes_supported, from its
// OpenID Connect discovery document or else its RFC 8414 metadata.
func discover(ctx context.Context, c *http.Client, issuer string) (jwks string, scopes []string, err error) {
	p, oidcErr := oidc.NewProvider(oidc.ClientContext(ctx, c), issuer)
	if oidcErr == nil {
		var doc struct {
			JWKS   string   `json:"jwks_uri"`
			Scopes []string `json:"scopes_supported"`
		}
		if err := p.Claims(&doc); err != nil {
			return "", nil, fmt.Errorf("oauth: issuer %s: reading its OpenID configuration: %w", issuer, err)
		}
		if doc.JWKS == "" {
			return "", nil, fmt.Errorf("oauth: issuer %s: its OpenID configuration has no jwks_uri", issuer)
		}
		return doc.JWKS, doc.Scopes, nil
	}
	// RFC 8414: the well-known path goes between the host and the
	// issuer's path.
	u, _ := url.Parse(issuer)
	metaURL := u.Scheme + "://" + u.Host + "/.well-known/oauth-authorization-server" + strings.TrimSuffix(u.EscapedPath(), "/")
	asm, asErr := oauthex.GetAuthServerMeta(ctx, metaURL, issuer, c)
	switch {
	case asErr == nil && asm != nil && asm.JWKSURI != "":
		return asm.JWKSURI, asm.ScopesSupported, nil
	case asErr == nil && asm != nil:
		asErr = errors.New("its metadata has no jwks_uri")
	case asErr == nil:
		asErr = errors.New("not found")
	}
	return "", nil, fmt.Errorf("%w %s: OpenID Connect discovery: %v; RFC 8414 metadata at %s: %v (is the issuer URL right, and reachable from here?)",
		ErrIssuerUnreachable, issuer, oidcErr, metaURL, asErr)
}

// metadata returns the RFC 9728 protected-resource metadata served.
func (rs *ResourceServer) metadata() *oauthex.ProtectedResourceMetadata {
	m := rs.meta
	return &m
}

// MetadataURL returns the URL of the metadata, as the 401 answers'
// WWW-Authenticate header gives it.
func (rs *ResourceServer) MetadataURL() string { return rs.metadataURL }

// Verify checks an access token: a JWT (header typ JWT or at+jwt, or
// none) signed by one of the issuer's keys with an accepted algorithm,
// whose iss is the issuer, whose aud holds the resource, with exp and nbf
// valid within the clock skew, and a sub. It returns the token's
// information: UserID is sub, Scopes the scope claim (or scp), Expiration
// exp, Extra every claim. An error wraps auth.ErrInvalidToken. It is an
// auth.TokenVerifier.
func (rs *ResourceServer) Verify(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	info, err := rs.verify(ctx, token)
	if err != nil {
		rs.log.Info("refusing an access token", "why", err)
		return nil, fmt.Errorf("%w: %v", auth.ErrInvalidToken, err)
	}
	return info, nil
}

func (rs *ResourceServer) verify(ctx context.Context, token string) (*auth.TokenInfo, error) {
	if len(token) > maxToken {
		return nil, fmt.Errorf("token longer than %d bytes", maxToken)
	}
	if err := checkHeader(token); err != nil {
		return nil, err
	}
	t, err := rs.verifier.Verify(ctx, token)
	if err != nil {
		var expired *oidc.TokenExpiredError
		if errors.As(err, &expired) {
			return nil, fmt.Errorf("token expired at %s", expired.Expiry.UTC().Format(time.RFC3339))
		}
		return nil, err
	}
	var payload json.RawMessage
	if err := t.Claims(&payload); err != nil {
		return nil, fmt.Errorf("reading the token's claims: %v", err)
	}
	claims, err := decodeClaims(payload)
	if err != nil {
		return nil, err
	}
	if err := checkTimes(claims, time.Now(), rs.cfg.ClockSkew); err != nil {
		return nil, err
	}
	if t.Subject == "" {
		return nil, errors.New("token has no sub")
	}
	return &auth.TokenInfo{
		UserID:     t.Subject,
		Scopes:     scopes(claims),
		Expiration: t.Expiry,
		Extra:      claims,
	}, nil
}

// decodeClaims decodes a token's claims with every number as the
// json.Number of its text: a numeric claim keeps its exact value (above
// 2^53 too) and is written as the token writes it.
func decodeClaims(payload []byte) (map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(payload))
	d.UseNumber()
	var claims map[string]any
	if err := d.Decode(&claims); err != nil || claims == nil {
		return nil, fmt.Errorf("the token's claims are not a JSON object: %v", err)
	}
	if d.More() {
		return nil, errors.New("the token's claims are not one JSON object")
	}
	return claims, nil
}

// checkTimes checks exp, nbf and iat: each a JSON number when present
// (RFC 7519 NumericDate; exp is required), and nbf not after now beyond
// skew. go-oidc checked exp already, but reads a string of digits as a
// number.
func checkTimes(claims map[string]any, now time.Time, skew time.Duration) error {
	for _, name := range []string{"exp", "nbf", "iat"} {
		v, ok := claims[name]
		if !ok {
			if name == "exp" {
				return errors.New("token has no exp")
			}
			continue
		}
		n, ok := v.(json.Number)
		if !ok {
			return fmt.Errorf("the token's %s is %s, not a number (RFC 7519 NumericDate)", name, jsonType(v))
		}
		f, err := n.Float64()
		if err != nil {
			return fmt.Errorf("the token's %s %s is not a time", name, n)
		}
		if name == "nbf" && time.Unix(int64(f), 0).After(now.Add(skew)) {
			return fmt.Errorf("token not valid before %s", time.Unix(int64(f), 0).UTC().Format(time.RFC3339))
		}
	}
	return nil
}

// jsonType names the JSON type of a decoded value.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "a number"
}

// errNotJWT is the refusal of a token that is not a JWT at all: an
// opaque token (Ory Hydra's default, for one) that only the provider can
// read.
var errNotJWT = errors.New("this token is not a JWT: configure your provider to issue JWT access tokens")

// checkHeader refuses a token that is not a JWT, whose JOSE header says
// it is not a JWT access token (RFC 9068 types JWT and at+jwt; no typ is
// taken as JWT), or that is unsigned. The signature and its algorithm are
// go-oidc's and go-jose's to check.
func checkHeader(token string) error {
	parts := strings.Count(token, ".") + 1
	if parts == 5 {
		return errors.New("this token is encrypted (JWE): configure your provider to issue signed JWT access tokens, not encrypted ones")
	}
	head, _, _ := strings.Cut(token, ".")
	b, err := base64.RawURLEncoding.DecodeString(head)
	var h struct {
		Alg string `json:"alg"`
		Typ string `json:"typ"`
	}
	if parts != 3 || err != nil || json.Unmarshal(b, &h) != nil {
		return errNotJWT
	}
	if h.Alg == "" || strings.EqualFold(h.Alg, "none") {
		return errors.New("unsigned token (alg none)")
	}
	switch strings.ToLower(strings.TrimPrefix(strings.ToLower(h.Typ), "application/")) {
	case "", "jwt", "at+jwt":
		return nil
	}
	return fmt.Errorf("token type %q is not an access token (want JWT or at+jwt)", h.Typ)
}

// scopes reads the scope claim (RFC 9068: space-separated), or scp (a
// string or a list, as Entra ID and Okta send it).
func scopes(claims map[string]any) []string {
	for _, name := range []string{"scope", "scp"} {
		switch v := claims[name].(type) {
		case string:
			return strings.Fields(v)
		case []any:
			var out []string
			for _, s := range v {
				if s, ok := s.(string); ok {
					out = append(out, s)
				}
			}
			return out
		}
	}
	return nil
}

// Require returns next behind the bearer token check of the go-sdk
// (auth.RequireBearerToken) with this verifier: a request without a token
// gets 401 with `WWW-Authenticate: Bearer resource_metadata="..."`, one
// with a bad token the same with error="invalid_token". A token in the
// query string (access_token) is refused with 400: it would end up in
// logs. A request that passes carries its *auth.TokenInfo in its context.
func (rs *ResourceServer) Require(next http.Handler) http.Handler {
	check := auth.RequireBearerToken(rs.Verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL: rs.metadataURL,
		ClockSkew:           rs.cfg.ClockSkew,
	})(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w.(*challenge).ResponseWriter, r)
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("access_token") {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="invalid_request", error_description="a token in the query string is refused: send it in the Authorization header", resource_metadata=%q`, rs.metadataURL))
			http.Error(w, "Bad Request: a token in the query string (access_token) is refused: send it in the Authorization header", http.StatusBadRequest)
			return
		}
		check.ServeHTTP(&challenge{ResponseWriter: w, token: hasBearer(r), metadata: rs.metadataURL}, r)
	})
}

// hasBearer reports whether r carries a bearer token, as the go-sdk's
// middleware reads it.
func hasBearer(r *http.Request) bool {
	f := strings.Fields(r.Header.Get("Authorization"))
	return len(f) == 2 && strings.EqualFold(f[0], "bearer")
}

// challenge sets the WWW-Authenticate header of a 401: RFC 6750's
// error="invalid_token" when a token was sent, and the metadata's URL
// (RFC 9728) always.
type challenge struct {
	http.ResponseWriter
	token    bool
	metadata string
}

func (c *challenge) WriteHeader(code int) {
	if code == http.StatusUnauthorized {
		v := fmt.Sprintf("Bearer resource_metadata=%q", c.metadata)
		if c.token {
			v = fmt.Sprintf(`Bearer error="invalid_token", resource_metadata=%q`, c.metadata)
		}
		c.Header().Set("WWW-Authenticate", v)
	}
	c.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the connection.
func (c *challenge) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// Public returns the metadata handlers (the go-sdk's
// auth.ProtectedResourceMetadataHandler), to be served without
// authentication: at /.well-known/oauth-protected-resource followed by the
// resource's path, and at /.well-known/oauth-protected-resource.
func (rs *ResourceServer) Public() map[string]http.Handler {
	h := auth.ProtectedResourceMetadataHandler(rs.metadata())
	out := map[string]http.Handler{}
	for _, p := range rs.paths {
		out[p] = h
	}
	return out
}
