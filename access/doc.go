// Package access serves each caller of an HTTP server the tools that an
// access file allows that caller, judged by the claims of the caller's
// OAuth token.
//
//	f, err := access.Load("access.json")
//	if err != nil {
//		return err
//	}
//	servers, err := access.New(f, ts, access.Options{}) // ts: toolset.New's reflection
//	if err != nil {
//		return err // a bad rule, named by its number and JSON
//	}
//	hs, err := serve.NewHTTPServer(nil, serve.HTTPOptions{Auth: rs, ServerFor: servers.ServerFor}) // rs: oauth.New's
//
// An access file is a JSON object {"rules": [...]}; the first rule that
// matches a caller applies to it, and a caller that no rule matches is
// refused and sees nothing:
//
//	{"rules": [
//	  {"group": "admins", "set": {"kubeconfig": "/secret/admin.kubeconfig"}},
//	  {"scope": "CLINAME.read", "read-only": true},
//	  {"subject": "carol", "set-claim": {"namespace": "sub"}},
//	  {"set-claim": {"as": "email"}}
//	]}
//
// Match keys, all of which must match when given: "subject" (the token's
// sub), "group" (one value of its groups claim) and "scope" (one of the
// space-separated values of its scope claim). Policy keys mean what the
// policy flags mean: "tools", "exclude-tools", "read-only" and "set"
// (FLAG to VALUE pins); "set-claim" (FLAG to CLAIM) pins a flag, per
// caller, to a claim of the caller's token, such as kubectl's --as to
// email.
//
// Every request is authorized by its own token: serve asks ServerFor at
// each request of a session, and a caller whose token now matches another
// rule, or no rule, is refused (403: the caller's access changed; open a
// new session); a flag pinned to a claim takes each call's value from
// that call's token. A caller that no rule admits but that a rule's scope
// would is refused with the step-up challenge naming those scopes (a
// *serve.ScopeError), so that its client can ask for them.
//
// There is one view, and one server, per rule, shared by every caller the
// rule matches; every caller's calls share the reflection's call slots
// (toolset.Limits) and its Wait.
package access
