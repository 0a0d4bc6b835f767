package httpserve

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// closeUnread makes every response to a request whose body was not read to
// its end close the connection. Without it, net/http reads what is left of
// the body (up to 256 KiB) before it sends the response headers, so a
// refusal (401, 403, 413) to a client that sends its body slowly, or never,
// would wait for that body forever.
func closeUnread(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
			next.ServeHTTP(w, r)
			return
		}
		b := &eofBody{ReadCloser: r.Body}
		r.Body = b
		next.ServeHTTP(&closeIfUnread{ResponseWriter: w, body: b}, r)
	})
}

// eofBody records whether its reader reached the end.
type eofBody struct {
	io.ReadCloser
	eof bool
}

func (b *eofBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}

// closeIfUnread asks for the connection to be closed when the response
// starts before the request body was read to its end.
type closeIfUnread struct {
	http.ResponseWriter
	body        *eofBody
	wroteHeader bool
}

func (c *closeIfUnread) WriteHeader(code int) {
	if !c.wroteHeader {
		c.wroteHeader = true
		if !c.body.eof {
			c.Header().Set("Connection", "close")
		}
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *closeIfUnread) Write(p []byte) (int, error) {
	if !c.wroteHeader {
		c.WriteHeader(http.StatusOK)
	}
	return c.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the connection (Flush, read
// deadlines).
func (c *closeIfUnread) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// readBody reads the whole request body, at most limit bytes (no limit when
// negative) and within timeout, before next runs; next gets it from memory.
// A body too large gets 413, one not received in time 408; both close the
// connection. It runs after authentication, so that a client without the
// token never gets this far.
func readBody(limit int64, timeout time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		if limit >= 0 && r.ContentLength > limit {
			refuse(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body exceeds %d bytes", limit))
			return
		}
		rc := http.NewResponseController(w)
		// Not every writer can (httptest's recorder cannot); then only the
		// size is bounded.
		timed := rc.SetReadDeadline(time.Now().Add(timeout)) == nil
		var src io.Reader = r.Body
		if limit >= 0 {
			src = http.MaxBytesReader(w, r.Body, limit)
		}
		body, err := io.ReadAll(src)
		if timed {
			rc.SetReadDeadline(time.Time{})
		}
		var tooBig *http.MaxBytesError
		var ne net.Error
		switch {
		case errors.As(err, &tooBig):
			refuse(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body exceeds %d bytes", limit))
			return
		case errors.As(err, &ne) && ne.Timeout():
			refuse(w, http.StatusRequestTimeout, fmt.Sprintf("request body not received within %s", timeout))
			return
		case err != nil:
			refuse(w, http.StatusBadRequest, "reading the request body: "+err.Error())
			return
		}
		if refuseInexactID(w, r, body) {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		answerInJSONRPC(w, r, body, next)
	})
}

// refuse answers a request whose body was not read with code and msg, and
// closes the connection.
func refuse(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Connection", "close")
	http.Error(w, msg, code)
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
