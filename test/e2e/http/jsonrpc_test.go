package httpe2e

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// rawPost sends body to url with the session id (when not empty) and
// returns the response's status, content type, session id and body.
func rawPost(t *testing.T, url, session, body string) (code int, ctype, sid string, out []byte) {
	t.Helper()
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
	out, _ = io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Mcp-Session-Id"), out
}

// TestJSONRPCErrorCodes checks that over HTTP an unknown method gets the
// JSON-RPC error -32601 and an invalid request -32600, with the request's
// id, instead of a plain-text 400.
func TestJSONRPCErrorCodes(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			s := startServer(t, nil, m.args...)
			session := ""
			if m.name == "stateful" {
				_, _, sid, _ := rawPost(t, s.url, "", initialize)
				if sid == "" {
					t.Fatal("initialize gave no session id")
				}
				session = sid
				if code, _, _, _ := rawPost(t, s.url, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); code != http.StatusAccepted {
					t.Fatalf("notifications/initialized: %d", code)
				}
			}
			cases := []struct {
				name, body string
				id         any
				code       int64
			}{
				{"unknown method", `{"jsonrpc":"2.0","id":7,"method":"no/such/method","params":{}}`, float64(7), -32601},
				{"unknown method, string id", `{"jsonrpc":"2.0","id":"x-1","method":"tools/unknown"}`, "x-1", -32601},
				{"missing params", `{"jsonrpc":"2.0","id":8,"method":"tools/call"}`, float64(8), -32600},
			}
			for _, tt := range cases {
				code, ctype, _, body := rawPost(t, s.url, session, tt.body)
				var resp struct {
					JSONRPC string `json:"jsonrpc"`
					ID      any    `json:"id"`
					Error   *struct {
						Code    int64  `json:"code"`
						Message string `json:"message"`
					} `json:"error"`
				}
				if err := json.Unmarshal(body, &resp); err != nil || !strings.HasPrefix(ctype, "application/json") {
					t.Errorf("%s: %d %s %q; want a JSON-RPC error response", tt.name, code, ctype, body)
					continue
				}
				if code != http.StatusOK || resp.JSONRPC != "2.0" || resp.ID != tt.id || resp.Error == nil || resp.Error.Code != tt.code || resp.Error.Message == "" {
					t.Errorf("%s: %d %s; want HTTP 200 and error %d with id %v", tt.name, code, body, tt.code, tt.id)
				}
			}
			// The server keeps serving.
			if code, _, _, body := rawPost(t, s.url, session, `{"jsonrpc":"2.0","id":9,"method":"ping"}`); code != http.StatusOK || !strings.Contains(string(body), `"result"`) {
				t.Errorf("ping after the errors: %d %s", code, body)
			}
		})
	}
}

// TestIDsExactOverHTTP: every request id is answered exactly as sent, or
// refused with -32600 carrying the id as sent, as on stdio: the go-sdk
// decodes numeric ids as float64, so 9007199254740993 came back as
// 9007199254740992.
func TestIDsExactOverHTTP(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			s := startServer(t, nil, m.args...)
			session := ""
			if m.name == "stateful" {
				_, _, session, _ = rawPost(t, s.url, "", initialize)
				if session == "" {
					t.Fatal("initialize gave no session id")
				}
				rawPost(t, s.url, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			}
			for _, id := range []string{`9007199254740992`, `-9007199254740992`, `0`, `"9007199254740993"`} {
				code, _, _, body := rawPost(t, s.url, session, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
				if code != http.StatusOK || !strings.Contains(string(body), `"id":`+id+`,`) || !strings.Contains(string(body), `"result"`) {
					t.Errorf("ping with id %s: %d %s; want the id as sent and a result", id, code, body)
				}
			}
			for _, id := range []string{`9007199254740993`, `-9007199254740993`, `1180591620717411303424`, `1.5`, `1.0`, `1e2`, `-0`} {
				code, ctype, _, body := rawPost(t, s.url, session, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
				want := `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32600,`
				if code != http.StatusOK || !strings.HasPrefix(ctype, "application/json") || !strings.HasPrefix(string(body), want) || !strings.Contains(string(body), "at most 2^53") {
					t.Errorf("ping with id %s: %d %s %s; want %s...", id, code, ctype, body, want)
				}
			}
			if m.name != "stateless" {
				return
			}
			// Before 2025-06-18 the go-sdk serves batches: one holding such
			// an id is refused whole, each request with its id as sent.
			req, err := http.NewRequest("POST", s.url, strings.NewReader(`[{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"ping"}]`))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2025-03-26")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !strings.HasPrefix(string(body), `[{"jsonrpc":"2.0","id":9007199254740993,"error":{"code":-32600,`) || !strings.Contains(string(body), `{"jsonrpc":"2.0","id":3,"error":{"code":-32600,`) {
				t.Errorf("batch: %d %s; want both requests refused with their ids as sent", resp.StatusCode, body)
			}
		})
	}
}
