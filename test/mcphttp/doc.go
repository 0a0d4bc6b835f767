// Package mcphttp sends one raw MCP request over streamable HTTP, as a
// client without an SDK (curl, a test) sends it: the tests of serve and
// the e2e tests read the server's answers at that level.
package mcphttp
