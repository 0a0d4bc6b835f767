// Command bench measures what cobramcp costs, against the floor of running
// the same commands directly: it builds kubelite (a small kubectl-like CLI,
// ./kubelite) with and without cobramcp linked, drives `kubelite mcp start`
// through a go-sdk client, and prints a table of figures, each with its
// direct-exec floor and the min/median/max of its samples:
//
//   - echo call: wall time of one tools/call of `kubelite echo` over running
//     `kubelite echo` directly (each call follows a direct run, so the
//     server idles between calls as a client's does while its commands
//     run);
//   - server CPU per call (user+system of the server process and its guard,
//     not of the commands it runs), one call at a time and 16 in flight;
//   - 16 calls in flight: calls/s over MCP and directly;
//   - 16 parallel 1 s calls: wall time of the batch;
//   - cold start to tools/list (and, with -kubectl, on kubectl's real tree);
//   - server RSS idle after tools/list;
//   - the adopting CLI: binary size, and CPU to run `kubelite version`, with
//     and without cobramcp linked;
//   - 50 MiB of output, uncapped: time and the server's peak RSS.
//
// The server CPU per call, cold start, idle RSS, size and `kubelite version`
// figures are given for the go-sdk floor too: kubelite built with -tags
// sdkfloor links only the go-sdk and serves one trivial tool that runs no
// process (kubelite/sdkfloor.go), what any bridge on the go-sdk costs; its
// CPU per call is measured at the echo calls' pace. -sdk v1.2.0,v1.8.0
// measures, instead of the figures, the floor's size and CPU per call for
// each go-sdk version given, each built in a module of its own (make
// bench-sdk).
//
// Run it with `make bench` from the repository root, or
//
//	cd test/bench && go run . [-calls 300] [-rounds 5] [-kubectl ../../bin/kubectl]
//
// -against DIR measures the echo calls of another checkout's kubelite in
// the same rounds, alternated, with the ratio per round (a change's before
// and after, under the same load); -protocol picks the protocol version
// the client asks for (the go-sdk client's newest, 2026-07-28, sends a
// _meta with every call; most clients speak 2025-06-18).
//
// It is a module of its own so that the library's go.mod gains nothing.
package main
