package httpserve

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// MinTokenLen is the shortest bearer token accepted, in bytes. A shorter
// token is too easy to guess to guard a server reachable from a network.
const MinTokenLen = 16

// ErrNoToken is returned by [ReadToken] when neither the file nor the
// environment variable provides a token.
var ErrNoToken = errors.New("no token configured")

// ReadToken returns the bearer token from file, when file is not empty, or
// else from the environment variable envName, looked up with lookupEnv
// (os.LookupEnv when nil). Surrounding white space (a file's trailing
// newline) is removed. source describes where the token came from, for
// logs; it never contains the token.
//
// It is an error to provide the token both ways (the two could disagree
// silently), and a token must be at least [MinTokenLen] bytes of visible
// ASCII. When neither is set it returns [ErrNoToken].
//
// A token is never read from a command-line argument: other users of the
// machine can read a process's arguments.
func ReadToken(file, envName string, lookupEnv func(string) (string, bool)) (token []byte, source string, err error) {
	if lookupEnv == nil {
		lookupEnv = os.LookupEnv
	}
	env, envSet := "", false
	if envName != "" {
		env, envSet = lookupEnv(envName)
		envSet = envSet && env != ""
	}
	switch {
	case file != "" && envSet:
		return nil, "", fmt.Errorf("token given twice, by file %s and by $%s: keep one", file, envName)
	case file != "":
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, "", fmt.Errorf("reading token file: %w", err)
		}
		token, source = bytes.TrimSpace(b), "file "+file
	case envSet:
		token, source = bytes.TrimSpace([]byte(env)), "$"+envName
	default:
		return nil, "", ErrNoToken
	}
	if err := checkToken(token); err != nil {
		return nil, "", fmt.Errorf("token from %s: %w", source, err)
	}
	return token, source, nil
}

func checkToken(token []byte) error {
	if len(token) < MinTokenLen {
		return fmt.Errorf("too short: %d bytes, want at least %d", len(token), MinTokenLen)
	}
	for _, c := range token {
		if c <= ' ' || c > '~' {
			return errors.New("contains a character that is not visible ASCII")
		}
	}
	return nil
}

// requireToken returns middleware that lets through only requests whose
// Authorization header is "Bearer <token>". It uses the go-sdk's
// RequireBearerToken (so that the token info reaches the MCP handler, which
// binds sessions to it) with AllowMissingExpiration: a static token has no
// expiry, and without that option the SDK rejects every such token.
func requireToken(token []byte) func(http.Handler) http.Handler {
	want := sha256.Sum256(token)
	verify := func(_ context.Context, got string, _ *http.Request) (*auth.TokenInfo, error) {
		// Comparing digests of equal length takes the same time whatever
		// the guess, its length included.
		g := sha256.Sum256([]byte(got))
		if subtle.ConstantTimeCompare(g[:], want[:]) != 1 {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: "token"}, nil
	}
	check := auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})
	return func(next http.Handler) http.Handler {
		// The go-sdk's middleware writes the 401 itself; challenge adds the
		// header that RFC 6750 asks of it. The handler behind gets the
		// original writer back.
		checked := check(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w.(challenge).ResponseWriter, r)
		}))
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			checked.ServeHTTP(challenge{w}, r)
		})
	}
}

// challenge adds "WWW-Authenticate: Bearer" to a 401 response.
type challenge struct{ http.ResponseWriter }

func (c challenge) WriteHeader(code int) {
	if code == http.StatusUnauthorized {
		c.Header().Set("WWW-Authenticate", `Bearer realm="mcp"`)
	}
	c.ResponseWriter.WriteHeader(code)
}
