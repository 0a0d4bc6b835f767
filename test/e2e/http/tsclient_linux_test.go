package httpe2e

import (
	"bufio"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// tsStep is one line that test/node/http-client.mjs prints.
type tsStep struct {
	Step   string          `json:"step"`
	Error  string          `json:"error"`
	Code   int             `json:"code"`
	Fatal  string          `json:"fatal"`
	Tools  []string        `json:"tools"`
	Result json.RawMessage `json:"result"`
	MS     int             `json:"ms"`
}

type tsResult struct {
	IsError           bool `json:"isError"`
	Content           []struct{ Text string }
	StructuredContent struct {
		Stdout   string `json:"stdout"`
		ExitCode int    `json:"exitCode"`
	} `json:"structuredContent"`
}

func TestTypeScriptClient(t *testing.T) {
	dir := nodeModules(t)
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			s := startServer(t, []string{"MYCLI_MCP_TOKEN=" + testToken}, m.args...)
			cmd := exec.Command(node22(t), filepath.Join(dir, "http-client.mjs"), s.url)
			cmd.Env = []string{"MCP_TOKEN=" + testToken, "PATH=/usr/bin:/bin"}
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			steps := map[string]tsStep{}
			var groups map[int]bool
			sc := bufio.NewScanner(stdout)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				var st tsStep
				if err := json.Unmarshal(sc.Bytes(), &st); err != nil {
					t.Fatalf("not a step: %s", sc.Text())
				}
				if st.Fatal != "" {
					t.Fatalf("step %s failed: %s\nserver stderr:\n%s", st.Step, st.Fatal, s.stderr)
				}
				steps[st.Step] = st
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
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("http-client.mjs: %v\n%s", err, stderr.String())
				}
			case <-time.After(60 * time.Second):
				t.Fatalf("http-client.mjs did not end\n%s", stderr.String())
			}

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
