package httpserve

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cobramcp/cobramcp/test/testcert"
)

const testToken = "s3cret-token-0123456789"

// echo answers 200 with the length of the body it read, or 413 when the
// body was over the limit.
var echo = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		http.Error(w, "too large", http.StatusRequestEntityTooLarge)
		return
	}
	fmt.Fprintf(w, "%d", len(b))
})

func TestHandlerStack(t *testing.T) {
	srv, err := New(echo, Options{
		Token:          []byte(testToken),
		MaxBodyBytes:   100,
		TrustedOrigins: []string{"https://trusted.example"},
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()

	bearer := "Bearer " + testToken
	tests := []struct {
		name    string
		method  string
		path    string
		header  map[string]string
		body    io.Reader
		chunked bool
		want    int
	}{
		{name: "healthz needs no token", method: "GET", path: "/healthz", want: 200},
		{name: "healthz HEAD", method: "HEAD", path: "/healthz", want: 200},
		{name: "healthz POST", method: "POST", path: "/healthz", want: 405},
		{name: "missing token", method: "POST", path: "/mcp", want: 401},
		{name: "wrong token", method: "POST", path: "/mcp", header: map[string]string{"Authorization": "Bearer " + testToken + "x"}, want: 401},
		{name: "token prefix", method: "POST", path: "/mcp", header: map[string]string{"Authorization": "Bearer " + testToken[:len(testToken)-1]}, want: 401},
		{name: "not bearer", method: "POST", path: "/mcp", header: map[string]string{"Authorization": "Basic " + testToken}, want: 401},
		{name: "right token", method: "POST", path: "/mcp", header: map[string]string{"Authorization": bearer}, want: 200},
		{name: "right token, GET", method: "GET", path: "/mcp", header: map[string]string{"Authorization": bearer}, want: 200},
		{name: "foreign origin POST", method: "POST", path: "/mcp", header: map[string]string{"Authorization": bearer, "Origin": "https://evil.example"}, want: 403},
		{name: "foreign origin GET", method: "GET", path: "/mcp", header: map[string]string{"Authorization": bearer, "Origin": "https://evil.example"}, want: 403},
		{name: "foreign origin without token", method: "POST", path: "/mcp", header: map[string]string{"Origin": "https://evil.example"}, want: 403},
		{name: "cross-site fetch", method: "POST", path: "/mcp", header: map[string]string{"Authorization": bearer, "Sec-Fetch-Site": "cross-site"}, want: 403},
		{name: "same origin", method: "POST", path: "/mcp", header: map[string]string{"Authorization": bearer, "Origin": ts.URL}, want: 200},
		{name: "same-origin fetch", method: "POST", path: "/mcp", header: map[string]string{"Authorization": bearer, "Sec-Fetch-Site": "same-origin"}, want: 200},
		{name: "trusted origin", method: "POST", path: "/mcp", header: map[string]string{"Authorization": bearer, "Origin": "https://trusted.example"}, want: 200},
		{name: "body at the limit", method: "POST", path: "/mcp", header: map[string]string{"Authorization": bearer}, body: strings.NewReader(strings.Repeat("x", 100)), want: 200},
		{name: "body over the limit", method: "POST", path: "/mcp", header: map[string]string{"Authorization": bearer}, body: strings.NewReader(strings.Repeat("x", 101)), want: 413},
		{name: "chunked body over the limit", method: "POST", path: "/mcp", header: map[string]string{"Authorization": bearer}, body: strings.NewReader(strings.Repeat("x", 1000)), chunked: true, want: 413},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, ts.URL+tt.path, tt.body)
			if err != nil {
				t.Fatal(err)
			}
			if tt.chunked {
				req.ContentLength = -1
			}
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Errorf("status %d (%q), want %d", resp.StatusCode, body, tt.want)
			}
			if got := resp.Header.Get("WWW-Authenticate"); (resp.StatusCode == 401) != strings.HasPrefix(got, "Bearer") {
				t.Errorf("status %d with WWW-Authenticate %q; want a Bearer challenge exactly on 401", resp.StatusCode, got)
			}
		})
	}
}

