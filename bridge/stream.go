package bridge

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/cobramcp/cobramcp/internal/httpserve"
	"github.com/cobramcp/cobramcp/serve"
	"github.com/cobramcp/cobramcp/toolset"

	"github.com/spf13/cobra"
)

// streamPath is the URL path of the MCP endpoint served by `mcp stream`.
const streamPath = "/mcp"

// Names of the stream command's flags that the error messages refer to.
const (
	flagTokenFile    = "token-file"
	flagTokenEnv     = "token-env"
	flagInsecurePub  = "insecure-no-auth-on-public-address"
	flagOpenToken    = "insecure-token-file-permissions"
	defaultStreamAdd = "127.0.0.1:8080"
)

type streamFlags struct {
	addr           string
	stateless      bool
	policy         *policyFlags
	calls          *callFlags
	access         *string
	confirm        *confirmFlags
	tokenFile      string
	tokenEnv       string
	insecurePublic bool
	openTokenFile  bool
	allowOrigins   []string
	tlsCert        string
	tlsKey         string
	maxBody        int64
	grace          time.Duration
	sessionTimeout time.Duration
	maxSessions    int
	oauth          oauthFlags
	telemetry      *telemetryFlags // nil: the CLI did not opt in
}

func newStreamCmd(o *Options) *cobra.Command {
	var f streamFlags
	c := &cobra.Command{
		Use:   "stream",
		Short: "Serve the tools over MCP streamable HTTP",
		Long: "Serve this CLI's commands as MCP tools over the streamable HTTP transport, at " + streamPath + ",\n" +
			"with the same tools, limits and results as `start`. GET /healthz answers 200 for load balancers.\n" +
			"\n" +
			"Safety by default:\n" +
			"  - With a token, every request but /healthz needs \"Authorization: Bearer TOKEN\". The token is\n" +
			"    read from --token-file or from the environment variable --token-env (by default\n" +
			"    <ROOT>_MCP_TOKEN, e.g. CLIENV_MCP_TOKEN), never from the command line.\n" +
			"  - With --oauth-issuer and --oauth-resource it is an OAuth 2.1 resource server instead: every\n" +
			"    request needs an access token (a JWT) of that issuer for that resource (its audience); the\n" +
			"    401 points clients to /.well-known/oauth-protected-resource, which tells them where to log in.\n" +
			"    Each caller's sessions are theirs alone. A token and OAuth cannot be used together.\n" +
			"  - Without a token it serves only on a loopback address; on any other address it refuses to\n" +
			"    start unless --" + flagInsecurePub + " says that something in front of it authenticates.\n" +
			"  - Browser requests from another origin are refused (--allow-origin trusts one), and on\n" +
			"    loopback a Host header that is not localhost is refused (DNS rebinding).\n" +
			"  - Request bodies are limited (--max-body-bytes); --tls-cert and --tls-key serve HTTPS.\n" +
			"\n" +
			"By default the server is stateful: a session lives in the replica that created it, at most\n" +
			"--max-sessions at once. A call ends with its process group when its request's connection\n" +
			"drops or its session is deleted. With\n" +
			"--stateless no state is kept, so any replica can answer any request; a client then loses\n" +
			"server-to-client requests (sampling, elicitation, roots) and the stream for server\n" +
			"notifications (GET), and with protocol versions before 2026-07-28 a notifications/cancelled\n" +
			"cannot reach the call it names: a call is cancelled only by closing its HTTP request.\n" +
			"\n" +
			"SIGTERM or SIGINT starts a graceful shutdown: no new connections, running calls may finish\n" +
			"within --shutdown-grace, then the calls left are ended with their process groups. A second\n" +
			"signal ends them at once.",
		Example: "  # on this machine only, no token needed:\n" +
			"  CLINAME mcp stream\n" +
			"  # for a team, on every interface, with a token:\n" +
			"  head -c 32 /dev/urandom | base64 > token && chmod 600 token\n" +
			"  CLINAME mcp stream --addr :8080 --token-file token\n" +
			"  # for a team, with its identity provider:\n" +
			"  CLINAME mcp stream --addr :8080 --oauth-issuer https://idp.example.com/realms/team \\\n" +
			"    --oauth-resource https://mcp.example.com/mcp",
		Args: flagsOnly,
		RunE: func(c *cobra.Command, _ []string) error { return runStream(c, o, &f) },
	}
	fl := c.Flags()
	fl.StringVar(&f.addr, "addr", defaultStreamAdd, "address to listen on (host:port); a host other than loopback needs a token")
	fl.BoolVar(&f.stateless, "stateless", false, "keep no session state, so that any replica can answer any request (see above for what clients lose)")
	f.policy = addPolicyFlags(c, toolset.ToolModeAuto)
	f.calls = addCallFlags(c, true)
	f.access = addAccessFlag(c)
	addLimitFlags(c)
	fl.StringVar(&f.tokenFile, flagTokenFile, "", "file holding the bearer token that clients must send")
	fl.BoolVar(&f.openTokenFile, flagOpenToken, false, "accept a --token-file that its group or others may read or write (refused by default, as ssh refuses such keys)")
	fl.StringVar(&f.tokenEnv, flagTokenEnv, "", "environment variable holding the bearer token (default <ROOT>_MCP_TOKEN, e.g. CLIENV_MCP_TOKEN)")
	fl.BoolVar(&f.insecurePublic, flagInsecurePub, false, "DANGEROUS: serve without a token on an address other machines can reach (only behind something that authenticates)")
	listFlag(fl, &f.allowOrigins, "allow-origin", "browser origin allowed besides the server's own (scheme://host[:port]); repeatable", false)
	fl.StringVar(&f.tlsCert, "tls-cert", "", "serve HTTPS with this certificate (PEM; needs --tls-key)")
	fl.StringVar(&f.tlsKey, "tls-key", "", "private key of --tls-cert (PEM)")
	fl.Int64Var(&f.maxBody, "max-body-bytes", httpserve.DefaultMaxBodyBytes, "largest request body accepted; larger ones get 413")
	fl.DurationVar(&f.grace, "shutdown-grace", httpserve.DefaultGrace, "on SIGTERM, how long running calls may go on before they are ended")
	fl.DurationVar(&f.sessionTimeout, "session-timeout", httpserve.DefaultSessionTimeout, "close a stateful session idle this long (0: never, only with --max-sessions 0)")
	fl.IntVar(&f.maxSessions, "max-sessions", httpserve.DefaultMaxSessions, "most stateful sessions held at once; a new one over it is refused (0: no limit)")
	addOAuthFlags(c, &f.oauth)
	f.confirm = addConfirmFlags(c)
	f.telemetry = addTelemetryFlags(o, c)
	return c
}

