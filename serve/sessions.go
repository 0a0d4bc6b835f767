package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/internal/caller"
)

// codeTooManySessions is the JSON-RPC error code of an initialize refused
// because the server holds as many sessions as it may.
const codeTooManySessions = -32000

// carrierHeader is set by the server itself, on every POST it passes to the
// go-sdk's handler, to the number of that POST; a client's value is
// replaced. A call reads it from the request's headers to learn which HTTP
// request carries it, and so when its caller is gone.
const carrierHeader = "X-Cobramcp-Carrier"

// Why a stateful session's call is ended before it finishes.
var (
	errCallerGone   = errors.New("the HTTP request that carried the call ended before its result: nobody can receive it")
	errSessionEnded = errors.New("the session was deleted")
)

// sessions keeps the calls of a stateful HTTP server's sessions, to end
// them when nobody can receive their results, and caps the number of
// sessions.
//
// A call is ended when the POST that carried it ends first (the client
// dropped the connection or closed the stream: without an event store the
// go-sdk cannot deliver the result later), and when its session is deleted.
// A session times out only while none of its requests is open (the go-sdk
// pauses the idle timer during a POST), so by then its calls have ended
// too.
type sessions struct {
	max int // 0: no cap
	log *slog.Logger

	mu       sync.Mutex
	next     uint64
	carriers map[string]context.Context // open POSTs, by carrier number
	calls    map[string]map[*sessionCall]struct{}
	admitted map[*mcp.ServerSession]struct{}
	owners   map[string]string      // session ID -> the subject of the caller that opened it, when it has one
	servers  map[string]*mcp.Server // session ID -> the server that serves it
}

// sessionCall is one running call of a session.
type sessionCall struct {
	cancel context.CancelCauseFunc
}

func newSessions(max int, log *slog.Logger) *sessions {
	return &sessions{
		max:      max,
		log:      log,
		carriers: map[string]context.Context{},
		calls:    map[string]map[*sessionCall]struct{}{},
		admitted: map[*mcp.ServerSession]struct{}{},
		owners:   map[string]string{},
		servers:  map[string]*mcp.Server{},
	}
}

// handler wraps the go-sdk's stateful handler: it numbers every POST in
// carrierHeader and ends the POST's calls when it ends, and ends a
// session's calls before passing its DELETE on (the go-sdk's DELETE waits
// for them).
func (s *sessions) handler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del(carrierHeader)
		switch r.Method {
		case http.MethodPost:
			ctx, cancel := context.WithCancel(context.Background())
			s.mu.Lock()
			s.next++
			id := strconv.FormatUint(s.next, 10)
			s.carriers[id] = ctx
			s.mu.Unlock()
			defer func() {
				s.mu.Lock()
				delete(s.carriers, id)
				s.mu.Unlock()
				cancel()
			}()
			r.Header.Set(carrierHeader, id)
		case http.MethodDelete:
			// Another identity's DELETE is refused by the go-sdk (403):
			// the owner's calls go on.
			if sid := r.Header.Get(sessionIDHeader); sid != "" && s.owns(sid, r) {
				s.end(sid, errSessionEnded)
			}
		}
		h.ServeHTTP(w, r)
	})
}

// owns reports whether the caller of r may end session sid: the session
// has no owner, or the caller's identity is its owner's.
func (s *sessions) owns(sid string, r *http.Request) bool {
	s.mu.Lock()
	owner := s.owners[sid]
	s.mu.Unlock()
	if owner == "" {
		return true
	}
	return caller.FromToken(auth.TokenInfoFromContext(r.Context())).Subject == owner
}

// end ends the running calls of session sid.
func (s *sessions) end(sid string, why error) {
	s.mu.Lock()
	calls := s.calls[sid]
	delete(s.calls, sid)
	s.mu.Unlock()
	if len(calls) > 0 {
		s.log.Info("ending the session's running calls", "session", sid, "calls", len(calls), "why", why)
	}
	for c := range calls {
		c.cancel(why)
	}
}

// session returns the owner of session sid ("" when none) and the server
// that serves it (nil for a session not admitted, or over).
func (s *sessions) session(sid string) (owner string, srv *mcp.Server) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.owners[sid], s.servers[sid]
}

// middleware returns the middleware of srv's sessions: it caps the
// sessions at initialize, recording which server serves each, and ties
// each tools/call to the POST that carried it and to its session.
func (s *sessions) middleware(srv *mcp.Server) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return s.handle(srv, next)
	}
}

func (s *sessions) handle(srv *mcp.Server, next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "initialize":
			if err := s.admit(req, srv); err != nil {
				return nil, err
			}
		case "tools/call":
			var cancel context.CancelCauseFunc
			ctx, cancel = context.WithCancelCause(ctx)
			defer cancel(nil)
			defer s.track(req, cancel)()
		}
		return next(ctx, method, req)
	}
}

// track registers a call, ending it when its carrier ends (at once if it
// already has), and returns the function that unregisters it.
func (s *sessions) track(req mcp.Request, cancel context.CancelCauseFunc) (untrack func()) {
	var sid, carrier string
	if ss := req.GetSession(); ss != nil {
		sid = ss.ID()
	}
	if extra := req.GetExtra(); extra != nil && extra.Header != nil {
		carrier = extra.Header.Get(carrierHeader)
	}
	c := &sessionCall{cancel: cancel}
	s.mu.Lock()
	cctx, open := s.carriers[carrier]
	if s.calls[sid] == nil {
		s.calls[sid] = map[*sessionCall]struct{}{}
	}
	s.calls[sid][c] = struct{}{}
	s.mu.Unlock()
	stop := func() bool { return false }
	if open {
		stop = context.AfterFunc(cctx, func() {
			s.log.Info("ending a call: its client is gone", "session", sid)
			cancel(errCallerGone)
		})
	} else if carrier != "" {
		cancel(errCallerGone)
	}
	return func() {
		stop()
		s.mu.Lock()
		delete(s.calls[sid], c)
		if len(s.calls[sid]) == 0 {
			delete(s.calls, sid)
		}
		s.mu.Unlock()
	}
}

// admit lets a session of srv initialize while fewer than max sessions
// (any number when max is 0) are admitted, and counts it until it ends. A
// refused session is closed by the go-sdk, since it never initialized.
func (s *sessions) admit(req mcp.Request, srv *mcp.Server) error {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, again := s.admitted[ss]; again {
		return nil // a second initialize: the go-sdk refuses it
	}
	if s.max > 0 && len(s.admitted) >= s.max {
		s.log.Warn("refusing a new session: too many sessions", "max_sessions", s.max)
		return &jsonrpc.Error{
			Code: codeTooManySessions,
			Message: fmt.Sprintf("too many sessions: this server holds %d, its limit (--max-sessions); "+
				"try again once idle sessions have timed out, or ask its operator to raise the limit", s.max),
		}
	}
	s.admitted[ss] = struct{}{}
	sid := ss.ID()
	if c := caller.FromRequest(req); c.Subject != "" {
		s.owners[sid] = c.Subject
	}
	s.servers[sid] = srv
	s.log.Debug("session started", "session", sid, "sessions", len(s.admitted))
	go func() {
		ss.Wait()
		s.mu.Lock()
		delete(s.admitted, ss)
		delete(s.owners, sid)
		delete(s.servers, sid)
		n := len(s.admitted)
		s.mu.Unlock()
		s.log.Debug("session ended", "session", sid, "sessions", n)
	}()
	return nil
}
