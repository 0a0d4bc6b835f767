package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/internal/oidctest"
	"github.com/cobramcp/cobramcp/test/mcphttp"
	"github.com/cobramcp/cobramcp/test/proctest"
)

// protocolScript is the adversarial protocol checks, as lines sent one at
// a time: each step's line, and how many lines of output it is answered
// with before the next step is sent.
func protocolScript() []struct {
	name    string
	line    string
	answers int
	pause   time.Duration
} {
	deep := strings.Repeat("[", 1001) + strings.Repeat("]", 1001)
	huge := `{"jsonrpc":"2.0","id":90,"method":"ping","params":{"x":"` + strings.Repeat("a", 16<<20) + `"}}`
	return []struct {
		name    string
		line    string
		answers int
		pause   time.Duration
	}{
		{"a request before initialize (code-0 mended)", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, 1, 0},
		{"initialize", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`, 1, 0},
		{"initialized", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0, 0},
		{"not JSON", `{"jsonrpc":"2.0","id":3,"method":`, 1, 0},
		{"not JSON-RPC", `{"id":4,"method":"ping"}`, 1, 0},
		{"a batch", `[{"jsonrpc":"2.0","id":5,"method":"ping"}]`, 1, 0},
		{"a repeated member", `{"jsonrpc":"2.0","id":6,"id":7,"method":"ping"}`, 1, 0},
		{"too deep", `{"jsonrpc":"2.0","id":8,"method":"ping","params":{"x":` + deep + `}}`, 1, 0},
		{"an id past 2^53", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, 1, 0},
		{"a fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, 1, 0},
		{"longer than the limit", huge, 1, 0},
		{"a second initialize (code-0 mended)", `{"jsonrpc":"2.0","id":10,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`, 1, 0},
		{"tools/list", `{"jsonrpc":"2.0","id":11,"method":"tools/list"}`, 1, 0},
		{"an unknown tool", `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"mycli_lst","arguments":{}}}`, 1, 0},
		{"a call refused before it runs", `{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"mycli_sleep","arguments":{"flags":{"for":"soon"}}}}`, 1, 0},
		{"a call that runs", `{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"mycli_version","arguments":{}}}`, 1, 0},
		{"a slow call", `{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"mycli_sleep","arguments":{"flags":{"for":"2s"}}}}`, 0, 300 * time.Millisecond},
		{"its id again while it runs", `{"jsonrpc":"2.0","id":20,"method":"ping"}`, 1, 0},
		{"waiting for the slow call", `{"jsonrpc":"2.0","id":21,"method":"ping"}`, 2, 0},
		{"a call to cancel", `{"jsonrpc":"2.0","id":30,"method":"tools/call","params":{"name":"mycli_sleep","arguments":{"flags":{"for":"30s"}}}}`, 0, 300 * time.Millisecond},
		{"its cancellation (no answer to 30)", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":30}}`, 0, time.Second},
		{"the session goes on", `{"jsonrpc":"2.0","id":31,"method":"ping"}`, 1, 0},
	}
}

