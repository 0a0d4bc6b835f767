package serve

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A message whose numeric id the go-sdk would answer changed never reaches
// the handler: it gets -32600 with the id as sent.
func TestInexactIDRefused(t *testing.T) {
	reached := false
	h := jsonrpcErrors(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached = true
		w.WriteHeader(http.StatusAccepted)
	}), 1<<20, false)
	tests := []struct {
		body string
		id   string // the id answered, "" when the handler is reached
	}{
		{`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, `9007199254740993`},
		{`{"jsonrpc":"2.0","id":1e2,"method":"ping"}`, `1e2`},
		{`{"jsonrpc":"2.0","id": -0 ,"result":{}}`, `-0`},
		{`{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}`, ""},
		{`{"jsonrpc":"2.0","id":"9007199254740993","method":"ping"}`, ""},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, ""},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, ""},
		{`[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","id":"x","method":"ping"}]`, ""},
		{`not json`, ""},
	}
	// A batch holding an inexact id is refused whole, every request with
	// its id as sent.
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/mcp", strings.NewReader(
		`[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":1.50,"method":"ping"}]`)))
	if reached || rec.Code != http.StatusOK ||
		!strings.HasPrefix(rec.Body.String(), `[{"jsonrpc":"2.0","id":3,"error":{"code":-32600,`) ||
		!strings.Contains(rec.Body.String(), `},{"jsonrpc":"2.0","id":1.50,"error":{"code":-32600,`) ||
		strings.Count(rec.Body.String(), `"error"`) != 2 {
		t.Errorf("batch: reached %v, %d %s", reached, rec.Code, rec.Body.String())
	}
	for _, tt := range tests {
		reached = false
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/mcp", strings.NewReader(tt.body)))
		if reached != (tt.id == "") {
			t.Errorf("%s: reached the handler %v, want %v", tt.body, reached, tt.id == "")
		}
		if tt.id == "" {
			continue
		}
		want := `{"jsonrpc":"2.0","id":` + tt.id + `,"error":{"code":-32600,`
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json" || !strings.HasPrefix(rec.Body.String(), want) {
			t.Errorf("%s: %d %q %s, want 200 and %s...", tt.body, rec.Code, rec.Header().Get("Content-Type"), rec.Body.String(), want)
		}
	}
}
