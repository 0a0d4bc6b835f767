package serve

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/cobramcp/cobramcp/internal/rpcid"
)

// refuseInexactID answers a JSON-RPC message whose id is a number that
// the go-sdk would answer changed (9007199254740993 comes back as
// 9007199254740992, 1.5 as 1) with the error -32600 carrying the id as
// sent, as the stdio transport does, and reports whether it did. Other
// bodies (batches, non-JSON, ids that are strings or exact integers, a
// non-numeric id, which the go-sdk refuses itself) are left to the MCP
// handler.
func refuseInexactID(w http.ResponseWriter, r *http.Request, body []byte) bool {
	if r.Method != http.MethodPost {
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return false
	}
	id, ok := m["id"]
	if !ok || !rpcid.Number(id) || rpcid.Exact(id) {
		return false
	}
	msg, _ := json.Marshal("Invalid Request: " + rpcid.Refusal)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(bytes.TrimSpace(id)) + `,"error":{"code":-32600,"message":` + string(msg) + "}}\n"))
	return true
}
