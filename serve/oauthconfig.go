package serve

import (
	"log/slog"
	"net/http"
	"time"
)

// OAuthConfig says which access tokens an OAuth 2.1 resource server
// accepts and what its metadata tells clients. serve does not verify
// tokens itself: package oauth's New makes the [Authenticator] of an
// OAuthConfig. The type is defined here so that the command group (package
// bridge), which maps `mcp stream --oauth-*` onto it, names it without
// linking the verification (go-oidc, go-jose) into a CLI that does not
// opt in (bridge.WithOAuth).
type OAuthConfig struct {
	// Issuer is the authorization server's issuer URL, exactly as its
	// tokens' iss claim says it ("https://idp.example.com/realms/team").
	Issuer string
	// Resource is this server's URL as clients reach it, the MCP endpoint
	// ("https://mcp.example.com/mcp"): the audience that tokens must be
	// issued for (RFC 8707) and the metadata's resource.
	Resource string
	// Scopes are the scopes that the metadata lists as supported, for
	// clients to ask for; empty means the issuer's scopes_supported.
	Scopes []string
	// Algorithms are the signature algorithms accepted; empty means the
	// asymmetric ones of RFC 7518 and EdDSA (RS256, RS384, RS512, ES256,
	// ES384, ES512, PS256, PS384, PS512, EdDSA). "none" and the HMAC
	// algorithms (whose key would be a shared secret) are refused.
	Algorithms []string
	// ClockSkew is the tolerance on a token's exp and nbf; zero means 30
	// seconds.
	ClockSkew time.Duration
	// KeyRefresh is the longest time the issuer's signing keys are used
	// before they are fetched again, so that a key removed at the issuer
	// is refused within it; the Cache-Control max-age of the issuer's key
	// set shortens it (to 10 seconds at the least). Zero means 15
	// minutes.
	KeyRefresh time.Duration
	// HTTPClient fetches the issuer's metadata and keys; nil means a
	// client with a 10-second timeout.
	HTTPClient *http.Client
	// Logger receives the refusals (at info level); nil means discard.
	Logger *slog.Logger
}
