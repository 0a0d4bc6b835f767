package bridge

import (
	"context"
	"log/slog"
	"os"

	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/internal/toolmeta"
	"github.com/cobramcp/cobramcp/serve"
	"github.com/cobramcp/cobramcp/toolset"
)

// Config chooses what is served and how calls run; see toolset.Config. The
// zero value (or a nil *Config) serves every runnable command with every
// flag.
type Config = toolset.Config

// Selector chooses commands and, for those it matches, their flags; see
// toolset.Selector.
type Selector = toolset.Selector

// Command returns the command group ("mcp" by default) that serves root's
// commands as MCP tools; add it to the root command:
//
//	root.AddCommand(bridge.Command(nil))
//
// The tree is reflected when a sub-command runs, so commands added after
// this call are served too. A nil cfg means the defaults; opts add parts
// the CLI links only when it asks for them.
func Command(cfg *Config, opts ...Option) *cobra.Command {
	var c Config
	if cfg != nil {
		c = *cfg
	}
	name := c.CommandName
	if name == "" {
		name = toolmeta.DefaultCommandName
	}
	o := Options{
		Name: name,
		Tree: func(sub *cobra.Command, _ *slog.Logger) (*cobra.Command, *toolset.Config, error) {
			lc := c
			return sub.Root(), &lc, nil
		},
		DefaultEnv: func() map[string]string { return captureEnv(c.DefaultEnv) },
	}
	return New(o, opts...)
}

// An Option adds to the command group a part that a CLI links only when
// it asks for it, such as the team server's OAuth verification
// ([WithOAuth]). A CLI that gives none links none of them.
type Option func(*Options)

// WithOAuth lets `mcp stream` serve a team as an OAuth 2.1 resource server
// (--oauth-issuer, --oauth-resource, --oauth-scopes, and --access, whose
// rules need the callers' identities): newAuth makes the server's
// authentication from the flags' settings. It is package oauth's New:
//
//	root.AddCommand(bridge.Command(nil, bridge.WithOAuth(oauth.New)))
//
// bridge does not import package oauth: a CLI that does not opt in links
// no OAuth, JOSE or OIDC code, and its `mcp stream --oauth-issuer` says
// how to get the team server.
func WithOAuth[A serve.Authenticator](newAuth func(context.Context, serve.OAuthConfig) (A, error)) Option {
	return func(o *Options) {
		o.oauth = func(ctx context.Context, cfg serve.OAuthConfig) (serve.Authenticator, error) {
			a, err := newAuth(ctx, cfg)
			if err != nil {
				return nil, err
			}
			return a, nil
		}
	}
}

// captureEnv returns the current values of the named variables that are set.
func captureEnv(names []string) map[string]string {
	env := map[string]string{}
	for _, n := range names {
		if v, ok := os.LookupEnv(n); ok {
			env[n] = v
		}
	}
	return env
}
