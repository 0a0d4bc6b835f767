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
// Each caller's server is made on its first session and kept, one per rule
// and values of the claims the rule pins flags to; every caller's calls
// share the reflection's call slots (toolset.Limits) and its Wait.
package access
