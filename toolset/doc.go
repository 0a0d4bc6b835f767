// Package toolset turns a Cobra command tree into MCP tools, runs their
// calls, and makes the MCP server that serves them. It is the library under
// package bridge (the one-line adoption) and the mcp commands; a program
// uses it directly to serve a tree its own way:
//
//	ts, err := toolset.New(root, &toolset.Config{
//		Selectors: []toolset.Selector{{Cmd: bridge.ExcludeCmds("delete")}},
//	})
//	if err != nil { ... }
//	v, err := ts.View(toolset.Listing{})
//	for _, t := range v.List() {
//		fmt.Println(t.Name, t.Command.CommandPath())
//	}
//
// New returns the reflection, a *Toolset: every tool the tree has. What
// a server serves is a view of it, a *Served: View applies a Listing (the
// shape of tools/list) and any number of Policies (what the person
// starting a server, or a rule for one caller, allows; a tool is served
// when every policy allows it), once; its Tools, Call and NewServer know
// nothing else:
//
//	v, err := ts.View(toolset.Listing{Mode: toolset.ToolModeAuto}, toolset.Policy{ReadOnly: true})
//	res, err := v.Call(ctx, "mycli_get_pods", json.RawMessage(`{"flags":{"namespace":"kube-system"}}`))
//	srv := v.NewServer(toolset.ServerOptions{})
//	err = serve.Stdio(ctx, srv, os.Stdin, os.Stdout) // package serve
//
// A tool has three forms, each with one name: as defined
// (Tool.Definition: every served flag, the whole help), as listed
// (Served.Tools: compact or expanded, without pinned flags; in search
// mode the search, list, describe and run tools instead), and as validated
// (Tool.Definition's input schema, less the pinned flags: every call is
// checked against it, whatever the listing).
//
// # What toolset promises
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
//
// # Observing a server
//
// ServerOptions.Observer watches a server's requests and calls, for traces
// and metrics (package telemetry implements it with OpenTelemetry). A call
// goes through the phases PhaseValidate, PhaseConfirm (when a person is
// asked), PhaseQueue (when it waits for a slot) and PhaseRun, each begun
// by Observer.Phase, and ends in one Outcome, which Observer.Called
// receives in a CallReport: OutcomeOK, OutcomeExit, OutcomeTimeout,
// OutcomeSignal, OutcomeCanceled, OutcomeInvalid, OutcomeConfirmAsked,
// OutcomeNotConfirmed, OutcomeQueueFull, OutcomeRefused or OutcomeFailed.
// Observer.Env carries the run phase's trace context into the process.
package toolset
