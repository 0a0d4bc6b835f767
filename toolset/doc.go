// Package bridge turns a Cobra command tree into MCP tools and serves them.
//
// A CLI adopts it with one line:
//
//	root.AddCommand(bridge.Command(nil))
//
// which adds the "mcp" command group: `mycli mcp start` serves every
// runnable command as a tool on stdio, `mycli mcp tools` exports the tool
// definitions, and the other sub-commands serve over HTTP or set up clients.
//
// The same reflection is available without starting anything:
//
//	ts, err := bridge.Tools(root, &bridge.Config{
//		Selectors: []bridge.Selector{{Cmd: bridge.ExcludeCmds("delete")}},
//	})
//	for _, t := range ts.List() {
//		fmt.Println(t.MCP.Name, t.Command.CommandPath())
//	}
//	res, err := ts.Call(ctx, "mycli_get_pods", json.RawMessage(`{"flags":{"namespace":"kube-system"}}`))
//
// # What bridge promises
//
// One tool per runnable command. Hidden and deprecated commands and flags,
// non-runnable commands, cobra's own help and completion commands, and the
// mcp group itself (by identity) are left out. A tool's name is the command
// path joined with "_", valid for every major client (^[a-zA-Z0-9_-]{1,64}$);
// a clash between two commands is reported, never merged. The Toolset keeps
// a map from tool to command: no name is ever split to find its command.
//
// A tool's input schema is {"flags": {...}, "args": [...]}: one property
// per served flag by its long name (see package flagschema), cobra's
// required flags and flag groups expressed in the schema, and the positional
// args that cmd.Args accepts, found by probing it; a command whose Use line
// shows " -- " also has "argsAfterDash", the words written after "--". The
// output schema is always {stdout, stderr, exitCode}.
//
// A call is validated against the input schema before anything runs; its
// argv is built by package exec so that the command's own flag parser reads
// back exactly what was asked, and it runs as a child process of the CLI's
// own binary, bounded in time, output and parallelism. Every failure is a
// result with IsError set; the server keeps serving.
package toolset
