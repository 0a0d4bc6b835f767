// Package mcptest connects a go-sdk client to a server in the test's own
// process and reads the text of what it answers: what the tests of the
// library's packages (toolset, telemetry) and the e2e tests wrote each
// for themselves.
//
//	cs := mcptest.Connect(t, view.NewServer(toolset.ServerOptions{}))
//	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_version"})
//	... mcptest.Text(res) ...
package mcptest
