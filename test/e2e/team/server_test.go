package teame2e

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/access"
	"github.com/cobramcp/cobramcp/audit"
	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/internal/oidctest"
	"github.com/cobramcp/cobramcp/oauth"
	"github.com/cobramcp/cobramcp/serve"
	"github.com/cobramcp/cobramcp/test/auditfile"
	"github.com/cobramcp/cobramcp/test/mcptest"
	"github.com/cobramcp/cobramcp/toolset"
)

// claims are the callers of the tests, by name: the claims of the access
// tokens the test provider signs for them.
var claims = map[string]map[string]any{
	"bob":   {"sub": "bob", "groups": []string{"dev", "admins"}},
	"alice": {"sub": "alice", "scope": "openid mycli.read"},
	"carol": {"sub": "carol", "email": "carol@example.com"},
	"dave":  {"sub": "dave", "groups": []string{"dev"}},
	"hog":   {"sub": "hog", "groups": []string{"load"}},
	"quick": {"sub": "quick", "groups": []string{"load"}},
}

type setup struct {
	access      string
	policies    []toolset.Policy // the command line's, on top of the rules
	limits      toolset.Limits
	maxParallel int
}

type server struct {
	url       string
	state     string // mycli's state file
	auditPath string
	logs      *logCounter
	idp       *oidctest.Provider
	stop      func() // ends the server and its calls, closes the audit log
}

// start serves mycli's tree as a library user would: an OAuth resource
// server (package oauth) of a provider started in the test
// (internal/oidctest, mockoidc), serve's HTTP server on a loopback port,
// and each caller's session served by access.Servers.ServerFor.
func start(t *testing.T, s setup) *server {
	t.Helper()
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	if err := mycli.SeedState().Save(state); err != nil {
		t.Fatal(err)
	}
	logs := &logCounter{}
	ts, err := toolset.New(mycli.New(), &toolset.Config{
		Logger:      slog.New(logs), // the call path's debug log: "running", "waiting for a free call slot"
		Executable:  mycliBin,
		Env:         append(os.Environ(), mycli.StateEnv+"="+state),
		MaxParallel: s.maxParallel,
	})
	if err != nil {
		t.Fatal(err)
	}
	f, err := access.Parse([]byte(s.access))
	if err != nil {
		t.Fatal(err)
	}
	auditPath := filepath.Join(dir, "audit.log")
	alog, err := audit.Open(auditPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	servers, err := access.New(f, ts, access.Options{
		Listing:  toolset.Listing{Mode: toolset.ToolModeFull},
		Policies: s.policies,
		Server:   toolset.ServerOptions{Logger: slog.New(logs), Audit: alog, Limits: s.limits},
	})
	if err != nil {
		t.Fatal(err)
	}
	idp := oidctest.Start(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/mcp"
	rs, err := oauth.New(context.Background(), serve.OAuthConfig{Issuer: idp.Issuer(), Resource: url})
	if err != nil {
		t.Fatal(err)
	}
	hs, err := serve.NewHTTPServer(nil, serve.HTTPOptions{Auth: rs, ServerFor: servers.ServerFor, Grace: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ctx, ln) }()
	v, err := ts.View(toolset.Listing{})
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	srv := &server{url: url, state: state, auditPath: auditPath, logs: logs, idp: idp}
	srv.stop = func() {
		once.Do(func() {
			cancel()
			if err := <-served; err != nil {
				t.Errorf("serve: %v", err)
			}
			v.Wait() // the calls of every view of ts
			alog.Close()
		})
	}
	t.Cleanup(srv.stop)
	return srv
}

// token returns an access token of the caller named who for s.
func (s *server) token(t *testing.T, who string) string {
	t.Helper()
	c := map[string]any{"aud": s.url}
	for k, v := range claims[who] {
		c[k] = v
	}
	return s.idp.Token(t, c)
}

// bearer adds a token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// connect opens a session as the caller named who.
func (s *server) connect(t *testing.T, who string) (*mcp.ClientSession, error) {
	c := mcp.NewClient(&mcp.Implementation{Name: "team-e2e", Version: "1"}, nil)
	return c.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint:   s.url,
		HTTPClient: &http.Client{Transport: bearer{s.token(t, who), http.DefaultTransport}},
		MaxRetries: -1,
	}, nil)
}

func (s *server) mustConnect(t *testing.T, who string) *mcp.ClientSession {
	t.Helper()
	cs, err := s.connect(t, who)
	if err != nil {
		t.Fatalf("%s: connect: %v", who, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// auditLines reads the audit log, once the server has stopped.
func (s *server) auditLines(t *testing.T) []map[string]any {
	t.Helper()
	s.stop()
	if _, err := os.Stat(s.auditPath); err != nil {
		t.Fatal(err)
	}
	return auditfile.Lines(t, s.auditPath)
}

// logCounter is a slog.Handler that counts messages by text and keeps
// every line.
type logCounter struct {
	mu    sync.Mutex
	count map[string]int
	lines []string
}

func (l *logCounter) Enabled(context.Context, slog.Level) bool { return true }

func (l *logCounter) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.count == nil {
		l.count = map[string]int{}
	}
	var b strings.Builder
	b.WriteString(r.Message)
	r.Attrs(func(a slog.Attr) bool {
		b.WriteString(" " + a.String())
		if a.Key == "caller" {
			l.count[r.Message+" "+a.Value.String()]++
		}
		return true
	})
	l.count[r.Message]++
	l.lines = append(l.lines, b.String())
	return nil
}

func (l *logCounter) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logCounter) WithGroup(string) slog.Handler      { return l }

func (l *logCounter) n(msg string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.count[msg]
}

func (l *logCounter) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// waitFor polls cond until it holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never reached: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// text is the text of a result's content.
var text = mcptest.Text