// A page of a trusted origin can use the server from a browser: its
// preflight is answered without the token, and the answers carry the CORS
// headers that let it read them and the session ID.
func TestTrustedOriginCORS(t *testing.T) {
	const trusted = "https://trusted.example"
	srv, err := New(echo, Options{Token: []byte(testToken), TrustedOrigins: []string{trusted}})
	if err != nil {
		t.Fatal(err)
	}
	preflight := map[string]string{"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type,mcp-session-id", "Sec-Fetch-Site": "cross-site"}
	tests := []struct {
		name       string
		method     string
		header     map[string]string
		want       int
		wantOrigin string // Access-Control-Allow-Origin
		wantAllow  string // in Access-Control-Allow-Headers
		wantExpose string // in Access-Control-Expose-Headers
	}{
		{"trusted preflight", "OPTIONS", withHeader(preflight, "Origin", trusted), 204, trusted, "Mcp-Session-Id", ""},
		{"untrusted preflight", "OPTIONS", withHeader(preflight, "Origin", "https://evil.example"), 403, "", "", ""},
		{"trusted POST", "POST", map[string]string{"Origin": trusted, "Sec-Fetch-Site": "cross-site", "Authorization": "Bearer " + testToken}, 200, trusted, "", "Mcp-Session-Id"},
		{"trusted POST without token", "POST", map[string]string{"Origin": trusted, "Authorization": "Bearer wrong"}, 401, trusted, "", "WWW-Authenticate"},
		{"same-origin POST", "POST", map[string]string{"Authorization": "Bearer " + testToken}, 200, "", "", ""},
		{"OPTIONS without preflight headers", "OPTIONS", map[string]string{"Origin": trusted}, 401, trusted, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, "/mcp", nil)
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			srv.Handler().ServeHTTP(rec, req)
			h := rec.Result().Header
			if rec.Code != tt.want {
				t.Errorf("status %d (%q), want %d", rec.Code, rec.Body, tt.want)
			}
			if got := h.Get("Access-Control-Allow-Origin"); got != tt.wantOrigin {
				t.Errorf("Access-Control-Allow-Origin %q, want %q", got, tt.wantOrigin)
			}
			if got := h.Get("Access-Control-Allow-Headers"); !strings.Contains(got, tt.wantAllow) || (tt.wantAllow == "") != (got == "") {
				t.Errorf("Access-Control-Allow-Headers %q, want it to hold %q", got, tt.wantAllow)
			}
			if got := h.Get("Access-Control-Expose-Headers"); !strings.Contains(got, tt.wantExpose) {
				t.Errorf("Access-Control-Expose-Headers %q, want it to hold %q", got, tt.wantExpose)
			}
		})
	}
}

func withHeader(h map[string]string, k, v string) map[string]string {
	out := map[string]string{k: v}
	for hk, hv := range h {
		out[hk] = hv
	}
	return out
}

func TestNoTokenLetsEveryoneIn(t *testing.T) {
	srv, err := New(echo, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	srv.Handler().ServeHTTP(rec, httptest.NewRequest("POST", "/mcp", strings.NewReader("abc")))
	if rec.Code != 200 || rec.Body.String() != "3" {
		t.Errorf("got %d %q, want 200 \"3\"", rec.Code, rec.Body)
	}
}

func TestNewRejects(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"short token", Options{Token: []byte("short")}, "too short"},
		{"bad origin", Options{TrustedOrigins: []string{"not a url"}}, "trusted origin"},
		{"cert without key", Options{TLSCertFile: "cert.pem"}, "both"},
		{"missing cert files", Options{TLSCertFile: "nope.pem", TLSKeyFile: "nope.key"}, "loading TLS certificate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(echo, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New: %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestReadToken(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good", testToken+"\n")
	loose := map[os.FileMode]string{}
	for _, m := range []os.FileMode{0o644, 0o666, 0o640, 0o604, 0o620} {
		p := write(fmt.Sprintf("open%o", m), testToken)
		if err := os.Chmod(p, m); err != nil {
			t.Fatal(err)
		}
		loose[m] = p
	}
	ownerOnly := write("owner", testToken)
	if err := os.Chmod(ownerOnly, 0o400); err != nil {
		t.Fatal(err)
	}
	short := write("short", "abc\n")
	spaced := write("spaced", "0123456789 0123456789")
	env := func(vars map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	}
	tests := []struct {
		name       string
		file       string
		allowOpen  bool
		vars       map[string]string
		want       string
		wantSource string
		wantErr    string
	}{
		{name: "file, newline trimmed", file: good, want: testToken, wantSource: "file " + good},
		{name: "env", vars: map[string]string{"TOK": " " + testToken + " "}, want: testToken, wantSource: "$TOK"},
		{name: "empty env is unset", vars: map[string]string{"TOK": ""}, wantErr: ErrNoToken.Error()},
		{name: "neither", wantErr: ErrNoToken.Error()},
		{name: "both", file: good, vars: map[string]string{"TOK": testToken}, wantErr: "given twice"},
		{name: "missing file", file: filepath.Join(dir, "none"), wantErr: "reading token file"},
		{name: "short", file: short, wantErr: "too short"},
		{name: "inner space", file: spaced, wantErr: "visible ASCII"},
		{name: "0400", file: ownerOnly, want: testToken, wantSource: "file " + ownerOnly},
		{name: "0644", file: loose[0o644], wantErr: "mode 0644"},
		{name: "0666", file: loose[0o666], wantErr: "mode 0666"},
		{name: "0640", file: loose[0o640], wantErr: "mode 0640"},
		{name: "0604", file: loose[0o604], wantErr: "mode 0604"},
		{name: "0620 (group may write)", file: loose[0o620], wantErr: "mode 0620"},
		{name: "0644 allowed", file: loose[0o644], allowOpen: true, want: testToken, wantSource: "file " + loose[0o644]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tok, src, err := ReadToken(TokenSource{File: tt.file, Env: "TOK", LookupEnv: env(tt.vars), AllowOpenFile: tt.allowOpen})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want one containing %q", err, tt.wantErr)
				}
				if tt.wantErr == ErrNoToken.Error() && !errors.Is(err, ErrNoToken) {
					t.Errorf("err %v is not ErrNoToken", err)
				}
				if strings.HasPrefix(tt.wantErr, "mode ") && !errors.Is(err, ErrTokenFileOpen) {
					t.Errorf("err %v is not ErrTokenFileOpen", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(tok) != tt.want || src != tt.wantSource {
				t.Errorf("got %q from %q, want %q from %q", tok, src, tt.want, tt.wantSource)
			}
			if strings.Contains(src, testToken) {
				t.Errorf("source %q reveals the token", src)
			}
		})
	}
}

