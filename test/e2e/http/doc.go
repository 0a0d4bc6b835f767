// Package httpe2e holds the end-to-end tests of `mcp stream`: the real
// mycli binary (./example) served over streamable HTTP, driven by the
// go-sdk client, the official TypeScript client (test/node/http-*.mjs), the
// official conformance suite, plain HTTP requests for the safety checks,
// and a bounded load test.
//
// Every server runs on 127.0.0.1 with an ephemeral port, and stops at the
// end of its test. The Node programs need test/node/node_modules: outside
// CI the tests run `npm ci` there when it is missing; under CI=true a
// missing node_modules fails the tests.
//
//	go test ./test/e2e/http/ -run Conformance -v
package httpe2e
