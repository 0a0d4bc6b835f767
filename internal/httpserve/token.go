package httpserve

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// MinTokenLen is the shortest bearer token accepted, in bytes. A shorter
// token is too easy to guess to guard a server reachable from a network.
const MinTokenLen = 16

// ErrNoToken is returned by [ReadToken] when neither the file nor the
// environment variable provides a token.
var ErrNoToken = errors.New("no token configured")

// ErrTokenFileOpen is returned (wrapped) by [ReadToken] for a token file
// that its group or other users may read or write, as ssh refuses such a
// private key.
var ErrTokenFileOpen = errors.New("token file is accessible by group or others")

// TokenSource says where [ReadToken] finds the bearer token.
type TokenSource struct {
	// File, when not empty, is the file holding the token.
	File string
	// Env is the environment variable holding the token.
	Env string
	// LookupEnv looks the variable up; nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// AllowOpenFile accepts a token file whose permissions let its group
	// or others read or write it. Without it such a file is refused with
	// [ErrTokenFileOpen].
	AllowOpenFile bool
}

// ReadToken returns the bearer token from src.File, when it is not empty,
// or else from the environment variable src.Env. Surrounding white space (a
// file's trailing newline) is removed. source describes where the token
// came from, for logs; it never contains the token.
//
// It is an error to provide the token both ways (the two could disagree
// silently), and a token must be at least [MinTokenLen] bytes of visible
// ASCII. A token file that group or others may read or write (mode 0644,
// 0666...) is refused unless src.AllowOpenFile (on Windows, whose file modes
// do not say this, it is not checked). When neither is set it returns
// [ErrNoToken].
//
// A token is never read from a command-line argument: other users of the
// machine can read a process's arguments.
func ReadToken(src TokenSource) (token []byte, source string, err error) {
	file, envName, lookupEnv := src.File, src.Env, src.LookupEnv
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
		b, err := readTokenFile(file, src.AllowOpenFile)
		if err != nil {
			return nil, "", err
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

// readTokenFile reads the token file, refusing it when its group or others
// may read or write it, unless allowOpen. The mode is that of the open file
// (a symbolic link's target, as in a Kubernetes secret volume).
func readTokenFile(file string, allowOpen bool) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("reading token file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("reading token file: %w", err)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 && !allowOpen && runtime.GOOS != "windows" {
		return nil, fmt.Errorf("%w: %s has mode %04o, want 0600 or stricter (chmod 600 %s)", ErrTokenFileOpen, file, perm, file)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("reading token file: %w", err)
	}
	return b, nil
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

// TokenMiddleware returns middleware that lets through only requests whose
// Authorization header is "Bearer <token>", or an error for a token too
// short or with characters other than visible ASCII. It uses the go-sdk's
// RequireBearerToken (so that the token info reaches the MCP handler) with
// AllowMissingExpiration: a static token has no expiry, and without that
// option the SDK rejects every such token. Every holder of the token is
// the same caller: its TokenInfo has an empty UserID.
func TokenMiddleware(token []byte) (func(http.Handler) http.Handler, error) {
	if err := checkToken(token); err != nil {
		return nil, fmt.Errorf("token: %w", err)
	}
	return requireToken(token), nil
}

func requireToken(token []byte) func(http.Handler) http.Handler {
	want := sha256.Sum256(token)
	verify := func(_ context.Context, got string, _ *http.Request) (*auth.TokenInfo, error) {
		// Comparing digests of equal length takes the same time whatever
		// the guess, its length included.
		g := sha256.Sum256([]byte(got))
		if subtle.ConstantTimeCompare(g[:], want[:]) != 1 {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{}, nil
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