// TestLibraryServerAnswersLikeMcpStart runs the adversarial protocol checks
// against `mycli mcp start` and against a server built from the library
// API alone (testdata/libserver: toolset.New, NewServer, serve.Stdio), and
// wants the same bytes from both: a library user gets the server mcp start
// is.
func TestLibraryServerAnswersLikeMcpStart(t *testing.T) {
	transcript := func(r *rawServer) [][]byte {
		for _, step := range protocolScript() {
			r.send(step.line)
			time.Sleep(step.pause)
			for range step.answers {
				select {
				case line, ok := <-r.lines:
					if !ok {
						t.Fatalf("%s: the server closed stdout", step.name)
					}
					_ = line
				case <-time.After(20 * time.Second):
					t.Fatalf("%s: no answer within 20s", step.name)
				}
			}
		}
		r.stdin.Close()
		return <-r.all // every line, those that came after the script too

	}
	start := transcript(startRawCmd(t, mycliBin, "mcp", "start"))
	lib := transcript(startRawCmd(t, libserverBin, "serve-stdio"))
	if len(start) != len(lib) {
		t.Errorf("mcp start answered %d lines, the library's server %d", len(start), len(lib))
	}
	for i := range min(len(start), len(lib)) {
		if !bytes.Equal(start[i], lib[i]) {
			t.Errorf("line %d differs:\nmcp start: %.300s\nlibrary:   %.300s", i, start[i], lib[i])
		}
	}
	// The answers themselves: each check was answered as it should be.
	for i, line := range start {
		var m struct {
			ID    json.RawMessage `json:"id"`
			Error *struct {
				Code int64 `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("line %d is not JSON: %.200s", i, line)
		}
		if string(m.ID) == "30" {
			t.Errorf("the cancelled request 30 was answered: %.200s", line)
		}
		if m.Error != nil && m.Error.Code == 0 {
			t.Errorf("an error of code 0: %.200s", line)
		}
	}
	if len(start) != 19 {
		t.Errorf("mcp start answered %d lines, want 19 (one per answered check, none for the cancelled call)", len(start))
	}
}

// startHTTP runs bin args... (a streamable HTTP server on a loopback port
// that logs its URL) and returns the URL.
func startHTTP(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), mycli.StateEnv+"="+t.TempDir()+"/state.json")
	urls := proctest.Serve(t, cmd, 1)
	if !strings.HasSuffix(urls[0], "/mcp") {
		t.Fatalf("%s %q logged %s, not an MCP endpoint", bin, args, urls[0])
	}
	return urls[0]
}

// TestLibraryHTTPAnswersLikeMcpStream is TestLibraryServerAnswersLikeMcpStart
// over streamable HTTP: `mycli mcp stream` and serve.NewHTTPServer with its
// zero options (but the session cap) answer the same status and bytes: the
// session cap, the health check, a foreign origin, a request without its
// session header, another path, the session's DELETE twice.
func TestLibraryHTTPAnswersLikeMcpStream(t *testing.T) {
	const init = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`
	transcript := func(url string) []string {
		post := func(session, body string) (string, string) {
			req, err := http.NewRequest("POST", url, strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
			if session != "" {
				req.Header.Set("Mcp-Session-Id", session)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return fmt.Sprintf("%d %s", resp.StatusCode, bytes.TrimSpace(b)), resp.Header.Get("Mcp-Session-Id")
		}
		var out []string
		add := func(s, _ string) { out = append(out, s) }
		add(post("", `{"jsonrpc":"2.0","id":3,"method":`))
		add(post("", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`)) // answered as sent or refused
		first, sid := post("", init)
		if sid == "" {
			t.Fatalf("%s: initialize gave no session: %s", url, first)
		}
		out = append(out, strings.Replace(first, sid, "SID", -1))
		add(post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`))
		add(post(sid, init))                                                 // a second initialize: code-0 mended
		add(post("", init))                                                  // over --max-sessions 1
		add(post(sid, `{"jsonrpc":"2.0","id":4,"method":"no/such/method"}`)) // -32601
		add(post(sid, `{"jsonrpc":"2.0","id":5,"method":"tools/call"}`))     // no params
		add(post(sid, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"mycli_version","arguments":{}}}`))
		add(post("", `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`)) // the missing header named
		base := strings.TrimSuffix(url, "/mcp")
		raw := func(method, path, body string, header ...string) {
			req, err := http.NewRequest(method, base+path, strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for i := 0; i+1 < len(header); i += 2 {
				req.Header.Set(header[i], header[i+1])
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			out = append(out, fmt.Sprintf("%s %s: %d %s", method, path, resp.StatusCode, bytes.TrimSpace(b)))
		}
		raw("GET", "/healthz", "")
		raw("POST", "/mcp?from=https://evil.example", init, "Origin", "https://evil.example")
		raw("POST", "/other", init)
		raw("GET", "/.well-known/oauth-protected-resource", "")
		raw("DELETE", "/mcp", "", "Mcp-Session-Id", sid)
		raw("DELETE", "/mcp", "", "Mcp-Session-Id", sid)
		return out
	}
	stream := transcript(startHTTP(t, mycliBin, "mcp", "stream", "--addr", "127.0.0.1:0", "--max-sessions", "1"))
	lib := transcript(startHTTP(t, libserverBin, "serve-http", "--max-sessions", "1"))
	if !slices.Equal(stream, lib) {
		t.Errorf("mcp stream and the library's handler answered differently:\nstream:\n%s\nlibrary:\n%s", strings.Join(stream, "\n"), strings.Join(lib, "\n"))
	}
	for _, want := range []string{`"code":-32600`, `"code":-32000`, `"code":-32601`, `mycli version`, "missing the Mcp-Session-Id header",
		"GET /healthz: 200 ok", "https://evil.example: 403", "DELETE /mcp: 204"} {
		if !strings.Contains(strings.Join(stream, "\n"), want) {
			t.Errorf("mcp stream's answers lack %s:\n%s", want, strings.Join(stream, "\n"))
		}
	}
}

// TestLibraryOAuthAnswersLikeMcpStream: the embedded server with an
// oauth.ResourceServer and `mycli mcp stream --oauth-issuer
// --oauth-resource` answer the same to the same requests, against one
// provider in the test process: the challenges, a query token, the
// metadata documents, a served session, and another identity on it.
func TestLibraryOAuthAnswersLikeMcpStream(t *testing.T) {
	idp := oidctest.Start(t)
	const init = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`
	transcript := func(url string) []string {
		base := strings.TrimSuffix(url, "/mcp")
		alice := idp.Token(t, map[string]any{"sub": "alice", "aud": url})
		bob := idp.Token(t, map[string]any{"sub": "bob", "aud": url})
		var out []string
		do := func(method, path, token, sid, body string) string {
			a, err := mcphttp.Send(method, base+path, token, sid, body)
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprintf("%s %s: %d [%s] %s", method, strings.SplitN(path, "?", 2)[0], a.Code, a.Header.Get("WWW-Authenticate"), strings.TrimSpace(a.Body))
			if s := a.SessionID(); s != "" {
				got = strings.ReplaceAll(got, s, "SID")
			}
			out = append(out, strings.ReplaceAll(got, base, "BASE"))
			return a.SessionID()
		}
		do("POST", "/mcp", "", "", init)
		do("POST", "/mcp", alice+"x", "", init)
		do("POST", "/mcp", idp.Token(t, map[string]any{"sub": "alice", "aud": "http://elsewhere/mcp"}), "", init)
		do("POST", "/mcp?access_token="+alice, "", "", init)
		do("GET", "/.well-known/oauth-protected-resource/mcp", "", "", "")
		do("GET", "/.well-known/oauth-protected-resource", "", "", "")
		sid := do("POST", "/mcp", alice, "", init)
		do("POST", "/mcp", alice, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		do("POST", "/mcp", bob, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
		do("DELETE", "/mcp", bob, sid, "")
		do("POST", "/mcp", alice, sid, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"mycli_version","arguments":{}}}`)
		do("DELETE", "/mcp", alice, sid, "")
		return out
	}
	addr := proctest.FreeAddr(t)
	stream := transcript(startHTTP(t, teamBin, "mcp", "stream", "--addr", addr,
		"--oauth-issuer", idp.Issuer(), "--oauth-resource", "http://"+addr+"/mcp"))
	lib := transcript(startHTTP(t, libserverBin, "serve-http", "--oauth-issuer", idp.Issuer()))
	if !slices.Equal(stream, lib) {
		t.Errorf("mcp stream and the library's server answered differently:\nstream:\n%s\nlibrary:\n%s", strings.Join(stream, "\n"), strings.Join(lib, "\n"))
	}
	all := strings.Join(stream, "\n")
	for _, want := range []string{`: 401 [Bearer resource_metadata="BASE/.well-known/oauth-protected-resource/mcp"]`,
		`: 401 [Bearer error="invalid_token", resource_metadata=`, "POST /mcp: 400 [Bearer error=\"invalid_request\"",
		`"resource":"BASE/mcp"`, "session user mismatch", "mycli version", "DELETE /mcp: 204"} {
		if !strings.Contains(all, want) {
			t.Errorf("mcp stream's answers lack %s:\n%s", want, all)
		}
	}
}
