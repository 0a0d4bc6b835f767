package bridge_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/toolset"
)

func TestCallArgumentForms(t *testing.T) {
	tests := []struct {
		name  string
		tool  string
		input string
		want  string // what reaches the run (the flags, args and argsAfterDash given), as JSON
	}{
		{"empty is {}", "fake_get", "", `{}`},
		{"blank is {}", "fake_get", " \n", `{}`},
		{"object passed on", "fake_get", `{"flags":{"output":"json"},"args":["a"]}`, `{"flags":{"output":"json"},"args":["a"]}`},
		{"list of flags", "fake_get", `[{"name":"output","value":"json"},{"name":"limit","value":3}]`, `{"flags":{"limit":3,"output":"json"}}`},
		{"list with args", "fake_get", `[{"name":"args","value":["a","b"]},{"name":"output","value":"json"}]`, `{"args":["a","b"],"flags":{"output":"json"}}`},
		{"list with argsAfterDash", "fake_get", `[{"name":"args","value":["web-0"]},{"name":"argsAfterDash","value":["ls","-l"]}]`, `{"args":["web-0"],"argsAfterDash":["ls","-l"]}`},
		// null means "not set": the toolset drops it before the run (that
		// the item became a flag is checked below).
		{"list item without value is null", "fake_get", `[{"name":"limit"}]`, `{}`},
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
			if got.Args != canonJSON(t, tc.want) {
				t.Errorf("arguments = %s, want %s", got.Args, tc.want)
			}
		})
	}
	// An item without a value is the flag set to null: a flag the tool
	// does not have is refused by name, as {"flags": {"nosuch": null}} is.
	ts := newFake()
	r := runMCP(ts, "", "call", "fake_get", `[{"name":"nosuch"}]`)
	if r.err == nil || !strings.Contains(r.stdout, `unknown flag \"nosuch\"`) || ts.ncalls() != 0 {
		t.Errorf("an item without a value naming no flag: error %v, %d calls, stdout %s", r.err, ts.ncalls(), r.stdout)
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
			if n := ts.ncalls(); n != 0 {
				t.Errorf("the toolset ran %d calls", n)
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
	ts.result = func(c *toolset.Call) *toolset.Result {
		return &toolset.Result{Stdout: "args were " + renderCall(c).Args + "\n"}
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
		input   string
		result  toolset.Result // what the run returns
		wantErr string
	}{
		{"ran", "{}", toolset.Result{Stdout: "hello\n"}, ""},
		{"failed", "{}", toolset.Result{Stderr: "boom\n", ExitCode: 3}, "the command exited with code 3"},
		{"timed out", "{}", toolset.Result{ExitCode: -1, TimedOut: true}, "the command timed out after 1s"},
		// Refused by the toolset; the message names the tool once.
		{"refused", `{"flags":{"limit":"many"}}`, toolset.Result{}, "fake_get: the call failed: invalid arguments: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts := newFake()
			ts.timeout = time.Second
			ts.answer(tc.result)
			r := runMCP(ts, tc.input, "call", "fake_get")
			if tc.wantErr == "" && r.err != nil {
				t.Fatalf("call: %v", r.err)
			}
			if tc.wantErr != "" && (r.err == nil || !strings.Contains(r.err.Error(), tc.wantErr)) {
				t.Fatalf("error = %v, want one containing %q", r.err, tc.wantErr)
			}
			if r.err != nil && strings.Count(r.err.Error(), "fake_get") != 1 {
				t.Errorf("error %q names the tool more than once", r.err)
			}
			// What the toolset's own Call returns for the same call.
			res, err := ts.view(t, toolset.Listing{Mode: toolset.ToolModeFull}).Call(context.Background(), "fake_get", json.RawMessage(tc.input))
			if err != nil {
				t.Fatal(err)
			}
			want, err := exportJSON(res)
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
	if ts.ncalls() != 0 {
		t.Error("the call ran despite a bad --format")
	}
}

// png is the start of a PNG file.
var png = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

func TestCallToolVault(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString(png)
	ran := func(stdout, stderr string, code int) toolset.Result {
		return toolset.Result{Stdout: stdout, Stderr: stderr, ExitCode: code}
	}
	tests := []struct {
		name   string
		input  string
		result toolset.Result // what the run returns
		want   string
	}{
		{"text", "{}", ran("mycli version 1.4.2\n", "", 0),
			`{"result":{"command":"showText","payload":"mycli version 1.4.2\n"},"isError":false}`},
		{"empty output", "{}", ran("", "", 0),
			`{"result":{"command":"showText","payload":""},"isError":false}`},
		{"json object", "{}", ran("{\"kind\": \"PodList\", \"items\": []}\n", "", 0),
			`{"result":{"command":"showData","payload":{"kind":"PodList","items":[]}},"isError":false}`},
		{"json array", "{}", ran(" [1, 2.50] ", "", 0),
			`{"result":{"command":"showData","payload":[1,2.50]},"isError":false}`},
		{"a JSON scalar is text", "{}", ran("42\n", "", 0),
			`{"result":{"command":"showText","payload":"42\n"},"isError":false}`},
		{"broken json is text", "{}", ran("{\"a\": \n", "", 0),
			`{"result":{"command":"showText","payload":"{\"a\": \n"},"isError":false}`},
		{"image", "{}", ran(string(png), "", 0),
			`{"result":{"command":"showImage","payload":{"mediaType":"image/png","data":"` + b64 + `"}},"isError":false}`},
		{"image and stderr", "{}", ran(string(png), "rendered\n", 0),
			`{"result":{"command":"composite","payload":[{"command":"showImage","payload":{"mediaType":"image/png","data":"` + b64 + `"}},{"command":"logMessage","payload":"rendered\n"}]},"isError":false}`},
		{"data and stderr", "{}", ran("[]", "warning: old\n", 0),
			`{"result":{"command":"composite","payload":[{"command":"showData","payload":[]},{"command":"logMessage","payload":"warning: old\n"}]},"isError":false}`},
		{"stderr only", "{}", ran("", "note\n", 0),
			`{"result":{"command":"logMessage","payload":"note\n"},"isError":false}`},
		{"failed command", "{}", ran("", "boom\n", 2),
			`{"result":{"command":"showText","payload":"boom\nexit code: 2"},"isError":true}`},
		{"refused input", `{"flags":{"limit":"many"}}`, toolset.Result{},
			`{"result":{"command":"showText","payload":"fake_get: invalid arguments: flags.limit: \"many\" is a string, want integer. Nothing was run."},"isError":true}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts := newFake()
			ts.answer(tc.result)
			r := runMCP(ts, tc.input, "call", "fake_get", "--format", "toolvault")
			wantErr := strings.Contains(tc.want, `"isError":true`)
			if (r.err != nil) != wantErr {
				t.Errorf("error = %v, want an error: %v", r.err, wantErr)
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

func TestCallResultRoundTrips(t *testing.T) {
	// The printed result is the MCP wire form: a client's decoder reads it
	// back to the same result.
	ts := newFake()
	ts.answer(toolset.Result{Stdout: "a\n", Stderr: "b\n", ExitCode: 1})
	r := runMCP(ts, "", "call", "fake_get")
	var got mcp.CallToolResult
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	const wantText = "a\n--- stderr ---\nb\nexit code: 1" // the toolset's text of such a result
	if !got.IsError || got.Content[0].(*mcp.TextContent).Text != wantText {
		t.Errorf("decoded %+v, want isError and the text %q", got, wantText)
	}
	want := toolset.Output{Stdout: "a\n", Stderr: "b\n", ExitCode: 1}
	var out toolset.Output
	b, _ := json.Marshal(got.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || !reflect.DeepEqual(out, want) {
		t.Errorf("structured content %s, want %+v", b, want)
	}
}

// The toolvault response of a call whose command printed JSON: showData.
func ExampleNew_callToolVault() {
	ts := newFake()
	ts.answer(toolset.Result{Stdout: `{"kind": "PodList", "items": []}` + "\n"})
	root := &cobra.Command{Use: "fakecli"}
	root.AddCommand(bridge.New(bridge.Options{Tree: ts.source}))
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
		root.AddCommand(bridge.New(bridge.Options{Tree: ts.source}))
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
		if ts.ncalls() != 0 || r.stdout != "" {
			t.Errorf("%q: ran %d calls, printed %q", tt.args, ts.ncalls(), r.stdout)
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
