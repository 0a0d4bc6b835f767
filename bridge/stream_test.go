package bridge_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/internal/toolmeta"
	"github.com/cobramcp/cobramcp/oauth"
	"github.com/cobramcp/cobramcp/serve"
	"github.com/cobramcp/cobramcp/test/proctest"
	"github.com/cobramcp/cobramcp/toolset"
)

// streamCLI is a CLI, fake, of 102 commands: echo (--text), cmd00 to
// cmd99, and zap. Its calls never run: each answers its --text.
func streamCLI() *fakeCLI {
	return &fakeCLI{
		build: func() *cobra.Command {
			noop := func(*cobra.Command, []string) error { return nil }
			root := &cobra.Command{Use: "fake"}
			echo := &cobra.Command{Use: "echo", Short: "Print a text.", Args: cobra.NoArgs, RunE: noop}
			echo.Flags().String("text", "", "the text to print")
			root.AddCommand(echo, &cobra.Command{Use: "zap", Short: "Zap.", RunE: noop})
			for i := range 100 {
				root.AddCommand(&cobra.Command{Use: fmt.Sprintf("cmd%02d", i), Short: "A command.", RunE: noop})
			}
			return root
		},
		result: func(c *toolset.Call) *toolset.Result {
			s, _ := c.Flags["text"].(string)
			return &toolset.Result{Stdout: s}
		},
	}
}

// streamRoot returns a root command "fake" with the mcp group serving
// what load returns, with the team server's OAuth (bridge.WithOAuth) as
// cmd/cobramcp has it.
func streamRoot(tree func(*cobra.Command, *slog.Logger) (*cobra.Command, *toolset.Config, error)) *cobra.Command {
	root := &cobra.Command{Use: "fake", SilenceUsage: true, SilenceErrors: true}
	root.AddCommand(bridge.New(bridge.Options{Tree: tree}, bridge.WithOAuth(oauth.New)))
	return root
}

// runStream runs `fake mcp stream args...` until ctx is done and returns
// its error.
func runStream(ctx context.Context, tree func(*cobra.Command, *slog.Logger) (*cobra.Command, *toolset.Config, error), args ...string) error {
	root := streamRoot(tree)
	root.SetArgs(append([]string{"mcp", "stream", "--mcp-log-level", "error"}, args...))
	var out bytes.Buffer
	root.SetOut(&out)
	return root.ExecuteContext(ctx)
}

