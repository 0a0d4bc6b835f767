package bridge_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/cobramcp/cobramcp/internal/dialect"
	"github.com/cobramcp/cobramcp/toolset"
)

func TestToolSchema(t *testing.T) {
	ts := newFake()
	// mcp tool --schema prints the expanded definition, as the exports do.
	tools := ts.view(t, toolset.Listing{Mode: toolset.ToolModeFull, Expanded: true}).Tools()
	doc, warns, err := dialect.Export(dialect.Canonical, tools, dialect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var entries []struct {
		Name string `json:"name"`
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(doc, &entries); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(doc, &raws); err != nil {
		t.Fatal(err)
	}
	sorted := []string{"fake_argsflag", "fake_get", "fake_label", "fake_set-x"}
	for i, name := range sorted {
		t.Run(name, func(t *testing.T) {
			r := runMCP(ts, "", "tool", name, "--schema")
			if r.err != nil {
				t.Fatalf("--schema: %v", r.err)
			}
			if got, want := compact(t, r.stdout), compact(t, string(raws[i])); got != want {
				t.Errorf("--schema printed\n%s\nwant the canonical entry\n%s", got, want)
			}
			var s struct {
				Name       string         `json:"name"`
				Parameters map[string]any `json:"parameters"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
				t.Fatal(err)
			}
			if s.Name != entries[i].Name || s.Parameters["type"] != "object" {
				t.Errorf("name %q, parameters.type %v; want %q, object", s.Name, s.Parameters["type"], entries[i].Name)
			}
			// The warnings about this tool, and only those, are on stderr.
			var want []string
			for _, w := range warns {
				if w.Tool == name {
					want = append(want, w.String())
				}
			}
			if got := lines(r.stderr); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("stderr:\n%s\nwant\n%s", r.stderr, strings.Join(want, "\n"))
			}
			if ts.ncalls() != 0 {
				t.Error("--schema ran a call")
			}
		})
	}
	// fake_set-x is renamed by the canonical rule, and says so.
	r := runMCP(ts, "", "tool", "fake_set-x", "--schema")
	if !strings.Contains(r.stdout, `"name": "fake_set_x"`) || !strings.Contains(r.stderr, "fake_set-x: /name: canonical: renamed") {
		t.Errorf("the rename is not shown: stdout %s stderr %s", r.stdout, r.stderr)
	}
}

func TestToolSchemaUnknown(t *testing.T) {
	r := runMCP(newFake(), "", "tool", "fake_nope", "--schema")
	if r.err == nil || !strings.Contains(r.err.Error(), `unknown tool "fake_nope"`) {
		t.Errorf("error = %v, want unknown tool", r.err)
	}
	if r.stdout != "" {
		t.Errorf("stdout = %q, want nothing", r.stdout)
	}
}

// toolOut is what `mcp tool` prints.
type toolOut struct {
	Stdout   *string `json:"stdout"`
	Stderr   *string `json:"stderr"`
	ExitCode *int    `json:"exitCode"`
	Image    *struct {
		MediaType string `json:"mediaType"`
		Data      string `json:"data"`
	} `json:"image"`
	Error *string `json:"error"`
}

func TestToolRun(t *testing.T) {
	tests := []struct {
		name      string
		tool      string
		stdin     string
		result    toolset.Result // what the run returns
		wantArgs  string         // what reaches the run, as JSON; "" when nothing runs
		wantOut   string         // compact JSON printed
		wantError string         // "" for success
	}{
		{
			name: "empty stdin", tool: "fake_get", stdin: "",
			result:   toolset.Result{Stdout: "ok\n"},
			wantArgs: `{}`, wantOut: `{"stdout":"ok\n","stderr":"","exitCode":0}`,
		},
		{
			name: "object", tool: "fake_get", stdin: `{"flags":{"output":"json"}}`,
			result:   toolset.Result{Stdout: "{}\n", Stderr: "note\n"},
			wantArgs: `{"flags":{"output":"json"}}`, wantOut: `{"stdout":"{}\n","stderr":"note\n","exitCode":0}`,
		},
		{
			name: "list", tool: "fake_get", stdin: `[{"name":"output","value":"json"}]`,
			result:   toolset.Result{Stdout: "{}\n"},
			wantArgs: `{"flags":{"output":"json"}}`, wantOut: `{"stdout":"{}\n","stderr":"","exitCode":0}`,
		},
		{
			name: "command failed", tool: "fake_get", stdin: `{}`,
			result:   toolset.Result{Stderr: "not found\n", ExitCode: 4},
			wantArgs: `{}`, wantOut: `{"stdout":"","stderr":"not found\n","exitCode":4}`,
			wantError: "fake_get: the call failed: the command exited with code 4",
		},
		{
			name: "timed out", tool: "fake_get", stdin: `{}`,
			result:   toolset.Result{ExitCode: -1, TimedOut: true},
			wantArgs: `{}`, wantOut: `{"stdout":"","stderr":"cobramcp: the command timed out after 2s and its process group was ended\n","exitCode":-1,"timedOut":true}`,
			wantError: "fake_get: the call failed: the command timed out after 2s and its process group was ended",
		},
		{
			// Refused by the toolset: nothing reaches the run.
			name: "input refused", tool: "fake_get", stdin: `{"flags":{"nope":1}}`,
			wantOut:   `{"error":"fake_get: unknown flag \"nope\"; this tool's flags are: limit, output. Nothing was run."}`,
			wantError: `fake_get: unknown flag "nope"`,
		},
		{
			name: "bad list", tool: "fake_get", stdin: `[{"name":"output"},{"name":"output"}]`,
			wantOut:   `{"error":"fake_get: \"output\" appears twice in the arguments list. Nothing was run."}`,
			wantError: `"output" appears twice`,
		},
		{
			name: "unknown tool", tool: "fake_nope", stdin: `{}`,
			wantOut:   `{"error":"unknown tool \"fake_nope\""}`,
			wantError: `unknown tool "fake_nope"`,
		},
		{
			name: "image", tool: "fake_get", stdin: `{}`,
			result:   toolset.Result{Stdout: string(png)},
			wantArgs: `{}`,
			wantOut:  `{"stdout":"","stderr":"","exitCode":0,"image":{"mediaType":"image/png","data":"` + base64.StdEncoding.EncodeToString(png) + `"}}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts := newFake()
			ts.timeout = 2 * time.Second
			ts.answer(tc.result)
			r := runMCP(ts, tc.stdin, "tool", tc.tool)
			switch {
			case tc.wantError == "" && r.err != nil:
				t.Errorf("error: %v", r.err)
			case tc.wantError != "" && (r.err == nil || !strings.Contains(r.err.Error(), tc.wantError)):
				t.Errorf("error = %v, want one containing %q", r.err, tc.wantError)
			}
			if got := compact(t, r.stdout); got != tc.wantOut {
				t.Errorf("stdout:\n%s\nwant\n%s", got, tc.wantOut)
			}
			if tc.wantArgs == "" {
				if n := ts.ncalls(); n != 0 {
					t.Errorf("%d calls ran", n)
				}
			} else if got := ts.lastCall(t).Args; got != canonJSON(t, tc.wantArgs) {
				t.Errorf("arguments %s, want %s", got, tc.wantArgs)
			}
			var out toolOut
			if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
				t.Fatal(err)
			}
			// Either the call ran (stdout, stderr, exitCode) or it did not (error).
			ran := out.Stdout != nil && out.Stderr != nil && out.ExitCode != nil
			if ran == (out.Error != nil) {
				t.Errorf("want either {stdout, stderr, exitCode} or {error}: %s", r.stdout)
			}
		})
	}
}

func TestToolArgs(t *testing.T) {
	for _, args := range [][]string{{"tool"}, {"tool", "a", "b"}} {
		if r := runMCP(newFake(), "", args...); r.err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

// lines splits s into its non-empty lines.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}
