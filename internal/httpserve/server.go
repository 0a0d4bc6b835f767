package httpserve

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults for [Options] fields left at zero, and for serve.HTTPOptions's
// (the same as `mcp stream`'s flags).
const (
	DefaultMaxBodyBytes = 4 << 20 // 4 MiB, as the go-sdk's own default
	// DefaultMaxSessions is the default cap on stateful HTTP sessions.
	DefaultMaxSessions = 1000
	// DefaultSessionTimeout closes a stateful session idle this long.
	DefaultSessionTimeout = 30 * time.Minute
	// DefaultPath is the URL path of the MCP endpoint.
	DefaultPath  = "/mcp"
	DefaultGrace = 25 * time.Second
	// DefaultOAuthKeyRefresh is the default of serve.OAuthConfig.KeyRefresh
	// (and of `mcp stream --oauth-key-refresh`).
	DefaultOAuthKeyRefresh = 15 * time.Minute
	// DefaultBodyTimeout bounds the time to receive a request body: 4 MiB
	// at about 140 KB/s.
	DefaultBodyTimeout = 30 * time.Second
	// DefaultAbortWait bounds how long Serve waits, once the grace period is
	// over and in-flight work has been cancelled, for that work to return.
	DefaultAbortWait = 5 * time.Second
)

// settle is how long Serve lets responses be flushed after the last
// in-flight handler returned, before it closes the connections left.
const settle = time.Second

// HealthPath is where the health check answers, without authentication.
const HealthPath = "/healthz"

// ErrPublicWithoutAuth is returned by [Server.Serve] when the listener is
// reachable from other machines, no token is set and
// [Options.AllowPublicWithoutAuth] is false.
var ErrPublicWithoutAuth = errors.New("refusing to serve without authentication on an address reachable from other machines")

// Options configure a [Server]. The zero value serves on loopback only,
// without authentication, with the default limits.
type Options struct {
	// Token is the bearer token that every request except the health check
	// must carry ("Authorization: Bearer <token>"). Empty means no
	// authentication, which Serve allows only on a loopback address unless
	// AllowPublicWithoutAuth is set. See [ReadToken].
	Token []byte
	// Auth, when not nil, is the authentication check in place of Token
	// (OAuth, say): it returns next behind the check. Setting both Token
	// and Auth is an error.
	Auth func(next http.Handler) http.Handler
	// Public are handlers served without authentication and without the
	// cross-origin check, by ServeMux pattern ("/.well-known/..."): public
	// documents such as OAuth protected-resource metadata.
	Public map[string]http.Handler
	// AllowPublicWithoutAuth lets Serve run without a token on an address
	// that is not loopback: for an operator who authenticates in front of
	// the server (a proxy, a service mesh). Serve logs a warning.
	AllowPublicWithoutAuth bool
	// TrustedOrigins are browser origins ("https://app.example.com")
	// allowed to call the server besides its own. Requests from any other
	// origin are refused with 403.
	TrustedOrigins []string
	// MaxBodyBytes bounds a request body; a larger one is refused with 413.
	// Zero means DefaultMaxBodyBytes; negative means no limit.
	MaxBodyBytes int64
	// BodyTimeout bounds the time to receive a request body, once its
	// headers were read and its token checked; a body not received in time
	// gets 408. Zero means DefaultBodyTimeout.
	BodyTimeout time.Duration
	// Grace is how long in-flight requests may run once shutdown starts.
	// Zero means DefaultGrace.
	Grace time.Duration
	// AbortWait is how long to wait, after the grace period, for cancelled
	// work to return. Zero means DefaultAbortWait.
	AbortWait time.Duration
	// TLSCertFile and TLSKeyFile, both set, serve HTTPS with that
	// certificate and key (PEM files).
	TLSCertFile, TLSKeyFile string
	// Logger receives the server's logs; nil means discard.
	Logger *slog.Logger
}

