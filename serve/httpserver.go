package serve

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"sync"
	"time"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/internal/caller"
	"github.com/cobramcp/cobramcp/internal/httpserve"
)

// ErrForbidden is what a [HTTPOptions.ServerFor] hook wraps to refuse a
// caller: the new session is answered 403 with the error's text.
var ErrForbidden = errors.New("forbidden")

// ErrPublicWithoutAuth is returned (wrapped) by [HTTPServer.Serve] and
// [HTTPServer.CheckExposure] for an address reachable from other machines
// when no authentication is set and AllowPublicWithoutAuth is false.
var ErrPublicWithoutAuth = httpserve.ErrPublicWithoutAuth

// Authenticator is how an [HTTPServer] authenticates its callers: a
// static token ([StaticToken]) or an OAuth resource server (package
// oauth). A request that passes carries an *auth.TokenInfo in its context
// (auth.TokenInfoFromContext); its UserID, when not empty, is the caller's
// identity, to which the go-sdk binds the sessions it opens.
type Authenticator interface {
	// Require returns next behind the check of each request's
	// credentials; a request that fails it is answered (401) and never
	// reaches next.
	Require(next http.Handler) http.Handler
	// Public returns handlers served without authentication, by
	// http.ServeMux pattern (such as RFC 9728 metadata documents); nil
	// for none.
	Public() map[string]http.Handler
}

// StaticToken returns the Authenticator of one shared bearer token: every
// request but the health check must carry "Authorization: Bearer TOKEN".
// The comparison takes the same time whatever the guess. Every holder of
// the token is the same caller (an empty UserID). token must be at least
// 16 bytes of visible ASCII.
func StaticToken(token []byte) (Authenticator, error) {
	mw, err := httpserve.TokenMiddleware(token)
	if err != nil {
		return nil, err
	}
	return staticToken(mw), nil
}

type staticToken func(http.Handler) http.Handler

func (t staticToken) Require(next http.Handler) http.Handler { return t(next) }
func (staticToken) Public() map[string]http.Handler          { return nil }

// HTTPOptions configure an [HTTPServer]. The zero value is what `mcp
// stream` serves by default: stateful at /mcp, at most 1000 sessions
// closed after 30 minutes idle, bodies of at most 4 MiB, no
// authentication and so loopback addresses only, 25 seconds' grace on
// shutdown. GET /healthz answers without authentication.
type HTTPOptions struct {
	// Path is the MCP endpoint's URL path; "" means "/mcp".
	Path string
	// Stateless keeps no session state, so that any replica can answer
	// any request.
	Stateless bool
	// SessionTimeout closes a stateful session idle this long; 0 means 30
	// minutes, negative never.
	SessionTimeout time.Duration
	// MaxSessions is the most stateful sessions held at once; an
	// initialize over it is refused with JSON-RPC error -32000. 0 means
	// 1000, negative no cap.
	MaxSessions int
	// MaxBodyBytes bounds a request body (413 over it); 0 means 4 MiB
	// (the go-sdk's own default), negative no limit.
	MaxBodyBytes int64
	// BodyTimeout bounds the time to receive a request body once its
	// headers were read and checked (408 past it); 0 means 30s.
	BodyTimeout time.Duration

	// Auth authenticates every request but the health check and its own
	// public documents: [StaticToken] or an OAuth resource server. nil
	// means none, which Serve allows only on a loopback address unless
	// AllowPublicWithoutAuth.
	Auth Authenticator
	// AllowPublicWithoutAuth lets Serve run without Auth on an address
	// that is not loopback, for an operator who authenticates in front of
	// the server. Serve logs a warning.
	AllowPublicWithoutAuth bool
	// TrustedOrigins are browser origins ("https://app.example.com")
	// allowed besides the server's own; other origins get 403. On
	// loopback, a Host header that is not a loopback name gets 403 (DNS
	// rebinding).
	TrustedOrigins []string
	// TLSCertFile and TLSKeyFile, both set, serve HTTPS.
	TLSCertFile, TLSKeyFile string

	// ServerFor, when set, chooses the server of each new session from its
	// caller (who is nil without an identity: no Auth, or a static
	// token), and authorizes every later request of the session: it is
	// called for every request but a DELETE, with that request's token.
	// At the POST that opens a session (in stateless mode, every POST) the
	// server it returns serves the session. At a later request of the
	// session's owner, a server other than the session's, or an error,
	// means the caller's access changed: the request is answered 403 and
	// nothing of it runs. So, for a caller whose access has not changed,
	// it must return the same server for as long as a session holds it.
	// An error wrapping ErrForbidden is answered 403 with its text (and,
	// for a *ScopeError, the challenge that asks for more scope), any
	// other 500 without it. The server it returns may be shared between
	// sessions and callers (serve adds its middleware to each server
	// once). Without it every session is served by the server given to
	// NewHTTPServer. who.Extra holds the token's claims as the
	// Authenticator decodes them (package oauth: numbers as json.Number,
	// "groups" a []any of strings).
	ServerFor func(ctx context.Context, who *auth.TokenInfo) (*mcp.Server, error)

	// Grace is how long running calls may go on once shutdown starts; 0
	// means 25 seconds.
	Grace time.Duration
	// AbortWait bounds the wait, after the grace period, for cancelled
	// calls to return; 0 means 5s.
	AbortWait time.Duration
	// Logger receives the server's logs; nil means discard.
	Logger *slog.Logger
}

