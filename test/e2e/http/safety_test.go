package httpe2e

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cobramcp/cobramcp/test/testcert"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// post sends body to url with the given headers and returns the status
// code. The pseudo-header "Host" sets the Host header and "Chunked" sends
// the body without a Content-Length.
func post(t *testing.T, url, body string, header map[string]string) int {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		if k == "Chunked" {
			req.ContentLength = -1 // Transfer-Encoding: chunked, no Content-Length
			continue
		}
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

func TestAuthAndOrigin(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			tokenFile := filepath.Join(dir, "token")
			if err := os.WriteFile(tokenFile, []byte(testToken+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			s := startServer(t, nil, append([]string{"--token-file", tokenFile, "--max-body-bytes", "4096"}, m.args...)...)
			if !strings.Contains(s.stderr.String(), "token=\"file "+tokenFile+"\"") {
				t.Errorf("the log does not say where the token came from:\n%s", s.stderr)
			}
			if strings.Contains(s.stderr.String(), testToken) {
				t.Errorf("the log reveals the token:\n%s", s.stderr)
			}
			right := "Bearer " + testToken
			tests := []struct {
				name   string
				body   string
				header map[string]string
				want   int
			}{
				{"missing token", initialize, nil, 401},
				{"wrong token", initialize, map[string]string{"Authorization": "Bearer " + strings.Repeat("x", len(testToken))}, 401},
				{"empty bearer", initialize, map[string]string{"Authorization": "Bearer "}, 401},
				{"right token", initialize, map[string]string{"Authorization": right}, 200},
				{"lower-case scheme", initialize, map[string]string{"Authorization": "bearer " + testToken}, 200},
				{"foreign origin", initialize, map[string]string{"Authorization": right, "Origin": "http://evil.example"}, 403},
				{"cross-site fetch", initialize, map[string]string{"Authorization": right, "Sec-Fetch-Site": "cross-site"}, 403},
				{"same origin", initialize, map[string]string{"Authorization": right, "Origin": s.base}, 200},
				{"foreign Host on loopback", initialize, map[string]string{"Authorization": right, "Host": "evil.example"}, 403},
				{"localhost Host", initialize, map[string]string{"Authorization": right, "Host": "localhost" + s.base[strings.LastIndex(s.base, ":"):]}, 200},
				{"body over --max-body-bytes", initialize[:len(initialize)-1] + `,"pad":"` + strings.Repeat("x", 5000) + `"}`, map[string]string{"Authorization": right}, 413},
				{"chunked body over --max-body-bytes", initialize[:len(initialize)-1] + `,"pad":"` + strings.Repeat("x", 5000) + `"}`, map[string]string{"Authorization": right, "Chunked": "1"}, 413},
				{"chunked body under the limit", initialize, map[string]string{"Authorization": right, "Chunked": "1"}, 200},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					if got := post(t, s.url, tt.body, tt.header); got != tt.want {
						t.Errorf("status %d, want %d", got, tt.want)
					}
				})
			}

			t.Run("healthz needs no token", func(t *testing.T) {
				resp, err := http.Get(s.base + "/healthz")
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 || string(b) != "ok\n" {
					t.Errorf("healthz %d %q, want 200 \"ok\\n\"", resp.StatusCode, b)
				}
			})

			t.Run("go-sdk client", func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				for _, tok := range []string{"", "wrong-token-0123456789"} {
					if cs, err := connect(t, ctx, s, tok); err == nil {
						cs.Close()
						t.Errorf("connected with token %q", tok)
					}
				}
				cs, err := connect(t, ctx, s, testToken)
				if err != nil {
					t.Fatal(err)
				}
				defer cs.Close()
				if _, err := callEcho(ctx, cs, "x"); err != nil {
					t.Error(err)
				}
			})
		})
	}
}

func TestExposure(t *testing.T) {
	t.Parallel()
	t.Run("public address without token is refused", func(t *testing.T) {
		_, err := tryStartServer(t, nil, "--addr", "0.0.0.0:0")
		if err == nil {
			t.Fatal("served on 0.0.0.0 without a token")
		}
		for _, want := range []string{"--addr 0.0.0.0:0:", "refusing to serve without authentication", "--token-file", "$MYCLI_MCP_TOKEN", "--insecure-no-auth-on-public-address"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("the refusal does not mention %q:\n%v", want, err)
			}
		}
	})
	t.Run("public address with token from the environment", func(t *testing.T) {
		s, err := tryStartServer(t, []string{"MYCLI_MCP_TOKEN=" + testToken}, "--addr", "0.0.0.0:0")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(s.stderr.String(), `token=$MYCLI_MCP_TOKEN`) {
			t.Errorf("the log does not say where the token came from:\n%s", s.stderr)
		}
		_, port, _ := net.SplitHostPort(strings.TrimPrefix(s.base, "http://"))
		url := "http://127.0.0.1:" + port + "/mcp"
		if got := post(t, url, initialize, nil); got != 401 {
			t.Errorf("without token: %d, want 401", got)
		}
		if got := post(t, url, initialize, map[string]string{"Authorization": "Bearer " + testToken}); got != 200 {
			t.Errorf("with token: %d, want 200", got)
		}
	})
	t.Run("token from another variable", func(t *testing.T) {
		s := startServer(t, []string{"TEAM_TOKEN=" + testToken}, "--token-env", "TEAM_TOKEN")
		if got := post(t, s.url, initialize, nil); got != 401 {
			t.Errorf("without token: %d, want 401", got)
		}
	})
	t.Run("explicit opt-out", func(t *testing.T) {
		s, err := tryStartServer(t, nil, "--addr", "0.0.0.0:0", "--insecure-no-auth-on-public-address")
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the warning", func() bool { return strings.Contains(s.stderr.String(), "SERVING WITHOUT AUTHENTICATION") })
	})
	bad := []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"token twice", []string{"MYCLI_MCP_TOKEN=" + testToken}, []string{"--token-file", "/dev/null"}, "token given twice"},
		{"short token", []string{"MYCLI_MCP_TOKEN=short"}, nil, "too short"},
		{"missing token file", nil, []string{"--token-file", "/nonexistent/token"}, "--token-file /nonexistent/token: no such file"},
		{"cert without key", nil, []string{"--tls-cert", "/nonexistent/cert.pem"}, "both a certificate and a key"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tryStartServer(t, tt.env, append([]string{"--addr", "127.0.0.1:0"}, tt.args...)...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want a refusal containing %q", err, tt.want)
			}
		})
	}
}

func TestTLS(t *testing.T) {
	t.Parallel()
	cert, key, pool := selfSigned(t)
	s := startServer(t, []string{"MYCLI_MCP_TOKEN=" + testToken}, "--tls-cert", cert, "--tls-key", key)
	if !strings.HasPrefix(s.url, "https://") {
		t.Fatalf("url %s is not https", s.url)
	}
	hc := &http.Client{Transport: bearer{testToken, &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}}
	client := mcp.NewClient(&mcp.Implementation{Name: "httpe2e", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.url, HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connect over TLS: %v\n%s", err, s.stderr)
	}
	defer cs.Close()
	out, err := callEcho(ctx, cs, "over", "tls")
	if err != nil || strings.Join(out.Args, " ") != "over tls" {
		t.Errorf("call over TLS: %v %v", out, err)
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key, and returns a
// pool that trusts it.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	return testcert.SelfSigned(t)
}
