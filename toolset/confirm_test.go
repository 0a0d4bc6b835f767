package toolset_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/test/mcptest"
	"github.com/cobramcp/cobramcp/toolset"
)

// person answers the server's confirmation requests as a person would,
// and remembers what they were shown.
type person struct {
	mu     sync.Mutex
	answer string // accept, decline or cancel
	shown  []string
}

func (p *person) handle(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.shown = append(p.shown, req.Params.Message)
	if p.answer == "accept" {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
	}
	return &mcp.ElicitResult{Action: p.answer}, nil
}

// confirmClient connects a go-sdk client to srv at protocol version
// (""; the client's default) that answers elicitations through p (nil:
// the client does not offer elicitation); mrtr false leaves the
// input-required results to the test.
func confirmClient(t *testing.T, srv *mcp.Server, version string, p *person, mrtr bool) *mcp.ClientSession {
	t.Helper()
	opts := &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: !mrtr}}
	if p != nil {
		opts.ElicitationHandler = p.handle
	}
	var so *mcp.ClientSessionOptions
	if version != "" {
		so = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	return mcptest.ConnectClient(t, srv, mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, opts), so)
}

// TestConfirm: a call of a tool to confirm runs only when the person
// accepts, on the protocol versions before and from 2026-07-28; a
// decline, a cancel and a client without elicitation are refusals that
// say which, and nothing runs; another tool runs unasked; the person sees
// the command line with the pinned value hidden; in search mode, run asks
// before the command it would run.
func TestConfirm(t *testing.T) {
	pins := []toolset.Pin{{Flag: "kubeconfig", Value: "/secret/path", From: "--set"}}
	// The go-sdk client writes its capabilities into the params' _meta:
	// each call gets params of its own.
	type params = func() *mcp.CallToolParams
	del := func() *mcp.CallToolParams {
		return &mcp.CallToolParams{Name: "mycli_delete_pod", Arguments: map[string]any{"args": []string{"web-0"}}}
	}
	runDel := func() *mcp.CallToolParams {
		return &mcp.CallToolParams{Name: "mycli_run_command", Arguments: map[string]any{"command": "mycli_delete_pod", "args": []string{"web-0"}}}
	}
	get := func() *mcp.CallToolParams {
		return &mcp.CallToolParams{Name: "mycli_get_pods", Arguments: map[string]any{}}
	}
	runGet := func() *mcp.CallToolParams {
		return &mcp.CallToolParams{Name: "mycli_run_command", Arguments: map[string]any{"command": "mycli_get_pods"}}
	}
	const line = "mycli delete pod --kubeconfig=*** web-0"
	tests := []struct {
		name    string
		mode    toolset.ToolMode
		confirm toolset.Confirm
		version string
		answer  string // "" for a client without elicitation
		call    params
		asked   bool
		ran     bool
		says    string
	}{
		{"accept", toolset.ToolModeFull, toolset.Confirm{Destructive: true}, "", "accept", del, true, true, ""},
		{"accept 2025-11-25", toolset.ToolModeFull, toolset.Confirm{Destructive: true}, "2025-11-25", "accept", del, true, true, ""},
		{"accept 2025-06-18", toolset.ToolModeFull, toolset.Confirm{Tools: []string{"mycli_delete_*"}}, "2025-06-18", "accept", del, true, true, ""},
		{"decline", toolset.ToolModeFull, toolset.Confirm{Destructive: true}, "", "decline", del, true, false, "the person declined to run `" + line + "`. Nothing was run."},
		{"decline 2025-11-25", toolset.ToolModeFull, toolset.Confirm{Destructive: true}, "2025-11-25", "decline", del, true, false, "declined"},
		{"cancel", toolset.ToolModeFull, toolset.Confirm{Tools: []string{"mycli_delete_pod"}}, "", "cancel", del, true, false, "cancelled the confirmation of `" + line + "`"},
		{"no elicitation", toolset.ToolModeFull, toolset.Confirm{Destructive: true}, "", "", del, true, false, "this client does not offer elicitation"},
		{"no elicitation 2025-11-25", toolset.ToolModeFull, toolset.Confirm{Destructive: true}, "2025-11-25", "", del, true, false, "Nothing was run"},
		{"another tool", toolset.ToolModeFull, toolset.Confirm{Destructive: true, Tools: []string{"mycli_delete_*"}}, "", "", get, false, true, ""},
		{"search run accept", toolset.ToolModeSearch, toolset.Confirm{Destructive: true}, "", "accept", runDel, true, true, ""},
		{"search run decline", toolset.ToolModeSearch, toolset.Confirm{Tools: []string{"mycli_delete_pod"}}, "2025-11-25", "decline", runDel, true, false, "declined"},
		{"search run another", toolset.ToolModeSearch, toolset.Confirm{Destructive: true}, "", "", runGet, false, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts, argvs := recordingTree(t)
			v, err := ts.View(toolset.Listing{Mode: tt.mode}, toolset.Policy{Pins: pins})
			if err != nil {
				t.Fatal(err)
			}
			if err := v.CheckConfirm(tt.confirm); err != nil {
				t.Fatal(err)
			}
			var p *person
			if tt.answer != "" {
				p = &person{answer: tt.answer}
			}
			cs := confirmClient(t, v.NewServer(toolset.ServerOptions{Confirm: tt.confirm}), tt.version, p, true)
			res, err := cs.CallTool(context.Background(), tt.call())
			if err != nil {
				t.Fatal(err)
			}
			if ran := len(*argvs) > 0; ran != tt.ran || res.IsError == tt.ran {
				t.Errorf("ran %v (argv %q), isError %v: %q", ran, *argvs, res.IsError, resultText(res))
			}
			if !strings.Contains(resultText(res), tt.says) {
				t.Errorf("result %q, want %q", resultText(res), tt.says)
			}
			asked := tt.asked
			if p != nil && asked != (len(p.shown) == 1) || p != nil && len(p.shown) > 1 {
				t.Fatalf("the person was shown %q", p.shown)
			}
			if p != nil && asked && (!strings.Contains(p.shown[0], "\n"+line+"\n") || strings.Contains(p.shown[0], "/secret/path")) {
				t.Errorf("the person was shown %q, want %q with the pin hidden", p.shown[0], line)
			}
		})
	}
}

