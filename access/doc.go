// Package access serves each caller of an HTTP server the tools that an
// access file allows that caller, judged by the claims of the caller's
// OAuth token.
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
package access
