package mcpcmd_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/mcpcmd"
)

// fakeToolset is a mcpcmd.Toolset whose calls return what result says, and
// which records the arguments of every call.
type fakeToolset struct {
	tools  []*mcp.Tool
	info   toolset.Info
	result func(name string, args json.RawMessage) *mcp.CallToolResult

	mu    sync.Mutex
	calls []fakeCall
	waits int
}

type fakeCall struct {
	Name string
	Args string
}

func (f *fakeToolset) Tools() []*mcp.Tool { return f.tools }
func (f *fakeToolset) Info() toolset.Info     { return f.info }
func (f *fakeToolset) NewServer(toolset.ServerOptions) (*mcp.Server, error) {
	return nil, errors.New("fakeToolset does not serve")
}

func (f *fakeToolset) Wait() {
	f.mu.Lock()
	f.waits++
	f.mu.Unlock()
}

func (f *fakeToolset) Call(_ context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error) {
	f.mu.Lock()
	f.calls = append(f.calls, fakeCall{name, string(args)})
	f.mu.Unlock()
	for _, t := range f.tools {
		if t.Name == name {
			if f.result == nil {
				return ranResult("ran "+name+"\n", "", 0), nil
			}
			return f.result(name, args), nil
		}
	}
	return nil, fmt.Errorf("unknown tool %q", name)
}

// lastCall returns the arguments of the last call.
func (f *fakeToolset) lastCall(t *testing.T) fakeCall {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.calls) == 0 {
		t.Fatal("no call was made")
	}
	return f.calls[len(f.calls)-1]
}

// fakeOutput is the structured content bridge returns.
type fakeOutput struct {
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	ExitCode int    `json:"exitCode"`
	TimedOut bool   `json:"timedOut,omitempty"`
}

// ranResult is a result shaped like bridge's for a command that ran.
func ranResult(stdout, stderr string, code int) *mcp.CallToolResult {
	text := stdout + stderr
	if code != 0 {
		text += fmt.Sprintf("exit code: %d", code)
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: fakeOutput{Stdout: stdout, Stderr: stderr, ExitCode: code},
		IsError:           code != 0,
	}
}

// timedOutResult is a result shaped like bridge's for a command that its
// timeout ended.
func timedOutResult(after string) *mcp.CallToolResult {
	stderr := "cobramcp: the command timed out after " + after + " and its process group was ended\n"
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: stderr + "timed out after " + after + " (exit code -1)"}},
		StructuredContent: fakeOutput{Stderr: stderr, ExitCode: -1, TimedOut: true},
		IsError:           true,
	}
}

// refusedResult is a result shaped like bridge's for refused input.
func refusedResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: msg}}, IsError: true}
}

// fakeTools is a small tool set: a tool with flags and positional args, a
// tool whose name the canonical dialect renames, one with a map flag that
// OpenAI strict mode cannot carry, and one with a flag named "args".
func fakeTools() []*mcp.Tool {
	obj := func(props map[string]any, extra map[string]any) map[string]any {
		m := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	return []*mcp.Tool{
		{Name: "fake_get", Description: "Get things.", InputSchema: obj(map[string]any{
			"flags": obj(map[string]any{
				"output": map[string]any{"type": "string", "enum": []any{"table", "json"}},
				"limit":  map[string]any{"type": "integer"},
			}, nil),
			"args": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
		}, nil)},
		{Name: "fake_set-x", Description: "Set x.", InputSchema: obj(map[string]any{
			"flags": obj(map[string]any{"x": map[string]any{"type": "number"}}, nil),
		}, nil)},
		{Name: "fake_label", Description: "Label things.", InputSchema: obj(map[string]any{
			"flags": obj(map[string]any{
				"labels": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}},
			}, nil),
		}, nil)},
		{Name: "fake_argsflag", Description: "Has a flag named args.", InputSchema: obj(map[string]any{
			"flags": obj(map[string]any{"args": map[string]any{"type": "string"}}, nil),
		}, nil)},
	}
}

func newFake() *fakeToolset {
	return &fakeToolset{
		tools: fakeTools(),
		info:  toolset.Info{Name: "fakecli", Version: "0.3.1", Short: "A fake CLI.", Long: "A fake CLI for cmd's tests."},
	}
}

// runResult is what one run of the command tree gave.
type runResult struct {
	stdout, stderr string
	err            error
}

