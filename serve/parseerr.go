package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/cobramcp/cobramcp/internal/rpcid"
)

// parseErrorMessage answers a line that is not JSON, as JSON-RPC 2.0 asks
// (error -32700 with a null id).
const parseErrorMessage = `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the message is not valid JSON"}}` + "\n"

// maxMessage bounds one incoming stdio message: the go-sdk's default line
// limit (mcp.DefaultMaxLineLength, 16 MiB), set explicitly on both the
// pre-filter and the transport (stdioTransport), so that every message over
// it is answered and none ends the session.
const maxMessage = 16 << 20

// maxDepth is the deepest nesting of objects and arrays that the go-sdk's
// decoder accepts; a deeper message ends its session.
const maxDepth = 1000

// message is what check reads of a JSON-RPC message that it passes: its
// id (nil for a notification or none), its method ("" for a response) and
// its params, for tracking the requests in flight (track).
type message struct {
	id     json.RawMessage
	method string
	params json.RawMessage
}

// check returns the error response for a line that is not a JSON-RPC 2.0
// message, or "" for one that is. The go-sdk ends the session on either,
// and also on a message that nests deeper than maxDepth, that repeats a
// member (its decoder reads every occurrence, so a repeated "jsonrpc" or
// "error" of the wrong type is fatal) or whose "error" does not decode as
// {"code": int64, "message": string}: check answers those too.
func check(line []byte) string {
	reply, _ := inspect(line)
	return reply
}

// inspect is check, returning too what it read of a message it passes.
// One scan checks the line is JSON (json.Valid), one more finds its
// top-level members without decoding them and how deeply it nests
// (topMembers); a repeated member shows as fewer distinct names than
// members. A line that scan does not
// read (not an object, a member name with an escape or invalid UTF-8) is
// inspected by decoding it (inspectDecoded), which gives the same answers
// and was about 5 % of the server's CPU per call.
func inspect(line []byte) (string, message) {
	if !json.Valid(line) {
		return parseErrorMessage, message{}
	}
	var (
		names    [8][]byte
		distinct int
		extra    map[string]bool // the distinct names beyond len(names)
		id, rpc  []byte
		method   []byte
		params   []byte
		errObj   []byte
		has      struct{ id, method, params, result, err bool }
		readable = true
	)
	members := 0
	deepest, ok := topMembers(line, func(key, val []byte) {
		members++
		if !utf8.Valid(key) {
			readable = false // encoding/json would decode it to U+FFFD
			return
		}
		seen := false
		for _, n := range names[:min(distinct, len(names))] {
			seen = seen || bytes.Equal(n, key)
		}
		if distinct > len(names) {
			seen = seen || extra[string(key)]
		}
		if !seen {
			if distinct < len(names) {
				names[distinct] = key
			} else {
				if extra == nil {
					extra = map[string]bool{}
				}
				extra[string(key)] = true
			}
			distinct++
		}
		switch string(key) { // the last of a repeated member, as decoding keeps
		case "id":
			id, has.id = val, true
		case "jsonrpc":
			rpc = val
		case "method":
			method, has.method = val, true
		case "params":
			params, has.params = val, true
		case "result":
			has.result = true
		case "error":
			errObj, has.err = val, true
		}
	})
	if !ok || !readable {
		return inspectDecoded(line)
	}
	if has.id && !validID(id) {
		id = nil
	}
	if deepest > maxDepth {
		return invalidRequest(id, fmt.Sprintf("the message nests deeper than %d levels", maxDepth)), message{}
	}
	if members != distinct {
		return invalidRequest(nil, "a member of the message is repeated"), message{}
	}
	return judge(id, rpc, method, params, errObj, has.id, has.method, has.params, has.result, has.err)
}

// judge is what inspect and inspectDecoded decide once they have read the
// top-level members of a message of unique members: id (nil when it is
// not a string or number), jsonrpc, method, params and error, with which
// of them are present.
func judge(id, rpc, method, params, errObj json.RawMessage, hasID, hasMethod, hasParams, hasResult, hasError bool) (string, message) {
	if string(rpc) != `"2.0"` {
		return invalidRequest(id, `"jsonrpc" must be "2.0"`), message{}
	}
	if hasID && id == nil {
		return invalidRequest(nil, `"id" must be a string or a number`), message{}
	}
	if hasID && !exactID(id) {
		return invalidRequest(id, rpcid.Refusal), message{}
	}
	if hasMethod {
		s, ok := jsonString(method)
		if !ok || s == "" {
			return invalidRequest(id, `"method" must be a non-empty string`), message{}
		}
		if hasParams && !isObjectOrArray(params) {
			return invalidRequest(id, `"params" must be an object or an array`), message{}
		}
		return "", message{id: id, method: s, params: params}
	}
	if !hasID || hasResult == hasError {
		return invalidRequest(id, `a message needs a "method", or an "id" with one "result" or "error"`), message{}
	}
	if hasError && !validError(errObj) {
		return invalidRequest(id, `"error" must be an object with an integer "code" and a string "message"`), message{}
	}
	return "", message{id: id}
}

