package httpe2e

import (
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestTypeScriptClient(t *testing.T) {
	dir := nodeModules(t)
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			s := startServer(t, []string{"MYCLI_MCP_TOKEN=" + testToken}, m.args...)
			var groups map[int]bool
			steps := runHTTPClient(t, dir, s.url, testToken, s.stderr, func(st tsStep, stdin io.Writer) {
				if st.Step == "cancel-started" {
					groups = waitForChildren(t, s, 1)
					waitFor(t, "the grandchild", func() bool { return len(inGroups(groups)) >= 2 })
					io.WriteString(stdin, "cancel\n")
				}
				if st.Step == "cancel" {
					if m.name == "stateful" {
						// notifications/cancelled reaches the call.
						waitFor(t, "the cancelled call's process group to end", func() bool { return len(inGroups(groups)) == 0 })
					}
					// In stateless mode with this client's protocol version
					// (2025-11-25) the call ends with its HTTP request, when
					// the client closes.
					io.WriteString(stdin, "close\n")
				}
			})

			if u := steps["unauthorized"]; u.Code != 401 {
				t.Errorf("a wrong token: %+v, want an error with code 401", u)
			}
			if tools := steps["list"].Tools; !slices.Contains(tools, "mycli_echo") || !slices.Contains(tools, "mycli_sleep") {
				t.Errorf("tools/list: %v", tools)
			}
			var call tsResult
			json.Unmarshal(steps["call"].Result, &call)
			var echo echoOut
			json.Unmarshal([]byte(call.StructuredContent.Stdout), &echo)
			if call.IsError || strings.Join(echo.Args, " ") != "from typescript" || echo.Flags["str"] != "ts" || echo.Flags["int"] != float64(42) {
				t.Errorf("call: %s", steps["call"].Result)
			}
			var bad tsResult
			json.Unmarshal(steps["bad-input"].Result, &bad)
			if !bad.IsError || len(bad.Content) == 0 || !strings.Contains(bad.Content[0].Text, "flags.int") {
				t.Errorf("bad input: %s", steps["bad-input"].Result)
			}
			if e := steps["unknown-tool"].Error; !strings.Contains(e, "mycli_nope") {
				t.Errorf("unknown tool: %q, want an error naming it", e)
			}
			c := steps["cancel"]
			if c.Error == "" || c.MS > 5000 {
				t.Errorf("cancel: %+v, want an error within 5s", c)
			}
			if groups == nil {
				t.Fatal("the cancel step never started")
			}
			waitFor(t, "the cancelled call's process group to end", func() bool { return len(inGroups(groups)) == 0 })
			if _, ok := steps["done"]; !ok {
				t.Error("the script did not finish")
			}
		})
	}
}
