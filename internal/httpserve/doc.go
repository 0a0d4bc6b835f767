// Package httpserve serves one HTTP handler, an MCP endpoint, safely: it is
// the floor of serve.HTTPServer (the server of `mcp stream` and of programs
// that embed the library), which adds the MCP endpoint, OAuth and sessions
// on top. Use package serve rather than this one.
//
//	mcpHandler := mcp.NewStreamableHTTPHandler(getServer, nil)
//	token, _, err := httpserve.ReadToken(httpserve.TokenSource{File: "/run/secrets/token"})
//	if err != nil && !errors.Is(err, httpserve.ErrNoToken) {
//		return err
//	}
//	srv, err := httpserve.New(mcpHandler, httpserve.Options{Token: token})
//	if err != nil {
//		return err
//	}
//	ln, err := net.Listen("tcp", "127.0.0.1:8080")
//	if err != nil {
//		return err
//	}
//	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
//	defer stop()
//	return srv.Serve(ctx, ln) // returns after a graceful shutdown
//
// What it promises:
//
//   - Every request except GET /healthz passes, in order: the cross-origin
//     check (a browser request from another origin than the server's own or
//     a trusted one gets 403, whatever its method), the bearer token check
//     when a token is set (or the Options.Auth check, OAuth for one, whose
//     Options.Public documents are served without it) (401 without the right token; the comparison takes
//     the same time whatever the guess), and the body limits: a body is
//     read only after those checks, must be at most Options.MaxBodyBytes
//     (413) and arrive within Options.BodyTimeout (408). A refusal that
//     leaves a body unread closes the connection at once, so a client that
//     sends its body slowly, or never, gets its 401 without delay.
//   - A page of a trusted origin can call the server from a browser: the
//     CORS preflight (OPTIONS) of that origin is answered 204 without the
//     token, and its requests' answers carry Access-Control-Allow-Origin
//     and expose Mcp-Session-Id. No other origin gets CORS headers.
//   - GET /healthz answers 200 "ok" without authentication, for load
//     balancers, and 503 once shutdown has begun.
//   - Serve refuses to start on an address that is not loopback when no
//     token nor Auth is set, unless the caller opts out explicitly
//     (Options.AllowPublicWithoutAuth); then it logs a warning.
//   - Shutdown, when Serve's context is done: no new connections; in-flight
//     requests finish within the grace period; then their contexts, and
//     those made by [Server.CallContext], are cancelled, so work such as a
//     child process is ended, and every connection is closed.
//   - A static token works: the go-sdk's bearer middleware is used with
//     AllowMissingExpiration, since such a token has no expiry.
//
// The Host header check against DNS rebinding on loopback is the go-sdk
// handler's own (StreamableHTTPOptions.DisableLocalhostProtection false).
package httpserve
