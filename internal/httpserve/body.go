package httpserve

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
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
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// refuse answers a request whose body was not read with code and msg, and
// closes the connection.
func refuse(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Connection", "close")
	http.Error(w, msg, code)
}
