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

// ErrClaim is the refusal of a caller whose token lacks a claim that its
// rule pins a flag to (or holds one the flag refuses).
var ErrClaim = errors.New("access: the caller's token lacks a claim that its access rule needs")

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
	// MaxServers bounds the servers kept, one per rule and claim values,
	// so that callers with many distinct claim values (one per user, for
	// a rule pinning a flag to the email claim) cannot grow them without
	// end; past it, one kept server is forgotten for each new one (its
	// sessions keep it). 0 means 4096.
	MaxServers int
}

// defaultMaxServers is the default of Options.MaxServers.
const defaultMaxServers = 4096

// Servers makes each caller's MCP server, serving that caller's view: the
// tools its rule and Options.Policies leave, with its pins. Servers are
// made once per rule and claim values, and kept.
type Servers struct {
	file *File
	ts   *toolset.Toolset
	opts Options
	log  *slog.Logger

	views []*toolset.Served // per rule without set-claim, its view, made at start

	mu      sync.Mutex
	servers map[string]*mcp.Server // by rule and claim values
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
	s := &Servers{file: f, ts: ts, opts: o, log: log, views: make([]*toolset.Served, len(f.Rules)), servers: map[string]*mcp.Server{}}
	for i, r := range f.Rules {
		v, err := s.view(r, nil)
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
		if len(r.SetClaim) == 0 {
			s.views[i] = v
		}
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

// view makes r's view with the claim pins of claims (flag to value); nil
// claims leave the set-claim flags unpinned.
func (s *Servers) view(r *Rule, claims map[string]string) (*toolset.Served, error) {
	p := toolset.Policy{Tools: r.Tools, ExcludeTools: r.ExcludeTools, ReadOnly: r.ReadOnly}
	from := fmt.Sprintf("access rule %d", r.index+1)
	for _, flag := range slices.Sorted(maps.Keys(r.Set)) {
		p.Pins = append(p.Pins, toolset.Pin{Flag: flag, Value: r.Set[flag], From: from})
	}
	for _, flag := range slices.Sorted(maps.Keys(claims)) {
		p.Pins = append(p.Pins, toolset.Pin{Flag: flag, Value: claims[flag], From: fmt.Sprintf("%s (claim %q)", from, r.SetClaim[flag])})
	}
	return s.ts.View(s.opts.Listing, append([]toolset.Policy{p}, s.opts.Policies...)...)
}

// viewFor returns who's view: the tools who may call, as listed to who.
// Its errors wrap serve.ErrForbidden.
func (s *Servers) viewFor(who *auth.TokenInfo) (*toolset.Served, error) {
	r, claims, _, err := s.resolve(who)
	if err != nil {
		return nil, err
	}
	return s.viewOf(who, r, claims)
}

// resolve finds who's rule and the values of the claims it pins flags to,
// and the key of who's server: the rule and those values.
func (s *Servers) resolve(who *auth.TokenInfo) (*Rule, map[string]string, string, error) {
	r, err := s.file.Match(who)
	if err != nil {
		s.log.Info("access refused", "subject", subject(who), "why", err)
		return nil, nil, "", forbidden{err}
	}
	key := fmt.Sprint(r.index)
	var claims map[string]string
	for _, flag := range slices.Sorted(maps.Keys(r.SetClaim)) {
		val, ok := caller.FromToken(who).Claim(r.SetClaim[flag])
		if !ok {
			s.log.Warn("access refused: the token lacks a claim its rule pins a flag to", "subject", subject(who), "rule", r.index+1, "claim", r.SetClaim[flag], "flag", flag)
			return nil, nil, "", forbidden{ErrClaim}
		}
		if claims == nil {
			claims = map[string]string{}
		}
		claims[flag] = val
		key += "\x00" + val
	}
	return r, claims, key, nil
}

// viewOf returns the view of rule r with claims pinned.
func (s *Servers) viewOf(who *auth.TokenInfo, r *Rule, claims map[string]string) (*toolset.Served, error) {
	if v := s.views[r.index]; v != nil {
		return v, nil
	}
	v, err := s.view(r, claims)
	if err != nil {
		s.log.Warn("access refused: a claim's value does not fit the flag its rule pins", "subject", subject(who), "rule", r.index+1, "err", err)
		return nil, forbidden{ErrClaim}
	}
	return v, nil
}

// subject is who's subject, for the log.
func subject(who *auth.TokenInfo) string {
	return caller.FromToken(who).Subject
}

// ServerFor returns the MCP server of who: the hook of serve's HTTP options
// (called once per new session). Its errors wrap serve.ErrForbidden.
func (s *Servers) ServerFor(_ context.Context, who *auth.TokenInfo) (*mcp.Server, error) {
	r, claims, key, err := s.resolve(who)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	srv := s.servers[key]
	s.mu.Unlock()
	if srv != nil {
		return srv, nil
	}
	v, err := s.viewOf(who, r, claims)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if srv := s.servers[key]; srv != nil {
		return srv, nil
	}
	srv = v.NewServer(s.opts.Server)
	if len(s.servers) >= s.maxServers() {
		// Bounded whatever the callers' claims: forget one (a session
		// keeps the server it was given; a later one makes it again).
		for k := range s.servers {
			delete(s.servers, k)
			break
		}
	}
	s.servers[key] = srv
	return srv, nil
}

func (s *Servers) maxServers() int {
	if s.opts.MaxServers > 0 {
		return s.opts.MaxServers
	}
	return defaultMaxServers
}