// Server serves one HTTP handler (the MCP endpoint) behind the safety
// stack, plus the health check, and shuts down gracefully.
type Server struct {
	opts    Options
	handler http.Handler
	tls     *tls.Config
	log     *slog.Logger

	draining atomic.Bool
	work     inflight

	// abort is cancelled when the grace period ends; request contexts and
	// the contexts made by CallContext derive from it.
	abort    context.Context
	abortNow context.CancelFunc
}

// New returns a Server that serves h, for every path but [HealthPath],
// behind (in this order) the cross-origin check, the bearer token check and
// the body's size and time limits. It fails on a bad trusted origin, a bad token, or
// TLS files that cannot be loaded.
func New(h http.Handler, o Options) (*Server, error) {
	if o.MaxBodyBytes == 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	if o.BodyTimeout <= 0 {
		o.BodyTimeout = DefaultBodyTimeout
	}
	if o.AbortWait <= 0 {
		o.AbortWait = DefaultAbortWait
	}
	s := &Server{opts: o, log: o.Logger}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s.abort, s.abortNow = context.WithCancel(context.Background())

	if (o.TLSCertFile == "") != (o.TLSKeyFile == "") {
		return nil, errors.New("TLS needs both a certificate and a key file")
	}
	if o.TLSCertFile != "" {
		cert, err := tls.LoadX509KeyPair(o.TLSCertFile, o.TLSKeyFile)
		if err != nil {
			return nil, fmt.Errorf("loading TLS certificate: %w", err)
		}
		s.tls = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}

	cop, err := newOriginCheck(o.TrustedOrigins)
	if err != nil {
		return nil, err
	}
	// The body is read only once the request is authenticated: the token
	// and origin checks look at the headers alone.
	inner := s.track(readBody(o.MaxBodyBytes, o.BodyTimeout, h))
	if len(o.Token) > 0 && o.Auth != nil {
		return nil, errors.New("both a static token and another authentication are set: keep one")
	}
	if len(o.Token) > 0 {
		mw, err := TokenMiddleware(o.Token)
		if err != nil {
			return nil, err
		}
		inner = mw(inner)
	}
	if o.Auth != nil {
		inner = o.Auth(inner)
	}
	inner = refuseCrossOrigin(cop, o.TrustedOrigins)(inner)

	mux := http.NewServeMux()
	mux.HandleFunc(HealthPath, s.health)
	for pattern, h := range o.Public {
		mux.Handle(pattern, h)
	}
	mux.Handle("/", inner)
	s.handler = closeUnread(mux)
	return s, nil
}

// Handler returns the whole handler stack, health check included, for use
// with a server of the caller's (httptest, for one).
func (s *Server) Handler() http.Handler { return s.handler }

// CallContext returns a context derived from ctx that is also cancelled
// when the shutdown grace period ends. Work that does not run inside an
// HTTP request's context (a tool call in a stateful MCP session) should run
// under it, so that shutdown can end it.
func (s *Server) CallContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.abort, cancel)
	return ctx, func() { stop(); cancel() }
}

// Abort cancels the requests in flight and the contexts made by
// CallContext now, and ends the grace period of a shutdown, begun or to
// come. It is for an operator who asks twice (a second SIGTERM or Ctrl-C).
func (s *Server) Abort() { s.abortNow() }