// fakeListener is a listener on any address that accepts nothing.
type fakeListener struct {
	addr   net.Addr
	closed chan struct{}
	once   sync.Once
}

func newFakeListener(ip string) *fakeListener {
	return &fakeListener{addr: &net.TCPAddr{IP: net.ParseIP(ip), Port: 8080}, closed: make(chan struct{})}
}

func (l *fakeListener) Accept() (net.Conn, error) {
	<-l.closed
	return nil, net.ErrClosed
}
func (l *fakeListener) Close() error   { l.once.Do(func() { close(l.closed) }); return nil }
func (l *fakeListener) Addr() net.Addr { return l.addr }

func TestServeExposure(t *testing.T) {
	tests := []struct {
		name    string
		ip      string
		opts    Options
		refused bool
	}{
		{"loopback v4 without token", "127.0.0.1", Options{}, false},
		{"loopback v6 without token", "::1", Options{}, false},
		{"all interfaces without token", "0.0.0.0", Options{}, true},
		{"all v6 interfaces without token", "::", Options{}, true},
		{"private address without token", "10.1.2.3", Options{}, true},
		{"all interfaces with token", "0.0.0.0", Options{Token: []byte(testToken)}, false},
		{"all interfaces with opt-out", "0.0.0.0", Options{AllowPublicWithoutAuth: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, err := New(echo, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- srv.Serve(ctx, newFakeListener(tt.ip)) }()
			if tt.refused {
				select {
				case err := <-done:
					if !errors.Is(err, ErrPublicWithoutAuth) {
						t.Errorf("Serve: %v, want ErrPublicWithoutAuth", err)
					}
				case <-time.After(10 * time.Second):
					t.Fatal("Serve did not refuse")
				}
				cancel()
				return
			}
			select {
			case err := <-done:
				t.Fatalf("Serve returned before shutdown: %v", err)
			case <-time.After(50 * time.Millisecond):
			}
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Serve after shutdown: %v", err)
			}
		})
	}
}

// started serves srv on a loopback port until the returned stop is called;
// stop returns Serve's error.
func started(t *testing.T, srv *Server) (url string, stop func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	var once sync.Once
	var serveErr error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case serveErr = <-done:
			case <-time.After(30 * time.Second):
				serveErr = errors.New("Serve did not return 30s after shutdown began")
			}
		})
		return serveErr
	}
	t.Cleanup(func() { stop() })
	return "http://" + ln.Addr().String(), stop
}

