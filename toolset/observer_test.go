package toolset_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/toolset"
)

// recorder is an Observer that writes down what it is told.
type recorder struct {
	mu      sync.Mutex
	events  []string // "request tools/call", "begin run", "end run", "answer tools/call: error"
	reports []toolset.CallReport
	env     []string // what Env returns
	envCtx  []any    // the phase key's value in the contexts Env was given
}

type phaseKey struct{}

func (r *recorder) note(e string) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

func (r *recorder) Middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		r.note("request " + method)
		res, err := next(ctx, method, req)
		r.note(fmt.Sprintf("answer %s: error %v", method, err != nil))
		return res, err
	}
}

func (r *recorder) Phase(ctx context.Context, p toolset.Phase) (context.Context, func()) {
	r.note("begin " + p.String())
	return context.WithValue(ctx, phaseKey{}, p), func() { r.note("end " + p.String()) }
}

func (r *recorder) Env(ctx context.Context) []string {
	r.mu.Lock()
	r.envCtx = append(r.envCtx, ctx.Value(phaseKey{}))
	r.mu.Unlock()
	return r.env
}

func (r *recorder) Called(_ context.Context, c toolset.CallReport) {
	r.mu.Lock()
	r.reports = append(r.reports, c)
	r.mu.Unlock()
}

// take returns what r noted since the last take.
func (r *recorder) take() ([]string, []toolset.CallReport) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, c := r.events, r.reports
	r.events, r.reports = nil, nil
	return e, c
}

// A server's Observer sees each tool call's request, its phases in order
// and how it ended; its Env replaces the trace variables the process would
// inherit; search mode's run tool reports the command's tool, its search
// tool nothing.
func TestObserverSeesCalls(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "cli")
	body := "#!/bin/sh\ncase \"$1\" in\n" +
		"echo) echo \"parent=${TRACEPARENT-unset} state=${TRACESTATE-unset}\";;\n" +
		"version) exit 3;;\n" +
		"*) echo ok;;\nesac\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	// The server's own environment carries a trace of its own, which no
	// call's process may take for its.
	env := []string{"PATH=" + os.Getenv("PATH"), "TRACEPARENT=00-server", "TRACESTATE=server=1", "KEEP=1"}
	ts := mustTools(t, testTree(), &toolset.Config{Executable: script, Env: env})
	obs := &recorder{env: []string{"TRACEPARENT=00-call", "TRACESTATE="}}
	full := connect(t, fullView(ts).NewServer(toolset.ServerOptions{Observer: obs}))
	search, err := ts.View(toolset.Listing{Mode: toolset.ToolModeSearch})
	if err != nil {
		t.Fatal(err)
	}
	searched := connect(t, search.NewServer(toolset.ServerOptions{Observer: obs}))

	run := []string{"request tools/call", "begin validate", "end validate", "begin run", "end run", "answer tools/call: error false"}
	refused := []string{"request tools/call", "begin validate", "end validate", "answer tools/call: error false"}
	for _, tt := range []struct {
		name   string
		cs     *mcp.ClientSession
		call   *mcp.CallToolParams
		text   string // in the result
		events []string
		report *toolset.CallReport
	}{
		{"ok", full, &mcp.CallToolParams{Name: "tt_echo", Arguments: map[string]any{}},
			"parent=00-call state=unset", run, &toolset.CallReport{Tool: "tt_echo", Outcome: toolset.OutcomeOK, Ran: true}},
		{"nonzero exit", full, &mcp.CallToolParams{Name: "tt_version", Arguments: map[string]any{}},
			"exit code: 3", run, &toolset.CallReport{Tool: "tt_version", Outcome: toolset.OutcomeExit, Ran: true, ExitCode: 3}},
		{"invalid arguments", full, &mcp.CallToolParams{Name: "tt_describe", Arguments: map[string]any{}},
			"Nothing was run", refused, &toolset.CallReport{Tool: "tt_describe", Outcome: toolset.OutcomeInvalid}},
		{"unknown tool", full, &mcp.CallToolParams{Name: "tt_nope", Arguments: map[string]any{}},
			"", []string{"request tools/call", "answer tools/call: error true"}, nil},
		{"search mode's run tool", searched, &mcp.CallToolParams{Name: "tt_run_command", Arguments: map[string]any{"command": "tt_echo"}},
			"parent=00-call", run, &toolset.CallReport{Tool: "tt_echo", Outcome: toolset.OutcomeOK, Ran: true}},
		{"search mode's run tool, no such command", searched, &mcp.CallToolParams{Name: "tt_run_command", Arguments: map[string]any{"command": "tt_nope"}},
			"Nothing was run", []string{"request tools/call", "answer tools/call: error false"}, &toolset.CallReport{Outcome: toolset.OutcomeInvalid}},
		{"search mode's search tool", searched, &mcp.CallToolParams{Name: "tt_search_commands", Arguments: map[string]any{"query": "pods"}},
			"pods", []string{"request tools/call", "answer tools/call: error false"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tt.cs.CallTool(context.Background(), tt.call)
			if tt.text != "" && (err != nil || !strings.Contains(resultText(res), tt.text)) {
				t.Errorf("result %v %q, want it to hold %q", err, resultText(res), tt.text)
			}
			events, reports := obs.take()
			if !slices.Equal(events, tt.events) {
				t.Errorf("events\n%q\nwant\n%q", events, tt.events)
			}
			switch {
			case tt.report == nil && len(reports) > 0:
				t.Errorf("reports %+v, want none", reports)
			case tt.report != nil && (len(reports) != 1 || reports[0] != *tt.report):
				t.Errorf("reports %+v, want %+v", reports, *tt.report)
			}
		})
	}
	obs.mu.Lock()
	defer obs.mu.Unlock()
	for _, v := range obs.envCtx {
		if v != toolset.PhaseRun {
			t.Errorf("Env was given a context of phase %v, want the run phase's", v)
		}
	}
}