// jsonString decodes the JSON string raw; false when raw is not one.
// Without an escape and with valid UTF-8 it is raw without its quotes.
func jsonString(raw []byte) (string, bool) {
	if len(raw) >= 2 && raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

// inspectDecoded is inspect by decoding the line into its top-level
// members: for the lines topMembers does not read.
func inspectDecoded(line []byte) (string, message) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		if _, ok := err.(*json.SyntaxError); ok {
			return parseErrorMessage, message{}
		}
		return invalidRequest(nil, "a message must be a JSON object (batches are not supported)"), message{}
	}
	id, hasID := m["id"]
	if hasID && !validID(id) {
		id = nil
	}
	deepest, members := shape(line)
	if deepest > maxDepth {
		return invalidRequest(id, fmt.Sprintf("the message nests deeper than %d levels", maxDepth)), message{}
	}
	if members != len(m) {
		return invalidRequest(nil, "a member of the message is repeated"), message{}
	}
	method, hasMethod := m["method"]
	params, hasParams := m["params"]
	_, hasResult := m["result"]
	errObj, hasError := m["error"]
	return judge(id, m["jsonrpc"], method, params, errObj, hasID, hasMethod, hasParams, hasResult, hasError)
}

// validError reports whether raw decodes as the go-sdk's error object: an
// object with unique members, "code" (if present) an integer within int64,
// "message" (if present) a string.
func validError(raw json.RawMessage) bool {
	var e map[string]json.RawMessage
	if json.Unmarshal(raw, &e) != nil || e == nil {
		return false
	}
	if _, members := shape(raw); members != len(e) {
		return false
	}
	var code int64
	var msg string
	if c, ok := e["code"]; ok && json.Unmarshal(c, &code) != nil {
		return false
	}
	if s, ok := e["message"]; ok && json.Unmarshal(s, &msg) != nil {
		return false
	}
	return true
}

// shape scans a JSON text once and returns how deeply its objects and
// arrays nest and, when it is an object, how many members it names at its
// top (every one, repeated or not: the ':' outside strings at depth 1).
func shape(data []byte) (deepest, members int) {
	d := 0
	inString, escaped := false, false
	for _, b := range data {
		switch {
		case inString && escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case inString && b == '"':
			inString = false
		case inString:
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			d++
			deepest = max(deepest, d)
		case b == '}' || b == ']':
			d--
		case b == ':' && d == 1:
			members++
		}
	}
	return deepest, members
}

// validID reports whether id, a JSON value, is an id the go-sdk decodes:
// a string, or a number within float64's range (what encoding/json makes
// of a number in an any).
func validID(id json.RawMessage) bool {
	id = bytes.TrimSpace(id)
	if len(id) == 0 {
		return false
	}
	switch c := id[0]; {
	case c == '"':
		return true // id is JSON: a whole string
	case c == '-' || '0' <= c && c <= '9':
		// As encoding/json decodes a number into an any: a float64, so
		// one out of its range does not decode.
		_, err := strconv.ParseFloat(string(id), 64)
		return err == nil
	}
	return false // null, a boolean, an object or an array
}

func isObjectOrArray(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && (raw[0] == '{' || raw[0] == '[')
}

// invalidRequest is the JSON-RPC "Invalid Request" error (-32600).
func invalidRequest(id json.RawMessage, why string) string {
	if id == nil {
		id = json.RawMessage("null")
	}
	msg, _ := json.Marshal("Invalid Request: " + why)
	return `{"jsonrpc":"2.0","id":` + string(bytes.TrimSpace(id)) + `,"error":{"code":-32600,"message":` + string(msg) + "}}\n"
}

// parseErrorReader passes the JSON-RPC lines of r through and answers every
// other line with a JSON-RPC error on out: -32700 for a line that is not
// JSON, -32600 for JSON that is not a JSON-RPC 2.0 message. The go-sdk's stdio reader
// ends the session at the first byte that is not JSON; with this in front
// of it, one bad message costs one error response and the server keeps
// serving.
//
// out must serialise whole writes with the SDK's own (an *os.File does: a
// Write holds the descriptor's write lock until every byte is written).
type parseErrorReader struct {
	br   *bufio.Reader
	out  io.Writer
	max  int    // the longest line passed on; a longer one is answered with -32600
	line []byte // the line being read
	rest []byte

	flight *inFlight // requests in progress; nil: not tracked
}

func newParseErrorReader(r io.Reader, out io.Writer) *parseErrorReader {
	return &parseErrorReader{br: bufio.NewReaderSize(r, 64<<10), out: out, max: maxMessage}
}

// tooLongMessage answers a line longer than the limit (read to its end and
// dropped).
var tooLongMessage = sync.OnceValue(func() string {
	return invalidRequest(nil, fmt.Sprintf("the message is longer than %d bytes", maxMessage))
})

// readLine returns the next line without its end, or tooLong (having read
// past the line) when it exceeds p.max. err is io.EOF after the last line.
func (p *parseErrorReader) readLine() (line []byte, tooLong bool, err error) {
	p.line = p.line[:0]
	for {
		chunk, err := p.br.ReadSlice('\n')
		if !tooLong {
			if len(p.line)+len(bytes.TrimRight(chunk, "\r\n")) > p.max {
				tooLong, p.line = true, nil
			} else {
				p.line = append(p.line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && (len(p.line) > 0 || tooLong) {
			err = nil // the last line, without an end; EOF comes next
		}
		return p.line, tooLong, err
	}
}

func (p *parseErrorReader) Read(b []byte) (int, error) {
	for len(p.rest) == 0 {
		raw, tooLong, err := p.readLine()
		if err != nil {
			return 0, err
		}
		reply := tooLongMessage()
		line := bytes.TrimSpace(raw)
		if !tooLong {
			if len(line) == 0 {
				continue
			}
			var m message
			if reply, m = inspect(line); reply == "" {
				reply = p.track(m)
			}
		}
		if reply != "" {
			if _, err := io.WriteString(p.out, reply); err != nil {
				return 0, err
			}
			continue
		}
		p.rest = append(append(p.rest[:0], line...), '\n')
	}
	n := copy(b, p.rest)
	p.rest = p.rest[n:]
	return n, nil
}
