// Package serve runs an *mcp.Server on stdio or over streamable HTTP with
// the answers that the go-sdk's transports alone would drop, answer
// wrongly or end the session on. Every server cobramcp makes is served
// through it: `mcp start` and `mcp stream` are thin callers.
//
//	ts, err := toolset.New(root, nil) // the reflection
//	if err != nil { ... }
//	v, err := ts.View(toolset.Listing{}) // the served view: every tool
//	if err != nil { ... }
//	srv := v.NewServer(toolset.ServerOptions{})
//	err = serve.Stdio(ctx, srv, os.Stdin, os.Stdout)
//
// # What serve promises
//
// On stdio (Stdio), one bad message costs one error response and the
// session goes on: a line that is not JSON is answered -32700; JSON that
// is not a JSON-RPC 2.0 message, a message longer than 16 MiB (the
// go-sdk's line limit) or nested deeper than the go-sdk decodes, a
// repeated member, an id the go-sdk would answer changed (a number that is
// not an integer of at most 2^53 in magnitude), and a request reusing the
// id of one in progress are answered -32600. A request the client cancelled is
// not answered, as the MCP spec asks. An error the go-sdk sends with code 0
// gets a JSON-RPC code.
//
// Over HTTP (NewHTTPServer), errors of code 0 are mended the same way, and a
// request the go-sdk refuses with a plain-text 400 (an unknown method, a
// missing params) gets its JSON-RPC error (-32601, -32600) instead. Every
// id is answered exactly as sent or refused, as on stdio: a numeric id the
// go-sdk would answer changed gets -32600 with the id as sent. In
// stateful mode the number of sessions is capped (an initialize over the
// cap gets JSON-RPC error -32000), and a call ends with its process group
// when the HTTP request that carried it ends or its session is deleted; in
// stateless mode a call ends with its request. A request without the
// Mcp-Session-Id header to a stateful server is refused, saying that the
// header is missing.
//
// The HTTP server ([HTTPServer]) is the one `mcp stream` runs; its zero
// [HTTPOptions] are that command's defaults. In front of the MCP endpoint:
//
//   - Authentication, one kind chosen once ([HTTPOptions.Auth]): none, a
//     static bearer token ([StaticToken]), or OAuth (package oauth, the
//     OAuth 2.1 resource server, whose metadata is served without
//     authentication). Without authentication Serve refuses an address
//     that is not loopback, unless AllowPublicWithoutAuth.
//   - A browser request from a foreign origin gets 403; on loopback a Host
//     header that is not a loopback name gets 403 (DNS rebinding).
//   - Bodies are read only once the request is authenticated, at most
//     MaxBodyBytes (413) and within BodyTimeout (408).
//   - GET /healthz answers without authentication: 200, 503 once shutdown
//     has begun.
//   - Sessions are capped (MaxSessions) and time out when idle
//     (SessionTimeout). With an identity (OAuth), a session belongs to the
//     identity that opened it: another one that uses or deletes it gets
//     403, and the owner's calls go on.
//   - [HTTPOptions.ServerFor] chooses the server of each new session from
//     its caller's *auth.TokenInfo (per-identity tools), and authorizes
//     every later request of the session with that request's token: a
//     caller it now gives another server, or refuses, gets 403 ("your
//     access changed"; open a new session) and nothing runs. An error
//     wrapping ErrForbidden is answered 403; a [*ScopeError] with the
//     step-up challenge (error="insufficient_scope", the scopes that
//     would admit the caller, resource_metadata).
//   - Serve shuts down gracefully: running calls may finish within Grace,
//     then they are cancelled with their process groups.
//
// A new authentication method is an [Authenticator] (Require, Public): in a
// package of its own when it brings dependencies, as package oauth does,
// offered to a CLI by a bridge.Option (bridge.WithOAuth is the model) so
// that a CLI that does not use it does not link it. A caller whose identity
// comes another way than a token's subject is taught to internal/caller
// (Auth, FromToken), where sessions, access rules, fair shares and the
// audit log read it.
package serve
