package caller

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Auth is how a request was authenticated.
type Auth int

const (
	// None: no authentication (stdio, or HTTP on loopback without a token).
	None Auth = iota
	// Token: a static bearer token; its holders have no identity.
	Token
	// OAuth: an access token of the identity provider, verified.
	OAuth
)

// String names the method as logs and traces show it.
func (a Auth) String() string {
	switch a {
	case Token:
		return "token"
	case OAuth:
		return "oauth"
	}
	return "none"
}

// Caller is who sent a request.
type Caller struct {
	Auth    Auth
	Subject string   // the token's subject (OAuth only)
	Groups  []string // the groups claim (OAuth only)
	Scopes  []string // the token's scopes (OAuth only)
	Session string   // the MCP session, "" on stdio or a stateless server
	Client  string   // the client's name from its initialize request
	// Token is the verified token (OAuth only): its claims for Claim.
	Token *auth.TokenInfo
}

// FromToken returns the caller a verified token says: an identity when
// the token has a subject (UserID, else its "sub" claim: OAuth), else a
// static token's anonymous holder, else (nil) no authentication.
func FromToken(t *auth.TokenInfo) Caller {
	if t == nil {
		return Caller{}
	}
	sub := t.UserID
	if sub == "" {
		sub, _ = t.Extra["sub"].(string)
	}
	if sub == "" {
		return Caller{Auth: Token}
	}
	return Caller{
		Auth:    OAuth,
		Subject: sub,
		Groups:  stringsOf(t.Extra["groups"]),
		Scopes:  scopes(t),
		Token:   t,
	}
}

// FromRequest returns the caller of an MCP request: its token, session
// and client.
func FromRequest(req mcp.Request) Caller {
	if req == nil {
		return Caller{}
	}
	var c Caller
	if extra := req.GetExtra(); extra != nil {
		c = FromToken(extra.TokenInfo)
	}
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return c
	}
	c.Session = ss.ID()
	if p := ss.InitializeParams(); p != nil && p.ClientInfo != nil {
		c.Client = p.ClientInfo.Name
	}
	return c
}

// Key is who the caller is for fair shares: the identity with OAuth, else
// the session (each session of a static token's holders is a caller of its
// own), else "" (stdio: the one caller).
func (c Caller) Key() string {
	if c.Auth == OAuth {
		return "user:" + c.Subject
	}
	if c.Session != "" {
		return "session:" + c.Session
	}
	return ""
}

// Claim returns the claim name of the caller's token as the text a flag
// takes: a string claim as it is, a boolean as JSON writes it, a number
// as the token writes it (package oauth decodes claims as json.Number:
// 9007199254740993 stays itself, 1234567 has no exponent); a float64,
// from a verifier that decodes numbers so, is written without exponent.
// "sub" is the subject when the claims do not carry it. Lists and
// objects are not claims a flag can take: ok is false for them, as for a
// missing claim or a caller without a token. It is the one place a claim
// is read as text.
func (c Caller) Claim(name string) (value string, ok bool) {
	if c.Token == nil {
		return "", false
	}
	v, has := c.Token.Extra[name]
	if !has || v == nil {
		if name == "sub" && c.Subject != "" {
			return c.Subject, true
		}
		return "", false
	}
	switch v := v.(type) {
	case string:
		return v, v != ""
	case json.Number:
		return v.String(), v != ""
	case bool:
		return strconv.FormatBool(v), true
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	case float32:
		return strconv.FormatFloat(float64(v), 'f', -1, 32), true
	case int:
		return strconv.Itoa(v), true
	case int64:
		return strconv.FormatInt(v, 10), true
	}
	return "", false
}

// scopes returns a token's scopes: TokenInfo.Scopes, the space-separated
// scope claim and the scp claim (a list, as Entra ID and Okta write it).
func scopes(t *auth.TokenInfo) []string {
	out := slices.Clone(t.Scopes)
	if s, ok := t.Extra["scope"].(string); ok {
		out = append(out, strings.Fields(s)...)
	}
	if s, ok := t.Extra["scp"].(string); ok {
		out = append(out, strings.Fields(s)...)
	} else {
		out = append(out, stringsOf(t.Extra["scp"])...)
	}
	return out
}

// stringsOf reads a claim that is a list of strings, or one string.
func stringsOf(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []string:
		return v
	case []any:
		var out []string
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