// HTTPServer serves MCP over streamable HTTP with every protection of
// `mcp stream`: see the package documentation. Make one with
// [NewHTTPServer]; it serves once.
type HTTPServer struct {
	hs       *httpserve.Server
	srv      *mcp.Server
	opts     HTTPOptions
	log      *slog.Logger
	sessions *sessions // nil when stateless

	mu    sync.Mutex
	wired map[weak.Pointer[mcp.Server]]struct{}
}

// NewHTTPServer returns the server of srv (nil when opts.ServerFor
// chooses every session's) with opts. It adds its receiving middleware to
// every server it serves, so those must be served by it alone. It fails
// on options that do not fit together or TLS files that cannot be read.
func NewHTTPServer(srv *mcp.Server, opts HTTPOptions) (*HTTPServer, error) {
	if srv == nil && opts.ServerFor == nil {
		return nil, errors.New("serve: no server: give one or set HTTPOptions.ServerFor")
	}
	if opts.Path == "" {
		opts.Path = httpserve.DefaultPath
	}
	if opts.SessionTimeout == 0 {
		opts.SessionTimeout = httpserve.DefaultSessionTimeout
	}
	if opts.MaxSessions == 0 {
		opts.MaxSessions = httpserve.DefaultMaxSessions
	}
	if opts.MaxBodyBytes == 0 {
		opts.MaxBodyBytes = httpserve.DefaultMaxBodyBytes
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &HTTPServer{srv: srv, opts: opts, log: log, wired: map[weak.Pointer[mcp.Server]]struct{}{}}
	mux := http.NewServeMux()
	ho := httpserve.Options{
		AllowPublicWithoutAuth: opts.AllowPublicWithoutAuth,
		TrustedOrigins:         opts.TrustedOrigins,
		MaxBodyBytes:           opts.MaxBodyBytes,
		BodyTimeout:            opts.BodyTimeout,
		Grace:                  opts.Grace,
		AbortWait:              opts.AbortWait,
		TLSCertFile:            opts.TLSCertFile,
		TLSKeyFile:             opts.TLSKeyFile,
		Logger:                 log,
	}
	if opts.Auth != nil {
		ho.Auth = opts.Auth.Require
		ho.Public = opts.Auth.Public()
	}
	hs, err := httpserve.New(mux, ho)
	if err != nil {
		return nil, err
	}
	s.hs = hs
	if !opts.Stateless {
		max := max(opts.MaxSessions, 0)
		s.sessions = newSessions(max, log)
	}
	mux.Handle(opts.Path, s.mcpHandler())
	if srv != nil {
		s.wire(srv)
	}
	return s, nil
}

// Handler returns the whole handler stack (the MCP endpoint, the health
// check, the public documents), for a server of the caller's such as
// httptest's. Serve serves it.
func (s *HTTPServer) Handler() http.Handler { return s.hs.Handler() }

// Serve serves on ln until ctx is done, then shuts down gracefully: no new
// connections; running calls may finish within the grace period; then they
// are cancelled (their process groups end), and every connection is
// closed. It returns nil after a shutdown. Before serving it refuses with
// ErrPublicWithoutAuth an address that is not loopback when no Auth is
// set, unless AllowPublicWithoutAuth.
func (s *HTTPServer) Serve(ctx context.Context, ln net.Listener) error {
	return s.hs.Serve(ctx, ln)
}

// CheckExposure returns ErrPublicWithoutAuth (wrapped) when a is not a
// loopback address, no Auth is set and AllowPublicWithoutAuth is false.
// Serve calls it first; a caller may call it before announcing the server.
func (s *HTTPServer) CheckExposure(a net.Addr) error { return s.hs.CheckExposure(a) }

// Abort ends the running calls now, and the grace period of a shutdown,
// begun or to come: for an operator who asks twice (a second SIGTERM).
func (s *HTTPServer) Abort() { s.hs.Abort() }

// serverKey is the context key under which the server chosen for a new
// session travels to the go-sdk's getServer.
type serverKey struct{}

// mcpHandler is the MCP endpoint: the go-sdk's streamable handler with
// serve's answers and session bookkeeping around it, behind the choice of
// each new session's server.
func (s *HTTPServer) mcpHandler() http.Handler {
	getServer := func(r *http.Request) *mcp.Server {
		if srv, ok := r.Context().Value(serverKey{}).(*mcp.Server); ok {
			return srv
		}
		return s.srv
	}
	timeout := s.opts.SessionTimeout
	if timeout < 0 {
		timeout = 0
	}
	limit := s.opts.MaxBodyBytes
	sdkLimit := limit
	if limit < 0 {
		sdkLimit = -1
	}
	handler := codedErrors(mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{
		Stateless:                    s.opts.Stateless,
		Logger:                       s.log,
		SessionTimeout:               timeout,
		MaxRequestBodyBytes:          sdkLimit,
		PropagateRequestCancellation: true,
	}))
	handler = jsonrpcErrors(handler, limit, !s.opts.Stateless)
	if s.opts.Stateless {
		handler = withRequestContext(handler)
	} else {
		handler = s.sessions.handler(handler)
	}
	if s.opts.ServerFor != nil {
		handler = s.choose(handler)
	}
	return handler
}