// tokenEnv returns the default environment variable for the token of the
// CLI named root: "CLIENV_MCP_TOKEN" for "CLINAME". Characters that cannot be
// in a variable name become '_'.
func tokenEnv(root string) string {
	return envPrefix(root) + "_MCP_TOKEN"
}

func runStream(c *cobra.Command, o *Options, f *streamFlags) error {
	log, err := logger(c)
	if err != nil {
		return err
	}
	if f.maxBody <= 0 {
		return fmt.Errorf("--max-body-bytes %d: want a positive size", f.maxBody)
	}
	// serve reads a zero grace as its default: refuse it rather than
	// wait 25s when asked for no wait. A second signal ends calls at once.
	if f.grace <= 0 {
		return fmt.Errorf("--shutdown-grace %v: want a positive duration (a second SIGTERM or Ctrl-C ends the calls at once)", f.grace)
	}
	if f.sessionTimeout < 0 {
		return fmt.Errorf("--session-timeout %v: want 0 (never) or a positive duration", f.sessionTimeout)
	}
	if err := checkSessionLimits(f); err != nil {
		return err
	}
	envName := f.tokenEnv
	if envName == "" {
		envName = tokenEnv(serverName(o, c)) // the served CLI's: KUBECTL_MCP_TOKEN for `cobramcp stream -- kubectl`
	}
	var pathErr *fs.PathError
	token, source, err := httpserve.ReadToken(httpserve.TokenSource{File: f.tokenFile, Env: envName, AllowOpenFile: f.openTokenFile})
	switch {
	case errors.Is(err, httpserve.ErrTokenFileOpen):
		return fmt.Errorf("--%s: %w; if something else keeps the file private, pass --%s", flagTokenFile, err, flagOpenToken)
	case errors.Is(err, httpserve.ErrNoToken) && f.tokenEnv != "":
		// Asked for a token by name: a typo or a missing secret must not
		// mean serving without one.
		return fmt.Errorf("--%s %s: $%s is not set or empty", flagTokenEnv, f.tokenEnv, f.tokenEnv)
	case errors.Is(err, httpserve.ErrNoToken):
		token = nil
	case err != nil && f.tokenFile != "" && errors.As(err, &pathErr):
		// The file could not be read: name the flag and the path as given.
		return fmt.Errorf("--%s %s: %w", flagTokenFile, f.tokenFile, pathErr.Err)
	case err != nil && f.tokenFile != "":
		// Read, but not a token to serve with (too short, given twice).
		return fmt.Errorf("--%s %s: %w", flagTokenFile, f.tokenFile, err)
	case err != nil:
		return err
	}

	// The authentication is settled (the issuer discovered) before the
	// tree is read: a wrong issuer fails at once.
	authn, authDesc, err := f.auth(c.Context(), o, c, serverName(o, c), token, source, log)
	if err != nil {
		return err
	}

	began := time.Now()
	ts, err := f.policy.load(o, c)
	if err != nil {
		return err
	}
	confirm, err := f.confirm.read(o, c, ts)
	if err != nil {
		return err
	}
	tel, err := startTelemetry(c.Context(), o, c, ts, began, f.telemetry, log)
	if err != nil {
		return err
	}
	defer tel.shutdown()

	srv, hopts, closeAudit, err := f.sessions(o, c, ts, authn, log, confirm, tel.observer()) // fair shares, audit log, --access, telemetry
	if err != nil {
		return err
	}
	defer closeAudit()
	hs, err := serve.NewHTTPServer(srv, hopts)
	if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	defer ln.Close()

	// The first SIGTERM or SIGINT starts the graceful shutdown, a second
	// one ends the running calls at once.
	ctx, stop := context.WithCancel(c.Context())
	defer stop()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-sigs:
		case <-done:
			return
		}
		stop()
		select {
		case <-sigs:
			log.Warn("second signal: ending the running calls now")
			hs.Abort()
		case <-done:
		}
	}()
	scheme := "http"
	if f.tlsCert != "" {
		scheme = "https"
	}
	attrs := append([]any{"url", scheme + "://" + ln.Addr().String() + streamPath, "stateless", f.stateless}, authDesc...)
	if err := hs.CheckExposure(ln.Addr()); err != nil {
		// Name the address as the user gave it: the listener's own
		// ("[::]:8080" for ":8080" or "0.0.0.0:8080") reads as another one.
		return fmt.Errorf("--addr %s: %w: set a token with --%s FILE or $%s, or OAuth with --%s and --%s, or listen on 127.0.0.1; "+
			"if a proxy in front of this server authenticates, pass --%s",
			f.addr, serve.ErrPublicWithoutAuth, flagTokenFile, envName, flagOAuthIssuer, flagOAuthResource, flagInsecurePub)
	}
	if f.telemetry != nil {
		stopMetrics, err := tel.serveMetrics(f.telemetry.metricsAddr)
		if err != nil {
			return err
		}
		defer stopMetrics()
	}
	log.Info("serving MCP over streamable HTTP", attrs...)
	err = hs.Serve(ctx, ln)
	ts.Wait()
	if err != nil {
		return err
	}
	log.Info("MCP HTTP server stopped")
	return nil
}