// runMCP runs `fakecli mcp ARGS...` with ts as the tool set and stdin as
// its input.
func runMCP(ts mcpcmd.Toolset, stdin string, args ...string) runResult {
	root := &cobra.Command{Use: "fakecli", SilenceUsage: true, SilenceErrors: true}
	root.AddCommand(mcpcmd.New(mcpcmd.Options{Load: func(*cobra.Command) (mcpcmd.Toolset, error) { return ts, nil }}))
	var out, errb bytes.Buffer
	root.SetIn(strings.NewReader(stdin))
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(append([]string{"mcp"}, args...))
	err := root.Execute()
	return runResult{out.String(), errb.String(), err}
}

func TestCallArgumentForms(t *testing.T) {
	tests := []struct {
		name  string
		tool  string
		input string
		want  string // the arguments the toolset receives, as compact JSON
	}{
		{"empty is {}", "fake_get", "", `{}`},
		{"blank is {}", "fake_get", " \n", `{}`},
		{"object passed on", "fake_get", `{"flags":{"output":"json"},"args":["a"]}`, `{"flags":{"output":"json"},"args":["a"]}`},
		{"list of flags", "fake_get", `[{"name":"output","value":"json"},{"name":"limit","value":3}]`, `{"flags":{"limit":3,"output":"json"}}`},
		{"list with args", "fake_get", `[{"name":"args","value":["a","b"]},{"name":"output","value":"json"}]`, `{"args":["a","b"],"flags":{"output":"json"}}`},
		{"list with argsAfterDash", "fake_get", `[{"name":"args","value":["web-0"]},{"name":"argsAfterDash","value":["ls","-l"]}]`, `{"args":["web-0"],"argsAfterDash":["ls","-l"]}`},
		{"list item without value is null", "fake_get", `[{"name":"limit"}]`, `{"flags":{"limit":null}}`},
		{"empty list", "fake_get", `[]`, `{}`},
		{"numbers kept exactly", "fake_set-x", `[{"name":"x","value":1.50000000000000000001}]`, `{"flags":{"x":1.50000000000000000001}}`},
		{"args is the flag when the tool takes no positional args", "fake_argsflag", `[{"name":"args","value":"v"}]`, `{"flags":{"args":"v"}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts := newFake()
			var r runResult
			if strings.TrimSpace(tc.input) == "" {
				r = runMCP(ts, tc.input, "call", tc.tool) // read from stdin
			} else {
				r = runMCP(ts, "", "call", tc.tool, tc.input)
			}
			if r.err != nil {
				t.Fatalf("call: %v\nstderr: %s", r.err, r.stderr)
			}
			got := ts.lastCall(t)
			if got.Name != tc.tool {
				t.Errorf("called %q, want %q", got.Name, tc.tool)
			}
			if compact(t, got.Args) != tc.want {
				t.Errorf("arguments = %s, want %s", got.Args, tc.want)
			}
			if ts.waits == 0 {
				t.Error("Wait was not called after the call")
			}
		})
	}
}

func TestCallBadList(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"duplicate flag", `[{"name":"limit","value":1},{"name":"limit","value":2}]`, `"limit" appears twice`},
		{"duplicate args", `[{"name":"args","value":[]},{"name":"args","value":[]}]`, `"args" appears twice`},
		{"duplicate argsAfterDash", `[{"name":"argsAfterDash","value":[]},{"name":"argsAfterDash","value":["x"]}]`, `"argsAfterDash" appears twice`},
		{"no name", `[{"value":1}]`, `item 0 of the arguments list has no "name"`},
		{"empty name", `[{"name":"","value":1}]`, `item 0 of the arguments list has no "name"`},
		{"unknown field", `[{"name":"limit","valeu":1}]`, `unknown field "valeu"`},
		{"not a list of objects", `["limit"]`, `the arguments list must be`},
		{"text after the list", `[] []`, `text after the list`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts := newFake()
			r := runMCP(ts, "", "call", "fake_get", tc.input)
			if r.err == nil {
				t.Fatal("a bad arguments list did not fail")
			}
			if len(ts.calls) != 0 {
				t.Errorf("the toolset was called with %v", ts.calls)
			}
			var res mcp.CallToolResult
			if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
				t.Fatalf("stdout is not a CallToolResult: %v\n%s", err, r.stdout)
			}
			if !res.IsError {
				t.Error("isError is not set")
			}
			text := res.Content[0].(*mcp.TextContent).Text
			if !strings.Contains(text, tc.want) || !strings.Contains(text, "Nothing was run") {
				t.Errorf("message %q does not contain %q and says nothing was run", text, tc.want)
			}
		})
	}
}

func TestCallObjectAndListGiveTheSameResult(t *testing.T) {
	ts := newFake()
	ts.result = func(name string, args json.RawMessage) *mcp.CallToolResult {
		return ranResult("args were "+compactRaw(args)+"\n", "", 0)
	}
	obj := runMCP(ts, "", "call", "fake_get", `{"flags":{"output":"json","limit":2},"args":["x"]}`)
	list := runMCP(ts, `[{"name":"output","value":"json"},{"name":"limit","value":2},{"name":"args","value":["x"]}]`, "call", "fake_get")
	dash := runMCP(ts, `[{"name":"output","value":"json"},{"name":"limit","value":2},{"name":"args","value":["x"]}]`, "call", "fake_get", "-")
	for _, r := range []runResult{obj, list, dash} {
		if r.err != nil {
			t.Fatalf("call: %v", r.err)
		}
	}
	if obj.stdout != list.stdout || obj.stdout != dash.stdout {
		t.Errorf("object form:\n%s\nlist form (stdin):\n%s\nlist form (-):\n%s", obj.stdout, list.stdout, dash.stdout)
	}
}

func TestCallMCPResult(t *testing.T) {
	tests := []struct {
		name    string
		result  *mcp.CallToolResult
		wantErr string
	}{
		{"ran", ranResult("hello\n", "", 0), ""},
		{"failed", ranResult("", "boom\n", 3), "the command exited with code 3"},
		{"timed out", timedOutResult("1s"), "the command timed out after 1s"},
		{"refused", refusedResult("fake_get: invalid arguments: nope. Nothing was run."), "fake_get: the call failed: invalid arguments: nope. Nothing was run."}, // the name once
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts := newFake()
			ts.result = func(string, json.RawMessage) *mcp.CallToolResult { return tc.result }
			r := runMCP(ts, "{}", "call", "fake_get")
			if tc.wantErr == "" && r.err != nil {
				t.Fatalf("call: %v", r.err)
			}
			if tc.wantErr != "" && (r.err == nil || !strings.Contains(r.err.Error(), tc.wantErr)) {
				t.Fatalf("error = %v, want one containing %q", r.err, tc.wantErr)
			}
			want, err := mcpcmd.MarshalJSON(tc.result)
			if err != nil {
				t.Fatal(err)
			}
			if r.stdout != string(want) {
				t.Errorf("stdout:\n%s\nwant the CallToolResult:\n%s", r.stdout, want)
			}
		})
	}
}

func TestCallUnknownTool(t *testing.T) {
	r := runMCP(newFake(), "{}", "call", "fake_nope")
	if r.err == nil || !strings.Contains(r.err.Error(), `unknown tool "fake_nope"`) {
		t.Errorf("error = %v, want unknown tool", r.err)
	}
	if r.stdout != "" {
		t.Errorf("stdout = %q, want nothing", r.stdout)
	}
}

func TestCallBadFormat(t *testing.T) {
	ts := newFake()
	r := runMCP(ts, "{}", "call", "fake_get", "--format", "xml")
	if r.err == nil || !strings.Contains(r.err.Error(), "want mcp or toolvault") {
		t.Errorf("error = %v, want a --format error", r.err)
	}
	if len(ts.calls) != 0 {
		t.Error("the call ran despite a bad --format")
	}
}

// png is the start of a PNG file.
var png = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

func TestCallToolVault(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString(png)
	imageResult := func(stderr string) *mcp.CallToolResult {
		r := &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.ImageContent{Data: png, MIMEType: "image/png"}},
			StructuredContent: fakeOutput{Stdout: string(png), Stderr: stderr},
		}
		if stderr != "" {
			r.Content = append(r.Content, &mcp.TextContent{Text: stderr})
		}
		return r
	}
	tests := []struct {
		name   string
		result *mcp.CallToolResult
		want   string
	}{
		{"text", ranResult("mycli version 1.4.2\n", "", 0),
			`{"result":{"command":"showText","payload":"mycli version 1.4.2\n"},"isError":false}`},
		{"empty output", ranResult("", "", 0),
			`{"result":{"command":"showText","payload":""},"isError":false}`},
		{"json object", ranResult("{\"kind\": \"PodList\", \"items\": []}\n", "", 0),
			`{"result":{"command":"showData","payload":{"kind":"PodList","items":[]}},"isError":false}`},
		{"json array", ranResult(" [1, 2.50] ", "", 0),
			`{"result":{"command":"showData","payload":[1,2.50]},"isError":false}`},
		{"a JSON scalar is text", ranResult("42\n", "", 0),
			`{"result":{"command":"showText","payload":"42\n"},"isError":false}`},
		{"broken json is text", ranResult("{\"a\": \n", "", 0),
			`{"result":{"command":"showText","payload":"{\"a\": \n"},"isError":false}`},
		{"image", imageResult(""),
			`{"result":{"command":"showImage","payload":{"mediaType":"image/png","data":"` + b64 + `"}},"isError":false}`},
		{"image and stderr", imageResult("rendered\n"),
			`{"result":{"command":"composite","payload":[{"command":"showImage","payload":{"mediaType":"image/png","data":"` + b64 + `"}},{"command":"logMessage","payload":"rendered\n"}]},"isError":false}`},
		{"data and stderr", ranResult("[]", "warning: old\n", 0),
			`{"result":{"command":"composite","payload":[{"command":"showData","payload":[]},{"command":"logMessage","payload":"warning: old\n"}]},"isError":false}`},
		{"stderr only", ranResult("", "note\n", 0),
			`{"result":{"command":"logMessage","payload":"note\n"},"isError":false}`},
		{"failed command", ranResult("", "boom\n", 2),
			`{"result":{"command":"showText","payload":"boom\nexit code: 2"},"isError":true}`},
		{"refused input", refusedResult("fake_get: bad. Nothing was run."),
			`{"result":{"command":"showText","payload":"fake_get: bad. Nothing was run."},"isError":true}`},
		{"content only: image and text", &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.ImageContent{Data: png, MIMEType: "image/png"},
			&mcp.TextContent{Text: "a chart"},
			&mcp.TextContent{Text: `{"n": 1}`},
		}}, `{"result":{"command":"composite","payload":[` +
			`{"command":"showImage","payload":{"mediaType":"image/png","data":"` + b64 + `"}},` +
			`{"command":"showText","payload":"a chart"},` +
			`{"command":"showData","payload":{"n":1}}]},"isError":false}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts := newFake()
			ts.result = func(string, json.RawMessage) *mcp.CallToolResult { return tc.result }
			r := runMCP(ts, "{}", "call", "fake_get", "--format", "toolvault")
			if (r.err != nil) != tc.result.IsError {
				t.Errorf("error = %v, want an error: %v", r.err, tc.result.IsError)
			}
			if got := compact(t, r.stdout); got != tc.want {
				t.Errorf("stdout:\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// compact returns the JSON text s without insignificant space.
func compact(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
	return b.String()
}

func compactRaw(raw json.RawMessage) string {
	// Keys sorted, so that the object and the list forms compare equal.
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "invalid: " + err.Error()
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func TestCallResultRoundTrips(t *testing.T) {
	// The printed result is the MCP wire form: a client's decoder reads it
	// back to the same result.
	ts := newFake()
	want := ranResult("a\n", "b\n", 1)
	ts.result = func(string, json.RawMessage) *mcp.CallToolResult { return want }
	r := runMCP(ts, "", "call", "fake_get")
	var got mcp.CallToolResult
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	if !got.IsError || got.Content[0].(*mcp.TextContent).Text != want.Content[0].(*mcp.TextContent).Text {
		t.Errorf("decoded %+v, want %+v", got, want)
	}
	var out fakeOutput
	b, _ := json.Marshal(got.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || !reflect.DeepEqual(out, want.StructuredContent) {
		t.Errorf("structured content %s, want %+v", b, want.StructuredContent)
	}
}

// The toolvault response of a call whose command printed JSON: showData.
func ExampleNew_callToolVault() {
	ts := newFake()
	ts.result = func(string, json.RawMessage) *mcp.CallToolResult {
		return ranResult(`{"kind": "PodList", "items": []}`+"\n", "", 0)
	}
	root := &cobra.Command{Use: "fakecli"}
	root.AddCommand(mcpcmd.New(mcpcmd.Options{Load: func(*cobra.Command) (mcpcmd.Toolset, error) { return ts, nil }}))
	root.SetOut(os.Stdout)
	root.SetArgs([]string{"mcp", "call", "fake_get", `[{"name": "output", "value": "json"}]`, "--format", "toolvault"})
	if err := root.Execute(); err != nil {
		fmt.Println(err)
	}
	fmt.Println("arguments:", ts.lastCallArgs())
	// Output:
	// {
	//   "result": {
	//     "command": "showData",
	//     "payload": {
	//       "kind": "PodList",
	//       "items": []
	//     }
	//   },
	//   "isError": false
	// }
	// arguments: {"flags":{"output":"json"}}
}

// lastCallArgs returns the arguments of the last call.
func (f *fakeToolset) lastCallArgs() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.calls) == 0 {
		return "(no call)"
	}
	return f.calls[len(f.calls)-1].Args
}

func TestCallStdinCharDevice(t *testing.T) {
	// A character device (a terminal, here /dev/zero, which never ends)
	// is not read: the call gets {} instead of waiting for input.
	f, err := os.Open("/dev/zero")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, args := range [][]string{{"call", "fake_get"}, {"call", "fake_get", "-"}, {"tool", "fake_get"}} {
		ts := newFake()
		root := &cobra.Command{Use: "fakecli", SilenceErrors: true}
		root.AddCommand(mcpcmd.New(mcpcmd.Options{Load: func(*cobra.Command) (mcpcmd.Toolset, error) { return ts, nil }}))
		root.SetIn(f)
		root.SetOut(io.Discard)
		root.SetArgs(append([]string{"mcp"}, args...))
		if err := root.Execute(); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if got := ts.lastCall(t).Args; got != "{}" {
			t.Errorf("%v: arguments %s, want {}", args, got)
		}
	}
}

func (f *fakeToolset) WithPolicy(p toolset.Policy) (mcpcmd.Toolset, error) { return noPolicy(f, p) }

// noPolicy is WithPolicy for the fakes, which serve only without a policy
// (any tool mode is taken as full; their listing has one form, so
// Expanded changes nothing).
func noPolicy(ts mcpcmd.Toolset, p toolset.Policy) (mcpcmd.Toolset, error) {
	p.ToolMode = ""
	p.Expanded = false
	if !p.IsZero() {
		return nil, fmt.Errorf("this fake toolset takes no policy, got %+v", p)
	}
	return ts, nil
}

// TestCallAndToolArgCounts: mcp call and mcp tool without a NAME, or with
// words in excess (JSON left unquoted, split by the shell), say what is
// wrong instead of cobra's counts; a refusal's message names the tool once.
func TestCallAndToolArgCounts(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"call"}, "missing the tool NAME (usage: fakecli mcp call NAME [ARGS|-]"},
		{[]string{"call"}, "`fakecli mcp tools -o -` lists the tools"},
		{[]string{"call", "fake_get", "{\"flags\":", "{}}"}, "3 arguments after fakecli mcp call, want NAME and at most one ARGS: quote the JSON"},
		{[]string{"tool"}, "missing the tool NAME (usage: fakecli mcp tool NAME"},
		{[]string{"tool", "fake_get", "{}"}, "want only the tool NAME: the arguments are read as JSON on stdin"},
	}
	for _, tt := range tests {
		ts := newFake()
		r := runMCP(ts, "{}", tt.args...)
		if r.err == nil || !strings.Contains(r.err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q", tt.args, r.err, tt.want)
		}
		if len(ts.calls) != 0 || r.stdout != "" {
			t.Errorf("%q: ran %d calls, printed %q", tt.args, len(ts.calls), r.stdout)
		}
	}
	r := runMCP(newFake(), "", "call", "fake_get", `[{"value":1}]`)
	if r.err == nil || strings.Count(r.err.Error(), "fake_get") != 1 {
		t.Errorf("a refused call: error %v, want the tool named once", r.err)
	}
}

// TestMistypedCommandsAndFlags: a mistyped sub-command of the mcp group
// or of a client gets cobra's suggestions (which cobra gives only at the
// root), and a flag of mcp start given to enable before "--" says where it
// goes.
func TestMistypedCommandsAndFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"strat"}, `unknown command "strat" for "fakecli mcp"; did you mean start or stream?`},
		{[]string{"xyz"}, `unknown command "xyz" for "fakecli mcp"`},
		{[]string{"claude", "enabel"}, `unknown command "enabel" for "fakecli mcp claude"; did you mean enable?`},
		{[]string{"claude", "enable", "--read-only", "--dry-run"}, "unknown flag: --read-only: --read-only is a flag of fakecli mcp start, which the entry runs: give it after --, as in fakecli mcp claude enable -- --read-only"},
		{[]string{"claude", "enable", "--tools=a*", "--dry-run"}, "--tools is a flag of fakecli mcp start"},
		{[]string{"start", "--tools", "fake_get", "fake_list"}, `unexpected argument "fake_list": fakecli mcp start takes flags only (a list flag takes its values separated by commas`},
		{[]string{"tools", "-o", "-", "x"}, `unexpected argument "x": fakecli mcp tools takes flags only`},
	}
	for _, tt := range tests {
		r := runMCP(newFake(), "", tt.args...)
		if r.err == nil || !strings.Contains(r.err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q", tt.args, r.err, tt.want)
		}
	}
	if r := runMCP(newFake(), "", "claude", "enable", "--bogus"); r.err == nil || r.err.Error() != "unknown flag: --bogus" {
		t.Errorf("an unknown flag of nothing: %v", r.err)
	}
}
