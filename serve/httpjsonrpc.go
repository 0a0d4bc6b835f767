package serve

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// jsonrpcErrors answers in JSON-RPC what the go-sdk's streamable handler
// refuses with a plain-text 400 (see answerInJSONRPC). It reads a POST's
// body (at most limit bytes, when limit is not negative; a larger one goes
// to h as it is, which refuses it) and hands it on from memory. When
// stateful, a message other than initialize (and ping) without a session
// ID is refused, saying that the header is missing.
func jsonrpcErrors(h http.Handler, limit int64, stateful bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil || r.Body == http.NoBody {
			h.ServeHTTP(w, r)
			return
		}
		var src io.Reader = r.Body
		if limit >= 0 {
			src = io.LimitReader(r.Body, limit+1)
		}
		body, err := io.ReadAll(src)
		if err != nil || (limit >= 0 && int64(len(body)) > limit) {
			r.Body = struct {
				io.Reader
				io.Closer
			}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
			h.ServeHTTP(w, r)
			return
		}
		if refuseInexactID(w, r, body) {
			return
		}
		if stateful && r.Header.Get(sessionIDHeader) == "" && refuseWithoutSession(w, body) {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		answerInJSONRPC(w, r, body, h)
	})
}

// answerInJSONRPC runs next, and when next refuses a JSON-RPC request with
// a plain-text 400 because its method is unknown or the request is invalid
// (as the go-sdk's streamable handler does before protocol version
// 2026-07-28), it answers with the JSON-RPC error instead: -32601 (method
// not found) or -32600 (invalid request), with the request's id, as a
// JSON-RPC response (HTTP 200, application/json). Other answers pass
// unchanged.
func answerInJSONRPC(w http.ResponseWriter, r *http.Request, body []byte, next http.Handler) {
	if r.Method != http.MethodPost {
		next.ServeHTTP(w, r)
		return
	}
	msg, err := jsonrpc.DecodeMessage(body)
	req, ok := msg.(*jsonrpc.Request)
	if err != nil || !ok || !req.IsCall() {
		next.ServeHTTP(w, r)
		return
	}
	cw := &catchPlain400{ResponseWriter: w}
	next.ServeHTTP(cw, r)
	if !cw.caught {
		return
	}
	text := strings.TrimSpace(cw.buf.String())
	var code int64
	switch {
	case strings.HasPrefix(text, "JSON RPC not handled"):
		code, text = jsonrpc.CodeMethodNotFound, fmt.Sprintf("method not found: %q", req.Method)
	case strings.HasPrefix(text, "invalid request"):
		code = jsonrpc.CodeInvalidRequest
	default:
		cw.replay()
		return
	}
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: code, Message: text}})
	if err != nil {
		cw.replay()
		return
	}
	h := w.Header()
	h.Del("X-Content-Type-Options")
	h.Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(data)
}

// catchPlain400 holds back a plain-text 400 answer (as http.Error writes
// it) so that its text can be turned into a JSON-RPC error; any other
// answer passes through.
type catchPlain400 struct {
	http.ResponseWriter
	caught  bool // a plain-text 400 is held in buf
	started bool // the header went out (or is held)
	buf     bytes.Buffer
}

func (c *catchPlain400) WriteHeader(code int) {
	if c.started {
		return
	}
	c.started = true
	if code == http.StatusBadRequest && strings.HasPrefix(c.Header().Get("Content-Type"), "text/plain") {
		c.caught = true
		return
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *catchPlain400) Write(p []byte) (int, error) {
	if !c.started {
		c.WriteHeader(http.StatusOK)
	}
	if c.caught {
		return c.buf.Write(p)
	}
	return c.ResponseWriter.Write(p)
}

// replay sends the held answer as it was.
func (c *catchPlain400) replay() {
	c.ResponseWriter.WriteHeader(http.StatusBadRequest)
	c.ResponseWriter.Write(c.buf.Bytes())
}

// Unwrap lets http.ResponseController reach the connection.
func (c *catchPlain400) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// refuseWithoutSession refuses a message other than initialize and ping
// sent without the Mcp-Session-Id header to a stateful server, saying that
// the header is missing (the go-sdk would open a new session for it and
// answer that the method is invalid during initialization). A request gets
// the JSON-RPC error -32600 with its id, as every JSON-RPC error here (HTTP
// 200); a notification gets 400. It reports whether it answered.
func refuseWithoutSession(w http.ResponseWriter, body []byte) bool {
	msg, err := jsonrpc.DecodeMessage(body)
	req, ok := msg.(*jsonrpc.Request)
	if err != nil || !ok || req.Method == "initialize" || req.Method == "ping" {
		return false
	}
	text := fmt.Sprintf("Bad Request: missing the %s header: %q needs the session that initialize opened; "+
		"send the %s header of the initialize response with every later request", sessionIDHeader, req.Method, sessionIDHeader)
	if !req.IsCall() {
		http.Error(w, text, http.StatusBadRequest)
		return true
	}
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: text}})
	if err != nil {
		http.Error(w, text, http.StatusBadRequest)
		return true
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(data)
	return true
}
