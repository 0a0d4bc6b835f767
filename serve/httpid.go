package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/cobramcp/cobramcp/internal/rpcid"
)

// refuseInexactID answers a JSON-RPC message whose id is a number that
// the go-sdk would answer changed (9007199254740993 comes back as
// 9007199254740992, 1.5 as 1) with the error -32600 carrying the id as
// sent, as the stdio transport does, and reports whether it did. A batch
// (which the go-sdk serves for protocol versions before 2025-06-18)
// holding such an id is refused whole: each of its requests gets -32600
// with its id as sent. Other bodies (non-JSON, ids that are strings or
// exact integers, a non-numeric id, which the go-sdk refuses itself) are
// left to the MCP handler.
func refuseInexactID(w http.ResponseWriter, r *http.Request, body []byte) bool {
	if r.Method != http.MethodPost {
		return false
	}
	trimmed := bytes.TrimSpace(body)
	var out string
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var batch []map[string]json.RawMessage
		if json.Unmarshal(trimmed, &batch) != nil {
			return false
		}
		bad := -1
		for i, m := range batch {
			if id, ok := m["id"]; ok && inexact(id) {
				bad = i
				break
			}
		}
		if bad < 0 {
			return false
		}
		var answers []string
		for _, m := range batch {
			id, hasID := m["id"]
			_, isRequest := m["method"]
			switch {
			case hasID && inexact(id):
				answers = append(answers, errorResponse(id, rpcid.Refusal))
			case hasID && isRequest:
				answers = append(answers, errorResponse(id, fmt.Sprintf("refused with its batch, whose element %d has an id that would be answered changed", bad)))
			}
			// A notification or a response gets no answer.
		}
		out = "[" + strings.Join(answers, ",") + "]\n"
	} else {
		var m map[string]json.RawMessage
		if json.Unmarshal(trimmed, &m) != nil {
			return false
		}
		id, ok := m["id"]
		if !ok || !inexact(id) {
			return false
		}
		out = errorResponse(id, rpcid.Refusal) + "\n"
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write([]byte(out))
	return true
}

// inexact reports whether id is a number that the go-sdk answers changed.
func inexact(id json.RawMessage) bool { return rpcid.Number(id) && !rpcid.Exact(id) }

// errorResponse is the JSON-RPC error -32600 for id, written as sent.
func errorResponse(id json.RawMessage, why string) string {
	msg, _ := json.Marshal("Invalid Request: " + why)
	return `{"jsonrpc":"2.0","id":` + string(bytes.TrimSpace(id)) + `,"error":{"code":-32600,"message":` + string(msg) + "}}"
}