func TestStreamRefusals(t *testing.T) {
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte("file-token-0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	shortFile := filepath.Join(dir, "short")
	if err := os.WriteFile(shortFile, []byte("short\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	looseFile := filepath.Join(dir, "loose")
	if err := os.WriteFile(looseFile, []byte("file-token-0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(looseFile, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		env  string // FAKE_MCP_TOKEN
		args []string
		want []string
	}{
		{"public address without token", "", []string{"--addr", "0.0.0.0:0"},
			[]string{"refusing to serve without authentication", "--addr 0.0.0.0:0", "--token-file", "$FAKE_MCP_TOKEN", "--oauth-issuer", "--insecure-no-auth-on-public-address"}},
		{"public address without token, as typed", "", []string{"--addr", ":0"},
			[]string{"--addr :0:", "refusing to serve without authentication"}},
		{"token twice", "env-token-0123456789", []string{"--token-file", tokenFile}, []string{"given twice"}},
		{"short token", "short", nil, []string{"too short"}},
		{"missing token file", "", []string{"--token-file", filepath.Join(dir, "none")}, []string{"--token-file " + filepath.Join(dir, "none") + ":", "no such file"}},
		{"short token in a file", "", []string{"--token-file", shortFile}, []string{"--token-file " + shortFile + ":", "too short"}},
		{"token file readable by others", "", []string{"--token-file", looseFile}, []string{"--token-file", "mode 0644", "chmod 600", "--insecure-token-file-permissions"}},
		{"zero body limit", "", []string{"--max-body-bytes", "0"}, []string{"--max-body-bytes"}},
		{"named token variable unset", "", []string{"--token-env", "FAKE_UNSET_TOKEN_VAR"}, []string{"--token-env", "$FAKE_UNSET_TOKEN_VAR is not set"}},
		{"named token variable empty", "", []string{"--token-env", "FAKE_MCP_TOKEN"}, []string{"$FAKE_MCP_TOKEN is not set or empty"}},
		{"zero shutdown grace", "", []string{"--shutdown-grace", "0"}, []string{"--shutdown-grace"}},
		{"negative shutdown grace", "", []string{"--shutdown-grace", "-1s"}, []string{"--shutdown-grace"}},
		{"negative session timeout", "", []string{"--session-timeout", "-1s"}, []string{"--session-timeout"}},
		{"sessions forever with a cap", "", []string{"--session-timeout", "0"}, []string{"--session-timeout 0", "--max-sessions 1000", "--max-sessions 0"}},
		{"negative session cap", "", []string{"--max-sessions", "-1"}, []string{"--max-sessions -1"}},
		{"bad origin", "", []string{"--allow-origin", "not a url"}, []string{"trusted origin"}},
		{"key without cert", "", []string{"--tls-key", "k.pem"}, []string{"both a certificate and a key"}},
		{"bad address", "", []string{"--addr", "256.0.0.1:1"}, []string{"--addr"}},
		{"token and OAuth", "env-token-0123456789", []string{"--oauth-issuer", "http://127.0.0.1:1/x", "--oauth-resource", "http://127.0.0.1:1/mcp"}, []string{"$FAKE_MCP_TOKEN", "--oauth-issuer", "keep one"}},
		{"issuer without resource", "", []string{"--oauth-issuer", "http://127.0.0.1:1/x"}, []string{"needs --oauth-resource", "$FAKE_MCP_OAUTH_RESOURCE"}},
		{"resource without issuer", "", []string{"--oauth-resource", "http://127.0.0.1:1/mcp"}, []string{"needs --oauth-issuer", "$FAKE_MCP_OAUTH_ISSUER"}},
		{"issuer unreachable", "", []string{"--oauth-issuer", "http://127.0.0.1:1/x", "--oauth-resource", "http://127.0.0.1:1/mcp"}, []string{"cannot discover the OAuth issuer http://127.0.0.1:1/x", "connection refused", "reachable from here"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("FAKE_MCP_TOKEN", tt.env)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			err := runStream(ctx, streamCLI().source, append([]string{"--addr", "127.0.0.1:0"}, tt.args...)...)
			if err == nil {
				t.Fatal("served")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// A CLI that did not opt into OAuth (no bridge.WithOAuth) refuses the
// team server's settings in one line naming both ways to it; one that did
// hands the flags' settings to its constructor.
func TestStreamOAuthOptIn(t *testing.T) {
	idp := "http://127.0.0.1:1/realms/team"
	res := "http://127.0.0.1:1/mcp"
	for _, tt := range []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"flags", nil, []string{"--oauth-issuer", idp, "--oauth-resource", res}},
		{"variables", map[string]string{"FAKE_MCP_OAUTH_ISSUER": idp, "FAKE_MCP_OAUTH_RESOURCE": res}, nil},
		{"access rules", nil, []string{"--access", "rules.json"}},
	} {
		t.Run("without/"+tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			root := &cobra.Command{Use: "fake", SilenceUsage: true, SilenceErrors: true}
			root.AddCommand(&cobra.Command{Use: "echo", Run: func(*cobra.Command, []string) {}}, bridge.Command(nil))
			root.SetArgs(append([]string{"mcp", "stream", "--mcp-log-level", "error", "--addr", "127.0.0.1:0"}, tt.args...))
			err := root.Execute()
			if err == nil {
				t.Fatal("served")
			}
			msg := err.Error()
			for _, w := range []string{"fake is built without OAuth", "bridge.WithOAuth(oauth.New)", "cobramcp stream --oauth-issuer ISSUER --oauth-resource URL -- fake"} {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not say %q", msg, w)
				}
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error %q is more than one line", msg)
			}
		})
	}
	t.Run("with", func(t *testing.T) {
		var got serve.OAuthConfig
		errCalled := fmt.Errorf("the constructor was called")
		root := &cobra.Command{Use: "fake", SilenceUsage: true, SilenceErrors: true}
		root.AddCommand(bridge.Command(nil, bridge.WithOAuth(func(_ context.Context, c serve.OAuthConfig) (serve.Authenticator, error) {
			got = c
			return nil, errCalled
		})))
		root.SetArgs([]string{"mcp", "stream", "--mcp-log-level", "error", "--addr", "127.0.0.1:0", "--oauth-issuer", idp, "--oauth-resource", res, "--oauth-scopes", "a,b"})
		if err := root.Execute(); !errors.Is(err, errCalled) {
			t.Fatalf("got %v, want the constructor's error", err)
		}
		if got.Issuer != idp || got.Resource != res || !slices.Equal(got.Scopes, []string{"a", "b"}) || got.Logger == nil {
			t.Errorf("the constructor got %+v", got)
		}
	})
}

// stream is one `fake mcp stream` run in the test's process.
type stream struct {
	base   string     // http://ADDR, the loopback address it serves on
	done   chan error // what it returned, once it has
	cancel context.CancelFunc
}

// startStream runs `fake mcp stream --addr ADDR args...`, serving what
// tree loads on a free loopback address, and returns once it answers
// /healthz. It is stopped at the end of the test if stop was not called.
func startStream(t *testing.T, tree func(*cobra.Command, *slog.Logger) (*cobra.Command, *toolset.Config, error), args ...string) *stream {
	t.Helper()
	addr := proctest.FreeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	s := &stream{base: "http://" + addr, done: make(chan error, 1), cancel: cancel}
	go func() { s.done <- runStream(ctx, tree, append([]string{"--addr", addr}, args...)...) }()
	waitHealthy(t, s.base, s.done)
	return s
}

// stop ends the stream as SIGTERM would and waits for it to return,
// failing t when it returns an error or not within 30s.
func (s *stream) stop(t *testing.T) {
	t.Helper()
	s.cancel()
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("stream: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("stream did not stop")
	}
}

// waitHealthy waits until the stream at base answers /healthz, failing t
// if it ends first (done) or does not answer within 10s.
func waitHealthy(t *testing.T, base string, done <-chan error) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("healthz %d", resp.StatusCode)
			}
			return
		}
		select {
		case err := <-done:
			t.Fatalf("stream ended: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("not serving after 10s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// captureStderr points os.Stderr, where the mcp commands log, at a file
// until the test ends, and returns a function reading what was written.
func captureStderr(t *testing.T) func() string {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stderr
	os.Stderr = f
	t.Cleanup(func() { os.Stderr = old; f.Close() })
	return func() string {
		b, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
}

func TestStreamServes(t *testing.T) {
	const token = "fake-token-0123456789"
	for _, stateless := range []bool{false, true} {
		name := map[bool]string{false: "stateful", true: "stateless"}[stateless]
		t.Run(name, func(t *testing.T) {
			t.Setenv("FAKE_MCP_TOKEN", token)
			logs := captureStderr(t)
			ts := streamCLI()
			// The policy leaves 101 of the 102 tools: more than
			// toolmeta.AutoSearchTools, so that the default tool mode,
			// auto, lists the search tools.
			args := []string{"--tools", "fake_cmd*,fake_echo", "--mcp-log-level", "debug"}
			if stateless {
				args = append(args, "--stateless")
			}
			s := startStream(t, ts.source, args...)
			ctx := context.Background()

			// Without the token: 401.
			resp, err := http.Post(s.base+"/mcp", "application/json", strings.NewReader(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 401 {
				t.Errorf("without token: %d, want 401", resp.StatusCode)
			}

			hc := &http.Client{Transport: authTransport(token)}
			client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.base + "/mcp", HTTPClient: hc, MaxRetries: -1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			list, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range list.Tools {
				names = append(names, tool.Name)
			}
			if want := []string{"fake_describe_command", "fake_list_commands", "fake_run_command", "fake_search_commands"}; !slices.Equal(names, want) {
				t.Errorf("tools/list: %v, want the search tools %v (the tool mode auto, above %d tools)", names, want, toolmeta.AutoSearchTools)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fake_run_command", Arguments: map[string]any{"command": "fake_echo", "flags": map[string]any{"text": "hi"}}})
			if err != nil {
				t.Fatal(err)
			}
			if tc, ok := res.Content[0].(*mcp.TextContent); !ok || tc.Text != "hi" || res.IsError {
				t.Errorf("fake_echo: %+v", res.Content)
			}
			// fake_zap is not in --tools: not served.
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "fake_run_command", Arguments: map[string]any{"command": "fake_zap"}})
			if err != nil {
				t.Fatal(err)
			}
			if !res.IsError {
				t.Errorf("fake_zap, which --tools leaves out, ran: %+v", res.Content)
			}
			if c := ts.lastCall(t); c.Name != "fake_echo" || ts.ncalls() != 1 {
				t.Errorf("%d calls ran, the last %+v; want fake_echo alone", ts.ncalls(), c)
			}
			cs.Close()
			s.stop(t)
			// The MCP server logs through the logger of --mcp-log-level:
			// at debug, the go-sdk's own records ("server session
			// connected") show.
			if out := logs(); !strings.Contains(out, `msg="server session connected"`) {
				t.Errorf("the MCP server logged nothing at debug level:\n%s", out)
			}
		})
	}
}

type authTransport string

func (a authTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(a))
	return http.DefaultTransport.RoundTrip(r)
}
