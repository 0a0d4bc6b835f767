package access

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/internal/caller"
	"github.com/cobramcp/cobramcp/serve"
	"github.com/cobramcp/cobramcp/toolset"
)

// forbidden is a refusal: its text is why's, and it wraps both
// serve.ErrForbidden (which serve's HTTP server answers 403; the caller
// sees nothing more) and why.
type forbidden struct{ why error }

func (f forbidden) Error() string   { return f.why.Error() }
func (f forbidden) Unwrap() []error { return []error{serve.ErrForbidden, f.why} }

// errClaim is the refusal of a caller whose token lacks a claim that its
// rule pins a flag to (or holds one the flag refuses).
var errClaim = errors.New("access: the caller's token lacks a claim that its access rule needs")

// Options configure Servers.
type Options struct {
	// Listing is the shape of every caller's listing.
	Listing toolset.Listing
	// Policies apply to every caller on top of its rule: the command
	// line's policy flags.
	Policies []toolset.Policy
	// Server configures every caller's server; servers share the
	// reflection's call slots.
	Server toolset.ServerOptions
	// Logger receives why a caller was refused; nil: Server.Logger, or
	// discarded.
	Logger *slog.Logger
}

// Servers makes each caller's MCP server, serving that caller's view: the
// tools its rule and Options.Policies leave, with its pins. There is one
// view, and one server, per rule, made at start and shared by every
// caller the rule matches: a flag that a rule pins to a claim (set-claim)
// takes each call's value from that call's caller (toolset.Pin.Claim), so
// that callers with distinct claim values cost no view of their own.
type Servers struct {
	file *File
	ts   *toolset.Toolset
	opts Options
	log  *slog.Logger

	views []*toolset.Served // per rule, its view

	mu      sync.Mutex
	servers []*mcp.Server // per rule, its server, made on its first session
}

// New checks every rule of f against ts and returns the Servers that serve
// them. A rule whose pattern matches no tool, whose pins a flag refuses or
// no served tool takes, or that leaves nothing to serve, is an error naming
// the rule (a *RuleError): nothing is half applied.
func New(f *File, ts *toolset.Toolset, o Options) (*Servers, error) {
	log := o.Logger
	if log == nil {
		log = o.Server.Logger
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Servers{file: f, ts: ts, opts: o, log: log, views: make([]*toolset.Served, len(f.Rules)), servers: make([]*mcp.Server, len(f.Rules))}
	for i, r := range f.Rules {
		v, err := s.view(r, false)
		if err != nil {
			return nil, &RuleError{File: f.name, Rule: r, Err: err}
		}
		var missing []string
		for flag := range r.SetClaim {
			if !takes(v, flag) {
				missing = append(missing, "--"+flag)
			}
		}
		if len(missing) > 0 {
			slices.Sort(missing)
			return nil, &RuleError{File: f.name, Rule: r, Err: fmt.Errorf(`"set-claim": no tool this rule serves takes %s`, strings.Join(missing, ", "))}
		}
		if len(r.SetClaim) > 0 {
			if v, err = s.view(r, true); err != nil {
				return nil, &RuleError{File: f.name, Rule: r, Err: err}
			}
		}
		s.views[i] = v
	}
	return s, nil
}

// takes says whether a tool of v has the flag named flag.
func takes(v *toolset.Served, flag string) bool {
	for _, t := range v.List() {
		if t.Flags.Lookup(flag) != nil {
			return true
		}
	}
	return false
}

// view makes r's view; with claims, its set-claim flags are pinned to the
// caller's claims, else left unpinned.
func (s *Servers) view(r *Rule, claims bool) (*toolset.Served, error) {
	p := toolset.Policy{Tools: r.Tools, ExcludeTools: r.ExcludeTools, ReadOnly: r.ReadOnly}
	from := fmt.Sprintf("access rule %d", r.index+1)
	for _, flag := range slices.Sorted(maps.Keys(r.Set)) {
		p.Pins = append(p.Pins, toolset.Pin{Flag: flag, Value: r.Set[flag], From: from})
	}
	if claims {
		for _, flag := range slices.Sorted(maps.Keys(r.SetClaim)) {
			p.Pins = append(p.Pins, toolset.Pin{Flag: flag, Claim: r.SetClaim[flag], From: fmt.Sprintf("%s (claim %q)", from, r.SetClaim[flag])})
		}
	}
	return s.ts.View(s.opts.Listing, append([]toolset.Policy{p}, s.opts.Policies...)...)
}

// viewFor returns who's view: the tools who may call, as listed to who.
// Its errors wrap serve.ErrForbidden.
func (s *Servers) viewFor(who *auth.TokenInfo) (*toolset.Served, error) {
	r, err := s.resolve(who)
	if err != nil {
		return nil, err
	}
	return s.views[r.index], nil
}

// resolve finds who's rule, and checks that who's token carries every
// claim the rule pins a flag to, each a value its flag takes.
func (s *Servers) resolve(who *auth.TokenInfo) (*Rule, error) {
	r, err := s.file.match(who)
	if err != nil {
		if scopes := s.file.stepUp(who); len(scopes) > 0 {
			s.log.Info("access refused: a scope would admit the caller", "subject", subject(who), "scopes", scopes)
			return nil, &serve.ScopeError{Scopes: scopes, Err: err}
		}
		s.log.Info("access refused", "subject", subject(who), "why", err)
		return nil, forbidden{err}
	}
	for _, flag := range slices.Sorted(maps.Keys(r.SetClaim)) {
		if _, ok := caller.FromToken(who).Claim(r.SetClaim[flag]); !ok {
			s.log.Warn("access refused: the token lacks a claim its rule pins a flag to", "subject", subject(who), "rule", r.index+1, "claim", r.SetClaim[flag], "flag", flag)
			return nil, forbidden{errClaim}
		}
	}
	if len(r.SetClaim) > 0 {
		if err := s.views[r.index].CheckClaims(who); err != nil {
			s.log.Warn("access refused: a claim's value does not fit the flag its rule pins", "subject", subject(who), "rule", r.index+1, "err", err)
			return nil, forbidden{errClaim}
		}
	}
	return r, nil
}

// subject is who's subject, for the log.
func subject(who *auth.TokenInfo) string {
	return caller.FromToken(who).Subject
}

// ServerFor returns the MCP server of who, its rule's: the hook of serve's
// HTTP options, which calls it for every request of a session, with that
// request's token. A caller whose token now matches another rule gets
// another server (serve then refuses the request: the caller's access
// changed); a flag pinned to a claim takes each call's value from that
// call's token. Its errors wrap serve.ErrForbidden; a caller that no rule
// admits but that a rule's scope would is refused with a
// *serve.ScopeError naming those scopes (step-up).
func (s *Servers) ServerFor(_ context.Context, who *auth.TokenInfo) (*mcp.Server, error) {
	r, err := s.resolve(who)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.servers[r.index] == nil {
		s.servers[r.index] = s.views[r.index].NewServer(s.opts.Server)
	}
	return s.servers[r.index], nil
}