// choose calls ServerFor for every request but a DELETE, so that each is
// authorized by its own token. A request that opens a session (a POST
// without a session ID; in stateless mode, every POST) is served by the
// server it returns, which choose wires and hands to the go-sdk through
// the request's context. A request of a session that its owner sends is
// refused with 403 when ServerFor now refuses its caller or gives it
// another server than the session's: the caller's access changed. Nothing
// of the request runs then.
func (s *HTTPServer) choose(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sid := ""
		if !s.opts.Stateless {
			sid = r.Header.Get(sessionIDHeader)
		}
		opens := r.Method == http.MethodPost && sid == ""
		var was *mcp.Server
		if !opens {
			if sid == "" || r.Method == http.MethodDelete {
				next.ServeHTTP(w, r) // the go-sdk refuses it, or ends the session
				return
			}
			var owner string
			owner, was = s.sessions.session(sid)
			if was == nil || (owner != "" && caller.FromToken(auth.TokenInfoFromContext(r.Context())).Subject != owner) {
				// Not a session of this server's (404), or another
				// identity's (403): the go-sdk answers.
				next.ServeHTTP(w, r)
				return
			}
		}
		who := auth.TokenInfoFromContext(r.Context())
		if caller.FromToken(who).Auth != caller.OAuth {
			who = nil // a static token: no identity
		}
		srv, err := s.opts.ServerFor(r.Context(), who)
		if err == nil && srv == nil {
			err = errors.New("ServerFor returned no server")
		}
		if err != nil {
			s.refuse(w, who, sid, err)
			return
		}
		if !opens {
			if srv != was {
				s.refuse(w, who, sid, errAccessChanged)
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		s.wire(srv)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), serverKey{}, srv)))
	})
}

