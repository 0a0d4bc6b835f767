package serve

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/internal/rpcid"
)

// stdioTransport is the transport of `mcp start`: the go-sdk's IOTransport
// with the project's two filters around it, which answer what the go-sdk
// v1.8.0 would drop, answer wrongly, or end the session on.
//
// In front of the reader, parseErrorReader (parseerr.go) passes on only
// lines that are JSON-RPC 2.0 messages of at most max bytes, and answers
// the others itself:
//   - not JSON: -32700; not a JSON-RPC 2.0 message, nested deeper than the
//     go-sdk's decoder allows, a repeated member: -32600 (the go-sdk would
//     end the session);
//   - longer than max: -32600 (the go-sdk ends the session at its own line
//     limit, which is therefore set to max as well);
//   - an id the go-sdk would answer changed (a number that is not an
//     integer of at most 2^53 in magnitude: it decodes ids as float64, then
//     int64): -32600, echoing the id as sent;
//   - a request reusing the id of a request still in progress: -32600, as
//     over HTTP (the go-sdk drops it without an answer).
//
// Behind the writer, replyWriter keeps track of the answers:
//   - no response is sent for a request that the client cancelled
//     (notifications/cancelled) before it was answered, as the MCP spec
//     asks (the go-sdk answers it anyway);
//   - an error response with code 0 (a plain Go error inside the go-sdk,
//     such as "method is invalid during session initialization" or a second
//     initialize) gets a JSON-RPC code: -32600 for those two, -32603
//     otherwise.
func stdioTransport(in io.Reader, out io.Writer, max int) *mcp.IOTransport {
	flight := &inFlight{ids: map[string]bool{}}
	r := newParseErrorReader(in, out)
	r.max, r.flight = max, flight
	return &mcp.IOTransport{
		Reader: io.NopCloser(r),
		Writer: &replyWriter{out: out, flight: flight},
		// The go-sdk counts the newline ending a message, and may count the
		// previous one's, against its limit: two bytes of slack so that it
		// never refuses what the reader passed on.
		MaxLineLength: max + 2,
	}
}

// inFlight is the set of requests read and not answered yet, by idKey;
// true marks one that the client cancelled.
type inFlight struct {
	mu  sync.Mutex
	ids map[string]bool
}

// start records a request; false if one with that id is in flight.
func (f *inFlight) start(key string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.ids[key]; ok {
		return false
	}
	f.ids[key] = false
	return true
}

// cancel marks the request key as cancelled, if it is in flight.
func (f *inFlight) cancel(key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.ids[key]; ok {
		f.ids[key] = true
	}
}

// finish forgets the request key, reporting whether it was cancelled.
func (f *inFlight) finish(key string) (cancelled bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	cancelled = f.ids[key]
	delete(f.ids, key)
	return cancelled
}

// idKey is a JSON-RPC id as the go-sdk sees it: the string, or the number
// (which check has made sure is an integer it keeps exactly).
func idKey(id json.RawMessage) string {
	id = bytes.TrimSpace(id)
	var s string
	if len(id) > 0 && id[0] == '"' && json.Unmarshal(id, &s) == nil {
		return "s" + s
	}
	return "n" + string(id)
}

// exactID reports whether the go-sdk answers id exactly as sent (the
// rule the HTTP transport applies too: internal/rpcid).
func exactID(id json.RawMessage) bool { return rpcid.Exact(id) }

// track records the request m (or the cancellation it is) in p.flight,
// and returns the answer for a request whose id is in flight already, or
// "".
func (p *parseErrorReader) track(m message) string {
	if p.flight == nil || m.method == "" {
		return "" // not tracked, or a response
	}
	if len(m.id) > 0 {
		if !p.flight.start(idKey(m.id)) {
			return invalidRequest(m.id, "the id is in use by a request still in progress")
		}
		return ""
	}
	if m.method == "notifications/cancelled" {
		var params struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(m.params, &params) == nil && len(params.RequestID) > 0 {
			p.flight.cancel(idKey(params.RequestID))
		}
	}
	return ""
}

// replyWriter writes the go-sdk's messages to out, dropping the response
// to a cancelled request and giving an error response of code 0 a JSON-RPC
// code (see stdioTransport). Each Write is one message (ioConn writes so).
type replyWriter struct {
	out    io.Writer
	flight *inFlight
}

func (w *replyWriter) Write(p []byte) (int, error) {
	m, err := readSDKMessage(p)
	if err != nil || m.Method != nil || len(m.ID) == 0 {
		return w.out.Write(p) // a request or a notification of the server
	}
	if w.flight.finish(idKey(m.ID)) {
		return len(p), nil // cancelled: no response
	}
	if fixed, ok := m.coded(p); ok {
		if _, err := w.out.Write(fixed); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return w.out.Write(p)
}

// coded returns msg, the message m was read from, with a JSON-RPC code
// for its error when m is a response with an error of code 0 (one line,
// ending in a newline), and whether it is.
func (m *sdkMessage) coded(msg []byte) ([]byte, bool) {
	if m.Method != nil || m.Error == nil || m.Error.Code != 0 {
		return nil, false
	}
	return withCode(msg, errorCode(m.Error.Message))
}

// errorCode is the JSON-RPC code for an error the go-sdk sends with code 0.
func errorCode(msg string) int64 {
	if strings.HasSuffix(msg, "is invalid during session initialization") || strings.HasPrefix(msg, `duplicate "initialize"`) {
		return -32600 // Invalid Request: not in this state of the session
	}
	return -32603 // Internal error
}

// withCode returns the response msg (one line) with its error's code set.
func withCode(msg []byte, code int64) ([]byte, bool) {
	var top map[string]json.RawMessage
	if json.Unmarshal(msg, &top) != nil {
		return nil, false
	}
	var e map[string]json.RawMessage
	if json.Unmarshal(top["error"], &e) != nil {
		return nil, false
	}
	e["code"] = json.RawMessage(strconv.FormatInt(code, 10))
	b, err := json.Marshal(e)
	if err != nil {
		return nil, false
	}
	top["error"] = b
	out, err := json.Marshal(top)
	if err != nil {
		return nil, false
	}
	return append(out, '\n'), true
}

// Close closes out, if it can be closed.
func (w *replyWriter) Close() error {
	if c, ok := w.out.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
