package serve

import "encoding/json"

// sdkMessage is what the writers of the go-sdk's messages read of one: a
// response has no method; its error may have the code 0 (see errorCode).
type sdkMessage struct {
	ID     json.RawMessage `json:"id"`
	Method *string         `json:"method"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// readSDKMessage reads what sdkMessage holds of msg, a message the go-sdk
// wrote. It scans msg's top-level members once and decodes only "id",
// "method" and "error": a response carries a tool's whole output in its
// "result", which decoding in full would scan twice more (it was a seventh
// of the server's CPU for a call printing 50 MiB). A message that scan
// cannot read (not an object, a member name with an escape) is decoded in
// full, as is one whose "error" does not decode.
func readSDKMessage(msg []byte) (sdkMessage, error) {
	var m sdkMessage
	var errObj []byte
	_, ok := topMembers(msg, func(key, val []byte) {
		switch string(key) {
		case "id":
			m.ID = val
		case "method":
			if string(val) != "null" {
				m.Method = new(string)
			}
		case "error":
			errObj = val
		}
	})
	if ok && (errObj == nil || json.Unmarshal(errObj, &m.Error) == nil) {
		return m, nil
	}
	m = sdkMessage{}
	err := json.Unmarshal(msg, &m)
	return m, err
}

// topMembers calls f with the name (as written, without its quotes) and the
// value of each member of the JSON object msg, in order, and reports
// whether it could: false for msg that is not an object, or whose member
// names have escapes. It also returns how deeply msg's objects and arrays
// nest (1 for an object of scalars). It scans msg once and checks little:
// msg is JSON (the go-sdk's, or checked by json.Valid).
func topMembers(msg []byte, f func(key, val []byte)) (deepest int, ok bool) {
	i := skipSpace(msg, 0)
	if i >= len(msg) || msg[i] != '{' {
		return 0, false
	}
	deepest = 1
	i = skipSpace(msg, i+1)
	if i < len(msg) && msg[i] == '}' {
		return deepest, true
	}
	for {
		if i >= len(msg) || msg[i] != '"' {
			return 0, false
		}
		j := i + 1
		for j < len(msg) && msg[j] != '"' {
			if msg[j] == '\\' {
				return 0, false
			}
			j++
		}
		if j >= len(msg) {
			return 0, false
		}
		key := msg[i+1 : j]
		i = skipSpace(msg, j+1)
		if i >= len(msg) || msg[i] != ':' {
			return 0, false
		}
		i = skipSpace(msg, i+1)
		end, depth, ok := skipValue(msg, i)
		if !ok {
			return 0, false
		}
		deepest = max(deepest, 1+depth)
		f(key, msg[i:end])
		i = skipSpace(msg, end)
		if i >= len(msg) {
			return 0, false
		}
		switch msg[i] {
		case ',':
			i = skipSpace(msg, i+1)
		case '}':
			return deepest, true
		default:
			return 0, false
		}
	}
}

// skipValue returns the end of the JSON value that starts at msg[i] (a
// string, an object or array, its brackets counted outside strings, or a
// number or literal, up to the next delimiter) and how deeply its objects
// and arrays nest (0 for a scalar).
func skipValue(msg []byte, i int) (end, deepest int, ok bool) {
	if i >= len(msg) {
		return 0, 0, false
	}
	switch msg[i] {
	case '"':
		for j := i + 1; j < len(msg); j++ {
			switch msg[j] {
			case '\\':
				j++
			case '"':
				return j + 1, 0, true
			}
		}
		return 0, 0, false
	case '{', '[':
		depth, inString := 0, false
		for j := i; j < len(msg); j++ {
			c := msg[j]
			switch {
			case inString && c == '\\':
				j++
			case inString && c == '"':
				inString = false
			case inString:
			case c == '"':
				inString = true
			case c == '{' || c == '[':
				depth++
				deepest = max(deepest, depth)
			case c == '}' || c == ']':
				if depth--; depth == 0 {
					return j + 1, deepest, true
				}
			}
		}
		return 0, 0, false
	}
	j := i
	for j < len(msg) && msg[j] != ',' && msg[j] != '}' && msg[j] != ']' && !isSpace(msg[j]) {
		j++
	}
	return j, 0, j > i
}

func skipSpace(msg []byte, i int) int {
	for i < len(msg) && isSpace(msg[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