// errAccessChanged refuses a request of a session whose caller's token
// now gives it another server than the session's.
var errAccessChanged error = refusal("your access changed since this session began (your token now gives you other tools or pins): open a new session")

// refusal is a refusal of serve's own: its text, wrapping ErrForbidden.
type refusal string

func (r refusal) Error() string { return string(r) }
func (refusal) Unwrap() error   { return ErrForbidden }

// refuse answers a request that ServerFor refused: 403 with the error's
// text for an error wrapping ErrForbidden (and, for a *ScopeError, the
// challenge that asks for more scope), 500 without it for any other.
func (s *HTTPServer) refuse(w http.ResponseWriter, who *auth.TokenInfo, sid string, err error) {
	user := caller.FromToken(who).Subject
	if !errors.Is(err, ErrForbidden) {
		s.log.Error("choosing the session's server", "user", user, "session", sid, "err", err)
		http.Error(w, "Internal Server Error: cannot serve this caller", http.StatusInternalServerError)
		return
	}
	if sid == "" {
		s.log.Info("refusing a session", "user", user, "why", err)
	} else {
		s.log.Info("refusing a request of a session", "user", user, "session", sid, "why", err)
	}
	var se *ScopeError
	if errors.As(err, &se) && len(se.Scopes) > 0 {
		w.Header().Set("WWW-Authenticate", se.challenge(s.metadataURL()))
	}
	http.Error(w, "Forbidden: "+err.Error(), http.StatusForbidden)
}

// metadataURL returns the URL of the protected-resource metadata that
// Auth's 401 answers point to, when it has one (package oauth's does).
func (s *HTTPServer) metadataURL() string {
	if m, ok := s.opts.Auth.(interface{ MetadataURL() string }); ok {
		return m.MetadataURL()
	}
	return ""
}

// wire adds serve's receiving middleware to srv, once: a server returned
// again by ServerFor keeps its wiring. The record of it does not keep srv
// alive.
func (s *HTTPServer) wire(srv *mcp.Server) {
	wp := weak.Make(srv)
	s.mu.Lock()
	_, done := s.wired[wp]
	if !done {
		s.wired[wp] = struct{}{}
	}
	s.mu.Unlock()
	if done {
		return
	}
	runtime.AddCleanup(srv, func(wp weak.Pointer[mcp.Server]) {
		s.mu.Lock()
		delete(s.wired, wp)
		s.mu.Unlock()
	}, wp)
	if s.opts.Stateless {
		srv.AddReceivingMiddleware(endWithRequest, s.endOnAbort)
	} else {
		srv.AddReceivingMiddleware(s.sessions.middleware(srv), s.endOnAbort)
	}
}

// endOnAbort ends a call when the shutdown grace period is over (or on
// Abort): a stateful session's call does not run in its request's context.
func (s *HTTPServer) endOnAbort(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "tools/call" {
			var cancel context.CancelFunc
			ctx, cancel = s.hs.CallContext(ctx)
			defer cancel()
		}
		return next(ctx, method, req)
	}
}

// sessionIDHeader is the streamable HTTP transport's session header.
const sessionIDHeader = "Mcp-Session-Id"