func TestShutdownLetsInFlightRequestsFinish(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		io.WriteString(w, "finished")
	})
	srv, err := New(h, Options{Grace: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	url, stop := started(t, srv)

	type answer struct {
		body string
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		resp, err := http.Post(url+"/mcp", "application/json", strings.NewReader("{}"))
		if err != nil {
			got <- answer{err: err}
			return
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- answer{string(b), err}
	}()
	<-entered
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()

	// New connections are refused once shutdown has begun.
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", strings.TrimPrefix(url, "http://"), time.Second)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("still accepting connections 10s after shutdown began")
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case err := <-stopped:
		t.Fatalf("Serve returned (%v) while a request was in flight", err)
	default:
	}
	close(release)
	a := <-got
	if a.err != nil || a.body != "finished" {
		t.Errorf("in-flight request: %q, %v; want \"finished\"", a.body, a.err)
	}
	if err := <-stopped; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func TestShutdownCancelsAfterGrace(t *testing.T) {
	entered := make(chan struct{}, 2)
	var callCtx context.Context
	var mu sync.Mutex
	cancelled := make(chan string, 2)
	var srv *Server
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := srv.CallContext(context.Background())
		defer cancel()
		mu.Lock()
		callCtx = ctx
		mu.Unlock()
		entered <- struct{}{}
		select {
		case <-r.Context().Done():
			cancelled <- "request"
		case <-ctx.Done():
			cancelled <- "call"
		}
	})
	var err error
	srv, err = New(h, Options{Grace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	url, stop := started(t, srv)
	go func() {
		resp, err := http.Post(url+"/mcp", "application/json", strings.NewReader("{}"))
		if err == nil {
			resp.Body.Close()
		}
	}()
	<-entered
	start := time.Now()
	if err := stop(); err != nil {
		t.Errorf("Serve: %v", err)
	}
	select {
	case how := <-cancelled:
		t.Logf("handler ended by its %s context after %v", how, time.Since(start))
	default:
		t.Fatal("Serve returned but the handler was not cancelled")
	}
	mu.Lock()
	defer mu.Unlock()
	if callCtx.Err() == nil {
		t.Error("a CallContext context is still live after shutdown")
	}
}

func TestAbortEndsTheGracePeriod(t *testing.T) {
	entered := make(chan struct{})
	var srv *Server
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := srv.CallContext(context.Background())
		defer cancel()
		close(entered)
		<-ctx.Done()
	})
	var err error
	srv, err = New(h, Options{Grace: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	url, stop := started(t, srv)
	go func() {
		if resp, err := http.Post(url+"/mcp", "application/json", strings.NewReader("{}")); err == nil {
			resp.Body.Close()
		}
	}()
	<-entered
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	select {
	case err := <-stopped:
		t.Fatalf("Serve returned (%v) within an hour's grace without Abort", err)
	case <-time.After(200 * time.Millisecond):
	}
	srv.Abort()
	// started's stop fails after 30s.
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
}

func TestShutdownDoesNotWaitForStreams(t *testing.T) {
	entered := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		close(entered)
		<-r.Context().Done() // a GET stream ends only when the client or server goes
	})
	srv, err := New(h, Options{Grace: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	url, stop := started(t, srv)
	resp, err := http.Get(url + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	<-entered
	// started's stop fails after 30s: an hour's grace would be waited for.
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(resp.Body); err == nil {
		// The body ends (cleanly or not) because the server closed it.
		t.Log("stream closed cleanly")
	}
}

func TestHealthDuringShutdown(t *testing.T) {
	srv, err := New(echo, Options{})
	if err != nil {
		t.Fatal(err)
	}
	check := func(want int) {
		t.Helper()
		rec := httptest.NewRecorder()
		srv.Handler().ServeHTTP(rec, httptest.NewRequest("GET", HealthPath, nil))
		if rec.Code != want {
			t.Errorf("healthz %d, want %d", rec.Code, want)
		}
	}
	check(200)
	_, stop := started(t, srv)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	check(503)
}

func TestTLS(t *testing.T) {
	certFile, keyFile, pool := selfSigned(t)
	srv, err := New(echo, Options{TLSCertFile: certFile, TLSKeyFile: keyFile, Token: []byte(testToken)})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := started(t, srv)
	url = strings.Replace(url, "http://", "https://", 1)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader("abcd"))
	req.Header.Set("Authorization", "Bearer "+testToken)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != "4" || resp.TLS == nil {
		t.Errorf("got %d %q (TLS %v), want 200 \"4\" over TLS", resp.StatusCode, b, resp.TLS != nil)
	}
	// Plain HTTP on the TLS port is not served.
	if resp, err := http.Get(strings.Replace(url, "https://", "http://", 1) + HealthPath); err == nil {
		if resp.StatusCode == 200 {
			t.Error("plain HTTP request answered 200 on the TLS port")
		}
		resp.Body.Close()
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key, and returns a
// pool that trusts it.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	return testcert.SelfSigned(t)
}
