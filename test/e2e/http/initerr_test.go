package httpe2e

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestInitializationErrorCodes checks that over HTTP a second initialize,
// and in stateful mode a request sent without a session (before any
// initialize), are answered with the JSON-RPC code -32600 (Invalid
// Request), as over stdio, where the go-sdk gives them code 0; and that
// the server keeps serving.
func TestInitializationErrorCodes(t *testing.T) {
	init1 := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	init2 := strings.Replace(init1, `"id":1`, `"id":2`, 1)
	list := `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`
	ping := `{"jsonrpc":"2.0","id":4,"method":"ping"}`
	type want map[float64]int64 // response id -> error code, 0 for a result
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			s := startServer(t, nil, m.args...)
			cases := []struct {
				name, session, version, body string
				want                         want
			}{
				{"two initializes in a batch", "", "2025-03-26", "[" + init1 + "," + init2 + "]", want{1: 0, 2: -32600}},
			}
			if m.name == "stateful" {
				_, _, sid, _ := rawPost(t, s.url, "", initialize)
				if sid == "" {
					t.Fatal("initialize gave no session id")
				}
				cases = append(cases, []struct {
					name, session, version, body string
					want                         want
				}{
					{"second initialize on a session", sid, "2025-11-25", init2, want{2: -32600}},
					{"request without a session", "", "2025-11-25", list, want{3: -32600}},
					{"batch without a session", "", "2025-03-26", "[" + list + "," + ping + "]", want{3: -32600, 4: 0}},
					{"the session still serves", sid, "2025-11-25", list, want{3: 0}},
				}...)
			} else {
				cases = append(cases, []struct {
					name, session, version, body string
					want                         want
				}{
					{"second initialize", "", "2025-11-25", init2, want{2: 0}},
					{"request without initialize", "", "2025-11-25", list, want{3: 0}},
				}...)
			}
			for _, tt := range cases {
				code, got := postMessages(t, s.url, tt.session, tt.version, tt.body)
				if code != http.StatusOK || len(got) != len(tt.want) {
					t.Errorf("%s: HTTP %d, responses %v; want HTTP 200 and %v", tt.name, code, got, tt.want)
					continue
				}
				for id, c := range tt.want {
					if g, ok := got[id]; !ok || g != c {
						t.Errorf("%s: response %v has code %v (present %v), want %d (0: a result)", tt.name, id, g, ok, c)
					}
				}
			}
		})
	}
}

// postMessages posts body with the session id (when not empty) and the
// protocol version, and returns the HTTP status and, by id, the error code
// of each response (0 for a result; -1 for an error of code 0, so that it
// cannot pass for a result).
func postMessages(t *testing.T, url, session, version, body string) (int, map[float64]int64) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", version)
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	var msgs []string
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for _, line := range strings.Split(string(out), "\n") {
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				msgs = append(msgs, d)
			}
		}
	} else {
		msgs = append(msgs, string(out))
	}
	got := map[float64]int64{}
	for _, raw := range msgs {
		var m struct {
			ID     float64         `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code int64 `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			t.Errorf("not a JSON-RPC response: %q", raw)
			continue
		}
		switch {
		case m.Error != nil && m.Error.Code == 0:
			got[m.ID] = -1
		case m.Error != nil:
			got[m.ID] = m.Error.Code
		default:
			got[m.ID] = 0
		}
	}
	return resp.StatusCode, got
}
