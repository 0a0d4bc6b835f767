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
//     resource (RFC 8707), its exp and nbf hold within ClockSkew, and it
//     has a sub. Verification is github.com/coreos/go-oidc/v3's: its key
//     set fetches the issuer's keys again when a token names a key it has
//     not seen (rotation), and keys already fetched keep working while the
//     issuer is unreachable.
//   - The request passes with an *auth.TokenInfo in its context: UserID is
//     sub (the go-sdk binds each session to it), Scopes the scope claim
//     (or scp), Expiration exp, Extra every claim ("groups", "email"...).
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
