package serve

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// The go-sdk answers some requests with an error of code 0, a plain Go
// error inside it: over streamable HTTP, a second initialize on a session
// (`duplicate "initialize" received`) and, in stateful mode, a request
// other than initialize sent without a session (`method "tools/list" is
// invalid during session initialization`). codedErrors gives those errors
// the JSON-RPC code that stdio gives them (errorCode: -32600 for these two,
// -32603 for any other), leaving every other byte the SDK writes as it is.

// zeroCode is how the go-sdk encodes an error object of code 0; no other
// message it writes holds it outside a string (where its quotes would be
// escaped).
var zeroCode = []byte(`"error":{"code":0,`)

// codedErrors wraps the go-sdk's streamable HTTP handler: the responses to
// a POST that carry an error of code 0 get a JSON-RPC code. The SDK writes
// each message in one Write (one SSE event, or one JSON body), which is
// where they are mended.
func codedErrors(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			h.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(&codeWriter{ResponseWriter: w}, r)
	})
}

// codeWriter mends the error code of each message written through it.
type codeWriter struct {
	http.ResponseWriter
}

func (w *codeWriter) Write(p []byte) (int, error) {
	if !bytes.Contains(p, zeroCode) {
		return w.ResponseWriter.Write(p)
	}
	if _, err := w.ResponseWriter.Write(mendCodes(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Unwrap lets http.ResponseController reach the connection (to flush
// events, and to see it close).
func (w *codeWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// mendCodes returns p, one SSE event or one JSON body (a message or a
// batch of them), with the error code of every response of code 0 set.
func mendCodes(p []byte) []byte {
	body := bytes.TrimSpace(p)
	switch {
	case len(body) > 0 && body[0] == '{':
		return mendMessage(body)
	case len(body) > 0 && body[0] == '[':
		var batch []json.RawMessage
		if json.Unmarshal(body, &batch) != nil {
			return p
		}
		for i, m := range batch {
			batch[i] = mendMessage(m)
		}
		out, err := json.Marshal(batch)
		if err != nil {
			return p
		}
		return out
	}
	// An SSE event: its data lines hold the message.
	lines := bytes.SplitAfter(p, []byte("\n"))
	for i, l := range lines {
		data, ok := bytes.CutPrefix(l, []byte("data: "))
		if !ok {
			continue
		}
		nl := data[len(bytes.TrimRight(data, "\n")):]
		lines[i] = append(append([]byte("data: "), mendMessage(bytes.TrimRight(data, "\n"))...), nl...)
	}
	return bytes.Join(lines, nil)
}

// mendMessage returns msg with its error's code set when it is a response
// with an error of code 0, else msg.
func mendMessage(msg []byte) []byte {
	m, err := readSDKMessage(msg)
	if err != nil {
		return msg
	}
	fixed, ok := m.coded(msg)
	if !ok {
		return msg
	}
	return bytes.TrimSuffix(fixed, []byte("\n"))
}
