// Package serve runs an *mcp.Server on stdio or over streamable HTTP with
// the answers that the go-sdk's transports alone would drop, answer
// wrongly or end the session on. Every server cobramcp makes is served
// through it: `mcp start` and `mcp stream` are thin callers.
//
//	ts, err := toolset.New(root, nil)
//	if err != nil { ... }
//	srv := ts.NewServer(toolset.ServerOptions{})
//	err = serve.Stdio(ctx, srv, os.Stdin, os.Stdout)
//
// # What serve promises
//
// On stdio (Stdio, StdioTransport), one bad message costs one error
// response and the session goes on: a line that is not JSON is answered
// -32700; JSON that is not a JSON-RPC 2.0 message, a message longer than
// MaxMessage bytes or nested deeper than the go-sdk decodes, a repeated
// member, an id the go-sdk would answer changed (a number that is not an
// integer of at most 2^53 in magnitude), and a request reusing the id of
// one in progress are answered -32600. A request the client cancelled is
// not answered, as the MCP spec asks. An error the go-sdk sends with code 0
// gets a JSON-RPC code.
//
// Over HTTP (HTTPHandler), errors of code 0 are mended the same way, and a
// request the go-sdk refuses with a plain-text 400 (an unknown method, a
// missing params) gets its JSON-RPC error (-32601, -32600) instead. Every
// id is answered exactly as sent or refused, as on stdio: a numeric id the
// go-sdk would answer changed gets -32600 with the id as sent. In
// stateful mode the number of sessions is capped (an initialize over the
// cap gets CodeTooManySessions), and a call ends with its process group
// when the HTTP request that carried it ends or its session is deleted; in
// stateless mode a call ends with its request. Authentication, origins and
// body limits belong to the http.Server in front (see `mcp stream`).
package serve