// A call that waits for a slot goes through the queue phase, and so does
// one over the queue's cap, refused as queue_full at once, having waited
// for nothing.
func TestObserverQueue(t *testing.T) {
	script, dir := holdingCLI(t)
	ts := mustTools(t, testTree(), &toolset.Config{Executable: script, MaxParallel: 1})
	obs := &recorder{}
	cs := connect(t, fullView(ts).NewServer(toolset.ServerOptions{Observer: obs, Limits: toolset.Limits{MaxQueue: 1}}))
	first, second := fillSlotAndQueue(t, cs, dir, func() bool {
		obs.mu.Lock()
		defer obs.mu.Unlock()
		return slices.Contains(obs.events, "begin queue")
	})
	if r := callNoArgs(t, cs, "tt_version"); !r.IsError {
		t.Fatalf("over the cap: %s", resultText(r))
	}
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	<-first
	<-second
	events, reports := obs.take()
	if n := strings.Count(strings.Join(events, "|"), "begin queue"); n != 2 {
		t.Errorf("%d queue phases, want 2: %q", n, events)
	}
	var outcomes []string
	for _, r := range reports {
		outcomes = append(outcomes, fmt.Sprintf("%s %s waited=%v", r.Tool, r.Outcome, r.Waited > 0))
	}
	slices.Sort(outcomes)
	want := []string{"tt_echo ok waited=false", "tt_version ok waited=true", "tt_version queue_full waited=false"}
	if !slices.Equal(outcomes, want) {
		t.Errorf("reports %q, want %q", outcomes, want)
	}
}

// A call that asks a person reports its confirm phase and how it ended:
// confirmation_asked (the request for confirmation is its result), then
// not_confirmed when the person declines, ok when they accept; a call a
// Middleware answers itself ends by that answer.
func TestObserverConfirm(t *testing.T) {
	ts, _ := recordingTree(t)
	v := fullView(ts)
	obs := &recorder{}
	srv := v.NewServer(toolset.ServerOptions{Observer: obs, Confirm: toolset.Confirm{Tools: []string{"mycli_delete_pod"}}})
	del := func() *mcp.CallToolParams {
		return &mcp.CallToolParams{Name: "mycli_delete_pod", Arguments: map[string]any{"args": []string{"web-0"}}}
	}
	outcomes := func() []string {
		events, reports := obs.take()
		var out []string
		for _, r := range reports {
			out = append(out, string(r.Outcome))
		}
		if !slices.Contains(events, "begin confirm") {
			t.Errorf("no confirm phase: %q", events)
		}
		return out
	}
	// A client that leaves the input requests to its caller.
	asked := confirmClient(t, srv, "", &person{answer: "accept"}, false)
	if res, err := asked.CallTool(context.Background(), del()); err != nil || len(res.InputRequests) == 0 {
		t.Fatalf("%v %+v", err, res)
	}
	if got := outcomes(); !slices.Equal(got, []string{"confirmation_asked"}) {
		t.Errorf("asked: %q", got)
	}
	for _, tt := range []struct{ answer, want string }{{"decline", "not_confirmed"}, {"accept", "ok"}} {
		cs := confirmClient(t, srv, "", &person{answer: tt.answer}, true)
		if _, err := cs.CallTool(context.Background(), del()); err != nil {
			t.Fatal(err)
		}
		if got := outcomes(); len(got) == 0 || got[len(got)-1] != tt.want {
			t.Errorf("%s: %q, want it to end %s", tt.answer, got, tt.want)
		}
	}
}