// httpOptions maps the flags onto the library server's options. The
// flags say 0 for "no limit" where the options say a negative number.
func (f *streamFlags) httpOptions(authn serve.Authenticator, log *slog.Logger) serve.HTTPOptions {
	opts := serve.HTTPOptions{
		Path:                   streamPath,
		Stateless:              f.stateless,
		SessionTimeout:         f.sessionTimeout,
		MaxSessions:            f.maxSessions,
		MaxBodyBytes:           f.maxBody,
		Auth:                   authn,
		AllowPublicWithoutAuth: f.insecurePublic,
		TrustedOrigins:         f.allowOrigins,
		TLSCertFile:            f.tlsCert,
		TLSKeyFile:             f.tlsKey,
		Grace:                  f.grace,
		Logger:                 log,
	}
	if f.sessionTimeout == 0 {
		opts.SessionTimeout = -1
	}
	if f.maxSessions == 0 {
		opts.MaxSessions = -1
	}
	return opts
}

// checkSessionLimits refuses limits that do not fit together: sessions that
// never time out would fill a capped server for good.
func checkSessionLimits(f *streamFlags) error {
	if f.maxSessions < 0 {
		return fmt.Errorf("--max-sessions %d: want 0 (no limit) or a positive number", f.maxSessions)
	}
	if f.sessionTimeout == 0 && f.maxSessions > 0 && !f.stateless {
		return fmt.Errorf("--session-timeout 0 keeps sessions forever, so clients that leave without "+
			"closing theirs would fill --max-sessions %d for good: set a timeout, or --max-sessions 0", f.maxSessions)
	}
	return nil
}
