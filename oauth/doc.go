// Package oauth is the OAuth 2.1 resource server of the MCP authorization
// specification: it verifies the JWT access tokens of one issuer for one
// resource (this server's URL) and serves the resource's RFC 9728
// metadata, which tells a client where to log in. Give it to the library's
// HTTP server as its authentication:
//
//	rs, err := oauth.New(ctx, serve.OAuthConfig{
//		Issuer:   "https://idp.example.com/realms/team",
//		Resource: "https://mcp.example.com/mcp",
//	})
//	if err != nil {
//		return err // the issuer could not be discovered, say
//	}
//	hs, err := serve.NewHTTPServer(srv, serve.HTTPOptions{Auth: rs})
//
// What it promises:
//
//   - The issuer is discovered at start (OpenID Connect discovery at
//     {issuer}/.well-known/openid-configuration, else RFC 8414 metadata);
//     an unreachable issuer is ErrIssuerUnreachable.
//   - A token is accepted only if it is a JWT (header typ JWT, at+jwt or
//     none) signed by one of the issuer's keys with an accepted algorithm
//     (never none, never HMAC), its iss is the issuer, its aud holds the
//     resource (RFC 8707), its exp and nbf hold within ClockSkew (exp,
//     nbf and iat must be JSON numbers), and it has a sub. A token that is
//     not a JWT at all (an opaque token) is told "this token is not a JWT:
//     configure your provider to issue JWT access tokens". Verification is
//     github.com/coreos/go-oidc/v3's, with a key set of go-jose keys of
//     this package's own (below).
//   - The issuer's keys are fetched when a token first needs them, and
//     used for at most OAuthConfig.KeyRefresh (15 minutes by default), less
//     when the key set's Cache-Control max-age says so: a key removed at
//     the issuer is refused within that interval. A token naming a key
//     not among them (a rotation) makes them fetched again, at most once
//     per 10 seconds whatever the number of such tokens, each
//     waiting for that fetch: forged tokens cannot flood the issuer, and
//     a token of a new key is accepted within that interval. A token
//     naming a key the issuer withdrew, or a known key whose signature
//     fails, causes no fetch. Keys already fetched keep working while the
//     issuer is unreachable.
//   - The request passes with an *auth.TokenInfo in its context: UserID is
//     sub (the go-sdk binds each session to it), Scopes the scope claim
//     (or scp), Expiration exp, Extra every claim ("groups", "email"...),
//     numbers as json.Number (their exact text).
//   - A request without a token gets 401 with
//     `WWW-Authenticate: Bearer resource_metadata="..."`, one with a bad
//     token the same with error="invalid_token" (auth.RequireBearerToken
//     does the check), and one with a token in its query string 400.
//   - The metadata (resource, authorization_servers, scopes_supported,
//     bearer_methods_supported ["header"]) is served without a token at
//     /.well-known/oauth-protected-resource followed by the resource's
//     path, and at /.well-known/oauth-protected-resource.
//
// The token is never passed on to anything: the calls' processes do not
// see it.
package oauth
