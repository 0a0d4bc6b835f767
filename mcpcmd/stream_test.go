package mcpcmd_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/mcpcmd"
)

// streamToolset is a mcpcmd.Toolset whose servers have one tool, "fake_echo",
// which returns its text argument; it records the options of each
// NewServer and whether Wait was called.
type streamToolset struct {
	mu       sync.Mutex
	opts     []toolset.ServerOptions
	policies []toolset.Policy
	waited   atomic.Bool
}

type echoIn struct {
	Text string `json:"text"`
}

func (f *streamToolset) Tools() []*mcp.Tool {
	return []*mcp.Tool{{Name: "fake_echo", InputSchema: json.RawMessage(`{"type":"object"}`)}}
}
func (f *streamToolset) Info() toolset.Info { return toolset.Info{Name: "fake"} }
func (f *streamToolset) Wait()          { f.waited.Store(true) }
func (f *streamToolset) Call(context.Context, string, json.RawMessage) (*mcp.CallToolResult, error) {
	return nil, errors.New("streamToolset: Call is not used by stream")
}
func (f *streamToolset) NewServer(o toolset.ServerOptions) (*mcp.Server, error) {
	f.mu.Lock()
	f.opts = append(f.opts, o)
	f.mu.Unlock()
	srv := mcp.NewServer(&mcp.Implementation{Name: "fake", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "fake_echo"}, func(ctx context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
	})
	return srv, nil
}

// streamRoot returns a root command "fake" with the mcp group serving ts.
func streamRoot(ts mcpcmd.Toolset) *cobra.Command {
	root := &cobra.Command{Use: "fake", SilenceUsage: true, SilenceErrors: true}
	root.AddCommand(mcpcmd.New(mcpcmd.Options{Load: func(*cobra.Command) (mcpcmd.Toolset, error) { return ts, nil }}))
	return root
}

// runStream runs `fake mcp stream args...` until ctx is done and returns
// its error.
func runStream(ctx context.Context, ts mcpcmd.Toolset, args ...string) error {
	root := streamRoot(ts)
	root.SetArgs(append([]string{"mcp", "stream", "--mcp-log-level", "error"}, args...))
	var out bytes.Buffer
	root.SetOut(&out)
	return root.ExecuteContext(ctx)
}

func TestTokenEnv(t *testing.T) {
	tests := []struct{ root, want string }{
		{"mycli", "MYCLI_MCP_TOKEN"},
		{"kubectl-foo", "KUBECTL_FOO_MCP_TOKEN"},
		{"My.Tool2", "MY_TOOL2_MCP_TOKEN"},
	}
	for _, tt := range tests {
		if got := mcpcmd.TokenEnv(tt.root); got != tt.want {
			t.Errorf("TokenEnv(%q) = %q, want %q", tt.root, got, tt.want)
		}
	}
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
			[]string{"refusing to serve without authentication", "--addr 0.0.0.0:0", "--token-file", "$FAKE_MCP_TOKEN", "--insecure-no-auth-on-public-address"}},
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("FAKE_MCP_TOKEN", tt.env)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			err := runStream(ctx, &streamToolset{}, append([]string{"--addr", "127.0.0.1:0"}, tt.args...)...)
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

// freeAddr returns a loopback address with a port that was free a moment
// ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func TestStreamServes(t *testing.T) {
	const token = "fake-token-0123456789"
	for _, stateless := range []bool{false, true} {
		name := map[bool]string{false: "stateful", true: "stateless"}[stateless]
		t.Run(name, func(t *testing.T) {
			t.Setenv("FAKE_MCP_TOKEN", token)
			ts := &streamToolset{}
			addr := freeAddr(t)
			args := []string{"--addr", addr, "--tools", "fake_*"}
			if stateless {
				args = append(args, "--stateless")
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- runStream(ctx, ts, args...) }()

			base := "http://" + addr
			deadline := time.Now().Add(10 * time.Second)
			for {
				resp, err := http.Get(base + "/healthz")
				if err == nil {
					resp.Body.Close()
					if resp.StatusCode != 200 {
						t.Fatalf("healthz %d", resp.StatusCode)
					}
					break
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

			// Without the token: 401.
			resp, err := http.Post(base+mcpcmd.StreamPath, "application/json", strings.NewReader(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 401 {
				t.Errorf("without token: %d, want 401", resp.StatusCode)
			}

			hc := &http.Client{Transport: authTransport(token)}
			client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + mcpcmd.StreamPath, HTTPClient: hc, MaxRetries: -1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fake_echo", Arguments: map[string]any{"text": "hi"}})
			if err != nil {
				t.Fatal(err)
			}
			if tc, ok := res.Content[0].(*mcp.TextContent); !ok || tc.Text != "hi" {
				t.Errorf("fake_echo: %+v", res.Content)
			}
			cs.Close()

			cancel() // as SIGTERM would
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("stream: %v", err)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("stream did not stop")
			}
			if len(ts.policies) != 1 || strings.Join(ts.policies[0].Tools, ",") != "fake_*" || ts.policies[0].ToolMode != toolset.ToolModeAuto {
				t.Errorf("policies: %+v, want one with Tools [fake_*] and the tool mode auto", ts.policies)
			}
			if len(ts.opts) != 1 || ts.opts[0].Context == nil || ts.opts[0].Logger == nil {
				t.Errorf("NewServer options: %+v, want one call with a Context and a Logger", ts.opts)
			} else if ts.opts[0].Context.Err() == nil {
				t.Error("the calls' context is still live after the server stopped")
			}
			if !ts.waited.Load() {
				t.Error("stream returned without waiting for the calls (Toolset.Wait)")
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

// WithPolicy records the policy and serves as without one.
func (f *streamToolset) WithPolicy(p toolset.Policy) (mcpcmd.Toolset, error) {
	f.mu.Lock()
	f.policies = append(f.policies, p)
	f.mu.Unlock()
	return f, nil
}
