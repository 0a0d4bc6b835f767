// Package teame2e holds the end-to-end tests of a team server: callers
// with identities (go-sdk auth.TokenInfo), each served the view its access
// rule gives it (package access), their calls shared fairly between them
// and written to the audit log (package audit), against the real mycli
// binary (./example) over streamable HTTP with the go-sdk client.
//
// The identities come from a bearer-token verifier of the test's own that
// maps each token to its TokenInfo, as an OAuth verifier would from a
// token's claims.
//
//	MYCLI_BIN=$PWD/bin/mycli go test ./test/e2e/team/
package teame2e
