package bridge

import (
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/access"
	"github.com/cobramcp/cobramcp/serve"
	"github.com/cobramcp/cobramcp/toolset"

	"github.com/spf13/cobra"
)

const flagAccess = "access"

// addAccessFlag defines --access on c (stream).
func addAccessFlag(c *cobra.Command) *string {
	p := new(string)
	c.Flags().StringVar(p, flagAccess, "", "serve each caller what the first matching rule of this JSON file allows (needs OAuth; see docs/access.md; env CLIENV_MCP_ACCESS)")
	return p
}

// sessions returns what the HTTP server serves: the server of every
// session, or, with an access file, none and the options' ServerFor
// hook, which serves each caller by its rule. It applies the call path's
// flags (fair shares, queue caps, the audit log) to every server; the
// function returned closes the audit log once the calls have ended.
func (f *streamFlags) sessions(o *Options, c *cobra.Command, ts *toolset.Served, authn serve.Authenticator, log *slog.Logger, confirm toolset.Confirm, obs toolset.Observer) (*mcp.Server, serve.HTTPOptions, func(), error) {
	hopts := f.httpOptions(authn, log)
	sopts := toolset.ServerOptions{Logger: log, HideEnv: secretVars(serverName(o, c), f), Confirm: confirm, Observer: obs}
	closeAudit, err := f.calls.apply(c, serverName(o, c), log, &sopts)
	if err != nil {
		return nil, hopts, nil, err
	}
	servers, err := accessFor(o, c, f.policy, *f.access, ts, f.oauth.issuer != "", sopts)
	if err != nil {
		closeAudit()
		return nil, hopts, nil, err
	}
	if servers == nil {
		return ts.NewServer(sopts), hopts, closeAudit, nil
	}
	hopts.ServerFor = servers.ServerFor
	return nil, hopts, closeAudit, nil
}

// accessFor returns the servers of the callers' access rules when
// --access, or <ROOT>_MCP_ACCESS, names an access file; nil when neither
// does. ts is the command line's view, whose reflection the callers' views
// share (slots, Wait) and whose policy applies to everyone on top of the
// rules. identities says whether the callers have identities (OAuth):
// without, an access file is an error. Every rule is checked here: a bad
// rule stops the server at start.
func accessFor(o *Options, c *cobra.Command, p *policyFlags, path string, ts *toolset.Served, identities bool, opts toolset.ServerOptions) (*access.Servers, error) {
	v, from, fromEnv := flagEnv(c.Flags(), serverName(o, c), flagAccess, os.LookupEnv)
	if fromEnv {
		path = strings.TrimSpace(v)
	}
	if path == "" {
		return nil, nil
	}
	if !identities && o.oauth == nil {
		return nil, fmt.Errorf("%s %s: access rules need callers with identities, and %w", from, path, errNoOAuth(serverName(o, c)))
	}
	if !identities {
		return nil, fmt.Errorf("%s %s: access rules need callers with identities: serve with OAuth (--%s and --%s)", from, path, flagOAuthIssuer, flagOAuthResource)
	}
	f, err := access.Load(path)
	if err != nil {
		return nil, err
	}
	pol, err := p.policy(o, c)
	if err != nil {
		return nil, err
	}
	return access.New(f, ts.Toolset(), access.Options{Listing: pol.Listing, Policies: []toolset.Policy{pol.Policy}, Server: opts})
}
