// Package caller is the one home of a request's caller: who is calling
// (the token's subject, groups and scopes), how the request was
// authenticated, and which session and client it came on.
//
//	c := caller.FromRequest(req) // a tools/call or any MCP request
//	c.Subject, c.Groups, c.Scopes, c.Session, c.Auth
//	c.Key()                      // who the fair shares count
//	c.Claim("email")             // a claim as the text a flag takes
//
// Every part that asks who is calling asks here: access rules, fair
// shares, the audit log, session ownership and traces. A static token (or
// no authentication) gives no identity: its callers are told apart by
// session only.
package caller
