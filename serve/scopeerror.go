package serve

import (
	"strings"
)

// ScopeError is a refusal that more scope would lift, for a
// [HTTPOptions.ServerFor] hook to return: the caller's token lacks a scope
// that would admit it. It wraps ErrForbidden and Err. The HTTP server
// answers it 403 with the challenge of the MCP authorization
// specification's step-up flow (RFC 6750 section 3.1), so that a client
// can ask the person for those scopes and retry:
//
//	WWW-Authenticate: Bearer error="insufficient_scope", scope="team.read",
//	    resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
//
// resource_metadata is given when [HTTPOptions.Auth] has a MetadataURL
// method, as package oauth's resource server has.
type ScopeError struct {
	// Scopes are the scopes that would admit the caller; the challenge
	// lists them all.
	Scopes []string
	// Err says why the caller is refused; its text is the answer's.
	Err error
}

func (e *ScopeError) Error() string   { return e.Err.Error() }
func (e *ScopeError) Unwrap() []error { return []error{ErrForbidden, e.Err} }

// challenge returns the WWW-Authenticate value of e, pointing to the
// metadata at metadataURL when it is not empty.
func (e *ScopeError) challenge(metadataURL string) string {
	var b strings.Builder
	b.WriteString(`Bearer error="insufficient_scope", scope="`)
	for i, sc := range e.Scopes {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(quotable(sc))
	}
	b.WriteByte('"')
	if metadataURL != "" {
		b.WriteString(`, resource_metadata="` + quotable(metadataURL) + `"`)
	}
	b.WriteString(`, error_description="your token lacks a scope that would admit you; a token with these scopes would"`)
	return b.String()
}

// quotable keeps of s what RFC 6750's quoted values may hold (visible
// ASCII but '"' and '\\'); a scope (RFC 6749 scope-token) never holds
// anything else.
func quotable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x21 || r > 0x7e || r == '"' || r == '\\' {
			return -1
		}
		return r
	}, s)
}