// Serve serves on ln until ctx is done, then shuts down: it stops
// accepting connections, lets in-flight requests (those other than GET,
// which in MCP only opens a stream for server messages) finish within the
// grace period, then cancels the contexts of what is left, waits for it at
// most AbortWait, and closes every connection. It returns nil after a
// shutdown, or the error that stopped serving.
//
// A Server serves once. Before serving, it refuses with [ErrPublicWithoutAuth] a listener that is
// not on a loopback address when no token
// nor Auth is set, unless AllowPublicWithoutAuth.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	if err := s.CheckExposure(ln.Addr()); err != nil {
		return err
	}
	if s.public(ln.Addr()) {
		s.log.Warn("SERVING WITHOUT AUTHENTICATION on an address reachable from other machines: anyone who can reach it can run the tools", "addr", ln.Addr().String())
	}
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		TLSConfig:         s.tls,
		BaseContext:       func(net.Listener) context.Context { return s.abort },
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	errc := make(chan error, 1)
	go func() {
		if s.tls != nil {
			errc <- srv.ServeTLS(ln, "", "")
		} else {
			errc <- srv.Serve(ln)
		}
	}()
	select {
	case err := <-errc:
		s.abortNow()
		return fmt.Errorf("serving HTTP: %w", err)
	case <-ctx.Done():
	}

	s.draining.Store(true)
	s.log.Info("shutting down: no new connections; waiting for in-flight requests",
		"in_flight", s.work.count(), "grace", s.opts.Grace)
	shutCtx, stopShut := context.WithCancel(context.Background())
	defer stopShut()
	shut := make(chan struct{})
	go func() { srv.Shutdown(shutCtx); close(shut) }() // its error is shutCtx's

	grace, cancel := context.WithTimeout(s.abort, s.opts.Grace)
	drained := s.work.wait(grace)
	cancel()
	if !drained {
		s.log.Warn("grace period over: cancelling in-flight requests", "in_flight", s.work.count())
		s.abortNow()
		wait, cancel := context.WithTimeout(context.Background(), s.opts.AbortWait)
		if !s.work.wait(wait) {
			s.log.Error("in-flight requests did not return after cancellation", "in_flight", s.work.count())
		}
		cancel()
	}
	// Handlers have returned; let the server flush their last bytes and
	// close the connections that went idle. Streams (GET) never go idle,
	// so do not wait for them long.
	select {
	case <-shut:
	case <-time.After(settle):
	}
	s.abortNow()
	stopShut()
	<-shut
	err := srv.Close() // streams left open (GET) and anything else
	<-errc             // http.ErrServerClosed
	if err != nil {
		return fmt.Errorf("closing HTTP server: %w", err)
	}
	return nil
}

// CheckExposure returns [ErrPublicWithoutAuth] (wrapped) when a is not a
// loopback address, no token is set and AllowPublicWithoutAuth is false.
// Serve calls it first; a caller may call it before announcing the server.
func (s *Server) CheckExposure(a net.Addr) error {
	if s.public(a) && !s.opts.AllowPublicWithoutAuth {
		return fmt.Errorf("%w (%s)", ErrPublicWithoutAuth, a)
	}
	return nil
}

// public reports whether a is reachable from other machines without
// authentication.
func (s *Server) public(a net.Addr) bool {
	return !isLoopback(a) && len(s.opts.Token) == 0 && s.opts.Auth == nil
}

// isLoopback reports whether a is a TCP address on the loopback interface.
func isLoopback(a net.Addr) bool {
	t, ok := a.(*net.TCPAddr)
	return ok && t.IP.IsLoopback()
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if s.draining.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, "draining\n")
		return
	}
	io.WriteString(w, "ok\n")
}

// track counts the requests in flight, except GET.
func (s *Server) track(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			s.work.add(1)
			defer s.work.add(-1)
		}
		next.ServeHTTP(w, r)
	})
}

// inflight counts work in progress and lets one wait for none.
type inflight struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to 0; nil while n == 0
}

func (f *inflight) add(d int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n += d
	switch {
	case f.n > 0 && f.idle == nil:
		f.idle = make(chan struct{})
	case f.n == 0 && f.idle != nil:
		close(f.idle)
		f.idle = nil
	}
}

func (f *inflight) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}

// wait reports whether the count reached zero before ctx was done.
func (f *inflight) wait(ctx context.Context) bool {
	f.mu.Lock()
	idle := f.idle
	f.mu.Unlock()
	if idle == nil {
		return true
	}
	select {
	case <-idle:
		return true
	case <-ctx.Done():
		return false
	}
}
