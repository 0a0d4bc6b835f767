package toolset

import (
	"fmt"
	"maps"
	"sort"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/cobramcp/cobramcp/internal/caller"
)

// maxClaimTexts bounds the claim values a view keeps checked (claimTexts):
// past it the cache starts again empty, so that callers with many distinct
// values (one per user) cost a bounded amount of memory.
const maxClaimTexts = 4096

// claimTexts caches the check of claim values by a flag's parser: by tool,
// flag and value, the texts to write or why the flag refuses the value.
type claimTexts struct {
	mu sync.Mutex
	m  map[claimKey]claimText
}

type claimKey struct{ tool, flag, value string }

type claimText struct {
	texts []string
	err   error
}

// get returns the texts of t's flag pinned by pin to value, checked once.
func (c *claimTexts) get(t *Tool, pin Pin, value string) ([]string, error) {
	k := claimKey{t.Name, pin.Flag, value}
	c.mu.Lock()
	e, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return e.texts, e.err
	}
	p := pin
	p.Value = value
	e.texts, e.err = pinTexts(t, t.Flags.Lookup(pin.Flag), p)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxClaimTexts {
		c.m = make(map[claimKey]claimText)
	}
	c.m[k] = e
	c.mu.Unlock()
	return e.texts, e.err
}

// claimPins returns tp with the claims of its pins filled in from who, the
// call's caller, and the argv elements they write, each to its redacted
// form; tp itself when it pins no claim. Every claim pin is filled, or the
// error says which the caller lacks or the flag refuses: a claim's flag is
// never left out of an argv.
func (s *Served) claimPins(t *Tool, tp *toolPins, who caller.Caller) (*toolPins, map[string]string, error) {
	if tp == nil || len(tp.claims) == 0 {
		return tp, nil, nil
	}
	out := *tp
	out.line.Fixed = maps.Clone(tp.line.Fixed)
	if out.line.Fixed == nil {
		out.line.Fixed = map[string][]string{}
	}
	redacted := make(map[string]string, len(tp.claims))
	flags := make([]string, 0, len(tp.claims))
	for flag := range tp.claims {
		flags = append(flags, flag)
	}
	sort.Strings(flags)
	for _, flag := range flags {
		pin := tp.claims[flag]
		value, ok := who.Claim(pin.Claim)
		if !ok {
			return nil, nil, fmt.Errorf("flag --%s is pinned %s to the caller's claim %q, which this caller's token does not carry (as a string, number or boolean)", flag, pin.From, pin.Claim)
		}
		texts, err := s.claims.get(t, pin, value)
		if err != nil {
			return nil, nil, err
		}
		out.line.Fixed[flag] = texts
		written := t.Flags.Lookup(flag).Name
		if _, traversed := t.line.Traversed[flag]; traversed {
			if real, ok := t.line.FlagNames[flag]; ok {
				written = real
			}
		}
		for _, text := range texts {
			redacted["--"+written+"="+text] = "--" + written + "=***"
		}
	}
	return &out, redacted, nil
}

// CheckClaims returns nil when who's token carries every claim that a pin
// of s takes its value from, each a value that the flag's parser accepts
// for every served tool taking the flag; else an error naming the first
// claim at fault. Package access calls it when a caller opens a session,
// to refuse at once the caller whose every call would be refused.
func (s *Served) CheckClaims(who *auth.TokenInfo) error {
	c := caller.FromToken(who)
	for _, t := range s.tools {
		if _, _, err := s.claimPins(t, s.pins[t.Name], c); err != nil {
			return err
		}
	}
	return nil
}

// redactWith is Redact with the elements of extra replaced too (a call's
// claim pins).
func (s *Served) redactWith(argv []string, extra map[string]string) []string {
	out := s.redact(argv)
	if len(extra) == 0 {
		return out
	}
	cloned := false
	for i, a := range out {
		if r, ok := extra[a]; ok {
			if !cloned {
				out, cloned = append([]string(nil), out...), true
			}
			out[i] = r
		}
	}
	return out
}
