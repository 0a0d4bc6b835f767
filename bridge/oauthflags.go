package bridge

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/internal/httpserve"
	"github.com/cobramcp/cobramcp/serve"
)

// Names of the OAuth flags of `mcp stream`.
const (
	flagOAuthIssuer   = "oauth-issuer"
	flagOAuthResource = "oauth-resource"
	flagOAuthScopes   = "oauth-scopes"
	flagOAuthRefresh  = "oauth-key-refresh"
)

// oauthFlags are the flags that make `mcp stream` an OAuth 2.1 resource
// server.
type oauthFlags struct {
	issuer, resource string
	scopes           []string
	keyRefresh       time.Duration
}

// addOAuthFlags defines the OAuth flags on c.
func addOAuthFlags(c *cobra.Command, f *oauthFlags) {
	fl := c.Flags()
	fl.StringVar(&f.issuer, flagOAuthIssuer, "", "serve as an OAuth resource server: accept only access tokens of this issuer (URL; needs --"+flagOAuthResource+"; env CLIENV_MCP_OAUTH_ISSUER)")
	fl.StringVar(&f.resource, flagOAuthResource, "", "this server's URL as clients reach it, e.g. https://mcp.example.com/mcp: tokens must carry it as audience (env CLIENV_MCP_OAUTH_RESOURCE)")
	listFlag(fl, &f.scopes, flagOAuthScopes, "scopes listed in the protected-resource metadata for clients to ask for (default: the issuer's scopes_supported; env CLIENV_MCP_OAUTH_SCOPES)", false)
	fl.DurationVar(&f.keyRefresh, flagOAuthRefresh, httpserve.DefaultOAuthKeyRefresh, "fetch the issuer's signing keys again this often, sooner when its key set's Cache-Control max-age says so: a key removed at the issuer is refused within it (env CLIENV_MCP_OAUTH_KEY_REFRESH)")
}

// read fills the flags not given from <ROOT>_MCP_OAUTH_* and reports
// whether OAuth is asked for.
func (f *oauthFlags) read(c *cobra.Command, root string, lookup func(string) (string, bool)) (bool, error) {
	for _, v := range []struct {
		flag string
		dst  *string
	}{{flagOAuthIssuer, &f.issuer}, {flagOAuthResource, &f.resource}} {
		if val, _, fromEnv := flagEnv(c.Flags(), root, v.flag, lookup); fromEnv {
			*v.dst = strings.TrimSpace(val)
		}
	}
	if val, from, fromEnv := flagEnv(c.Flags(), root, flagOAuthRefresh, lookup); fromEnv {
		if err := c.Flags().Lookup(flagOAuthRefresh).Value.Set(strings.TrimSpace(val)); err != nil {
			return false, fmt.Errorf("%s %q: want a duration such as 5m or 1h", from, val)
		}
	}
	if f.keyRefresh <= 0 {
		return false, fmt.Errorf("--%s %v: want a positive duration such as 5m (the default is %v)", flagOAuthRefresh, f.keyRefresh, httpserve.DefaultOAuthKeyRefresh)
	}
	if val, _, fromEnv := flagEnv(c.Flags(), root, flagOAuthScopes, lookup); fromEnv {
		f.scopes = strings.FieldsFunc(val, func(r rune) bool { return r == ',' || r == ' ' })
	}
	switch {
	case f.issuer == "" && f.resource == "":
		return false, nil
	case f.issuer == "":
		return false, fmt.Errorf("--%s %s needs --%s (or $%s): the issuer whose tokens to accept", flagOAuthResource, f.resource, flagOAuthIssuer, policyEnv(root, flagOAuthIssuer))
	case f.resource == "":
		return false, fmt.Errorf("--%s %s needs --%s (or $%s): this server's URL as clients reach it, e.g. https://mcp.example.com%s", flagOAuthIssuer, f.issuer, flagOAuthResource, policyEnv(root, flagOAuthResource), streamPath)
	}
	return true, nil
}

// auth returns the authentication of the stream command: the static
// token (when token is set), or OAuth, or none; and the attributes that
// describe it in the log. Both at once is an error.
func (f *streamFlags) auth(ctx context.Context, o *Options, c *cobra.Command, root string, token []byte, source string, log *slog.Logger) (serve.Authenticator, []any, error) {
	useOAuth, err := f.oauth.read(c, root, os.LookupEnv)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case useOAuth && token != nil:
		return nil, nil, fmt.Errorf("both a static token (%s) and --%s are set: a server authenticates one way; keep one", source, flagOAuthIssuer)
	case useOAuth && o.oauth == nil:
		return nil, nil, fmt.Errorf("--%s: %w", flagOAuthIssuer, errNoOAuth(root))
	case useOAuth:
		a, err := o.oauth(ctx, serve.OAuthConfig{Issuer: f.oauth.issuer, Resource: f.oauth.resource, Scopes: f.oauth.scopes, KeyRefresh: f.oauth.keyRefresh, Logger: log})
		if err != nil {
			return nil, nil, err
		}
		attrs := []any{"auth", "oauth", "issuer", f.oauth.issuer, "resource", f.oauth.resource}
		if m, ok := a.(interface{ MetadataURL() string }); ok {
			attrs = append(attrs, "metadata", m.MetadataURL())
		}
		return a, attrs, nil
	case token != nil:
		a, err := serve.StaticToken(token)
		if err != nil {
			return nil, nil, err
		}
		return a, []any{"token", source}, nil
	}
	return nil, []any{"token", "none"}, nil
}

// errNoOAuth says, in the one line that `mcp stream --oauth-issuer` (or
// --access) prints on a CLI that did not opt into OAuth, the two ways to
// the team server.
func errNoOAuth(root string) error {
	return fmt.Errorf("%s is built without OAuth: its author opts in with bridge.WithOAuth(oauth.New), or serve it from outside: cobramcp stream --oauth-issuer ISSUER --oauth-resource URL -- %s", root, root)
}
