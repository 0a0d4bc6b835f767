package caller_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/internal/caller"
)

func TestFromToken(t *testing.T) {
	tests := []struct {
		name    string
		token   *auth.TokenInfo
		auth    caller.Auth
		subject string
		groups  []string
		scopes  []string
	}{
		{name: "none", token: nil, auth: caller.None},
		{name: "static token", token: &auth.TokenInfo{}, auth: caller.Token},
		{name: "oauth", token: &auth.TokenInfo{UserID: "alice", Scopes: []string{"a"}, Extra: map[string]any{
			"groups": []any{"dev", 7, "ops"}, "scope": "b c", "scp": []any{"d"},
		}}, auth: caller.OAuth, subject: "alice", groups: []string{"dev", "ops"}, scopes: []string{"a", "b", "c", "d"}},
		{name: "one group, scp as text", token: &auth.TokenInfo{UserID: "bob", Extra: map[string]any{"groups": "dev", "scp": "x y"}},
			auth: caller.OAuth, subject: "bob", groups: []string{"dev"}, scopes: []string{"x", "y"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := caller.FromToken(tt.token)
			if c.Auth != tt.auth || c.Subject != tt.subject || !slices.Equal(c.Groups, tt.groups) || !slices.Equal(c.Scopes, tt.scopes) {
				t.Errorf("FromToken = %+v, want auth %v subject %q groups %q scopes %q", c, tt.auth, tt.subject, tt.groups, tt.scopes)
			}
		})
	}
}

func TestKey(t *testing.T) {
	tests := []struct {
		c    caller.Caller
		want string
	}{
		{caller.Caller{}, ""},
		{caller.Caller{Session: "s1"}, "session:s1"},
		{caller.Caller{Auth: caller.Token, Session: "s1"}, "session:s1"}, // a static token's sessions are callers of their own
		{caller.Caller{Auth: caller.OAuth, Subject: "alice", Session: "s1"}, "user:alice"},
	}
	for _, tt := range tests {
		if got := tt.c.Key(); got != tt.want {
			t.Errorf("%+v.Key() = %q, want %q", tt.c, got, tt.want)
		}
	}
}

func TestClaim(t *testing.T) {
	c := caller.FromToken(&auth.TokenInfo{UserID: "alice", Extra: map[string]any{
		"email": "a@example.com", "admin": true, "uid": json.Number("1234567"), "n": 3.0, "list": []any{"x"}, "empty": "", "null": nil,
		"big": json.Number("9007199254740993"), "big-1": json.Number("9007199254740992"),
		"float": 1234567.0, "half": 0.5, "int": 42, "int64": int64(-7),
	}})
	tests := []struct {
		name, want string
		ok         bool
	}{
		{"email", "a@example.com", true},
		{"admin", "true", true},
		{"uid", "1234567", true},
		{"n", "3", true}, // a JSON number as encoding/json decodes it
		{"big", "9007199254740993", true},
		{"big-1", "9007199254740992", true},
		{"float", "1234567", true}, // no exponent
		{"half", "0.5", true},
		{"int", "42", true},
		{"int64", "-7", true},
		{"sub", "alice", true}, // from the subject when the claims lack it
		{"list", "", false},
		{"empty", "", false},
		{"null", "", false},
		{"missing", "", false},
	}
	for _, tt := range tests {
		if got, ok := c.Claim(tt.name); got != tt.want || ok != tt.ok {
			t.Errorf("Claim(%q) = %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
	if _, ok := caller.FromToken(nil).Claim("sub"); ok {
		t.Error("a caller without a token has a claim")
	}
}

func TestFromRequestWithoutSession(t *testing.T) {
	req := &mcp.CallToolRequest{Extra: &mcp.RequestExtra{TokenInfo: &auth.TokenInfo{UserID: "alice"}}}
	c := caller.FromRequest(req)
	if c.Subject != "alice" || c.Session != "" || c.Key() != "user:alice" {
		t.Errorf("FromRequest = %+v", c)
	}
	if c := caller.FromRequest(nil); c.Auth != caller.None || c.Key() != "" {
		t.Errorf("FromRequest(nil) = %+v", c)
	}
}