// TestConfirmAnswerBound: an answer counts only for the question the
// server asked: one sent unasked, one given for other args, and one used
// a second time each bring the question again, and nothing runs until the
// answer to this very call comes back.
func TestConfirmAnswerBound(t *testing.T) {
	ts, argvs := recordingTree(t)
	v, err := ts.View(toolset.Listing{})
	if err != nil {
		t.Fatal(err)
	}
	cs := confirmClient(t, v.NewServer(toolset.ServerOptions{Confirm: toolset.Confirm{Destructive: true}}), "", &person{answer: "accept"}, false)
	accept := mcp.InputResponseMap{"cobramcp.confirm": &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}}
	call := func(arg, state string, responses mcp.InputResponseMap) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "mycli_delete_pod", Arguments: map[string]any{"args": []string{arg}},
			InputResponses: responses, RequestState: state})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	ran := 0
	asks := func(what string, res *mcp.CallToolResult) string {
		t.Helper()
		if !res.NeedsInput() || len(res.InputRequests) != 1 || res.RequestState == "" || len(*argvs) != ran {
			t.Fatalf("%s: needs input %v, %v, ran %q", what, res.NeedsInput(), res.InputRequests, *argvs)
		}
		return res.RequestState
	}
	state := asks("unasked accept", call("web-0", "", accept))
	asks("accept given for other args", call("web-1", state, accept))
	forged := []byte(state)
	forged[40] ^= 1 // a character of the signature, another letter or digit
	asks("a forged state", call("web-0", string(forged), accept))
	if res := call("web-0", state, accept); res.IsError || res.NeedsInput() || len(*argvs) != 1 {
		t.Fatalf("the answer to this call: %q, ran %q", resultText(res), *argvs)
	}
	ran = 1
	asks("the same answer again", call("web-0", state, accept))
	if len(*argvs) != 1 {
		t.Errorf("ran %q", *argvs)
	}
}

// TestCheckConfirm: a pattern that matches no served tool, or is not a
// pattern, is refused.
func TestCheckConfirm(t *testing.T) {
	ts, _ := recordingTree(t)
	v, err := ts.View(toolset.Listing{Mode: toolset.ToolModeSearch})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		c    toolset.Confirm
		says string
	}{
		{toolset.Confirm{Tools: []string{"mycli_delete_*"}}, ""},
		{toolset.Confirm{Destructive: true}, ""},
		{toolset.Confirm{Tools: []string{"mycli_delete_*", "mycli_remove_*"}}, `"mycli_remove_*" matches no served tool`},
		{toolset.Confirm{Tools: []string{"mycli_run_command"}}, "matches no served tool"},
		{toolset.Confirm{Tools: []string{"[x"}}, "syntax error"},
	} {
		err := v.CheckConfirm(tt.c)
		if tt.says == "" && err != nil || tt.says != "" && (err == nil || !strings.Contains(err.Error(), tt.says)) {
			t.Errorf("%+v: %v, want %q", tt.c, err, tt.says)
		}
	}
}

// TestConfirmShowsEscapes (issue 34.8): an argument with an escape
// sequence, a carriage return, a line break and a bidirectional override
// reaches the person's prompt, and the refusal, escaped: the prompt shows
// the argv that will run, not the line the agent wanted shown.
func TestConfirmShowsEscapes(t *testing.T) {
	ts, argvs := recordingTree(t)
	v, err := ts.View(toolset.Listing{})
	if err != nil {
		t.Fatal(err)
	}
	p := &person{answer: "decline"}
	cs := confirmClient(t, v.NewServer(toolset.ServerOptions{Confirm: toolset.Confirm{Destructive: true}}), "", p, true)
	arg := "web-0\x1b[1A\x1b[2K\rmycli get pods\n\u202e0-bew"
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "mycli_delete_pod", Arguments: map[string]any{"args": []string{arg}}})
	if err != nil {
		t.Fatal(err)
	}
	const want = `mycli delete pod $'web-0\x1b[1A\x1b[2K\rmycli get pods\n\u202e0-bew'`
	if len(p.shown) != 1 || !strings.Contains(p.shown[0], "\n"+want+"\n") {
		t.Fatalf("the person was shown %q, want %q", p.shown, want)
	}
	if strings.ContainsAny(p.shown[0], "\x1b\r\u202e") || strings.Count(p.shown[0], "\n") != 4 {
		t.Errorf("the prompt holds a control character raw: %q", p.shown[0])
	}
	if !res.IsError || !strings.Contains(resultText(res), "declined to run `"+want+"`") || len(*argvs) != 0 {
		t.Errorf("the refusal: %q, ran %q", resultText(res), *argvs)
	}
}
