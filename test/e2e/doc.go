// Package e2e holds cobramcp's end-to-end tests: real MCP clients against
// the built demo CLI, `mycli mcp start`, over stdio.
//
//	go test -race -count=1 ./test/e2e/
//	MYCLI_BIN=bin/mycli go test ./test/e2e/   # use a binary built already
//	go test -run='^$' -bench=. ./test/e2e/    # call overhead and peak memory
//
// TestMain builds github.com/cobramcp/cobramcp/example (or takes $MYCLI_BIN)
// and testdata/shortcli (mycli served with a 5s timeout and a 4 KiB output
// cap) into a temporary directory. Each test starts its own server with its
// own state file, so the tests run in parallel.
//
// # What the tests hold cobramcp to
//
//   - Every tool of mycli answers a valid call with the command's exact
//     output, as structured content {stdout, stderr, exitCode} and as text
//     that agrees with it (TestEveryTool).
//   - Bad input (wrong type, unknown flag, missing required flag, too many
//     args, arguments that are not an object) is a result with isError set
//     and a message naming the problem; nothing runs; an unknown tool is a
//     JSON-RPC error (invalid params) that names the tool most likely meant;
//     malformed JSON on the pipe gets a parse error; the
//     server keeps serving after each (TestBadInput, TestUnknownTool,
//     TestMalformedJSON).
//   - Values are passed exactly: a positional arg "--state=/tmp/x" or "-n"
//     stays a positional arg (TestHostileValues).
//   - Cancellation, the per-call timeout and a client that closes stdin
//     mid-call each end the command's whole process group, grandchildren
//     that ignore SIGTERM included (TestCancel, TestTimeout,
//     TestStdinClosedMidCall); the server exits 0 when stdin closes.
//   - Output is capped with an exact marker and the server's memory stays
//     small for 100 MB of output (TestHugeOutput).
//   - 50 concurrent calls each get their own result (TestConcurrentCalls);
//     progress notifications carry the latest output line (TestProgress);
//     nothing but JSON-RPC reaches the server's stdout (TestStdoutIsProtocolOnly).
//   - The official TypeScript SDK client (test/node/stdio-client.mjs) lists,
//     calls, validates every result against the output schema and cancels,
//     negotiating protocol 2025-11-25 while the go-sdk client negotiates its
//     newest (TestTypeScriptClient, TestProtocolVersions).
//
// BenchmarkCallOverhead and BenchmarkHugeOutputMemory measure the cost of a
// tools/call over running the command directly, and the server's peak
// memory for 100 MB of output.
package e2e
