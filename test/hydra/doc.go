// Package hydra logs in to `mycli mcp stream` through Ory Hydra, a
// production identity provider built from the Go module proxy
// (github.com/ory/hydra/v2, pinned in go.mod, with an in-memory
// database), as docs/deploy.md's Ory Hydra section sets it up: JWT access
// tokens, the issuer URL exactly, the MCP URL granted as an audience and
// added to each registered client's audience (for refresh), email and
// groups as top-level claims, the registration URL advertised, and
// offline_access. The client is the go-sdk's, logging in by itself:
// dynamic registration, authorization code with PKCE, refresh, and the
// step-up a 403 insufficient_scope asks for. The test is the person at the
// browser and Hydra's login and consent app.
//
// It is a module of its own so that the library's go.mod gains nothing;
// the first run builds Hydra (with cgo, for SQLite) and takes minutes.
//
//	cd test/hydra && go test ./...
package hydra
