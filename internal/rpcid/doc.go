// Package rpcid says which JSON-RPC request ids an MCP server built on the
// go-sdk answers exactly as they were sent, so that both transports
// (stdio and HTTP) refuse the same others the same way.
//
//	id := json.RawMessage(`9007199254740993`)
//	if !rpcid.Exact(id) {
//		// answer -32600 with the id as sent and rpcid.Refusal
//	}
//
// The go-sdk decodes a numeric id as a float64 and writes it back as an
// integer: an id with a fraction or an exponent, "-0", or an integer
// beyond 2^53 in magnitude would come back as another number, and a
// client would never match the answer to its request. A string id, or an
// integer of at most 2^53 in magnitude written in plain digits, comes back
// as it was.
package rpcid
