package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestTimeoutFlag: the person running the server shortens the author's
// call timeout (mycli's is the default 2m) with `mcp start --timeout 1s`,
// or MYCLI_MCP_TIMEOUT: a 5 s call then ends, timed out, after 1 s.
func TestTimeoutFlag(t *testing.T) {
	t.Parallel()
	for _, o := range []serverOptions{
		{args: []string{"--timeout", "1s"}},
		{env: []string{"MYCLI_MCP_TIMEOUT=1s"}},
	} {
		s := startServer(t, o)
		start := time.Now()
		res := s.call(t, context.Background(), "mycli_sleep", `{"flags":{"for":"5s"}}`)
		took := time.Since(start)
		out, text := resultOutput(t, res)
		if !res.IsError || !out.TimedOut || !strings.Contains(text, "timed out after 1s") {
			t.Errorf("%v %v: a 5s call under a 1s timeout gave isError %v, %+v", o.args, o.env, res.IsError, out)
		}
		if took >= 5*time.Second {
			t.Errorf("%v %v: the call took %s, the whole sleep", o.args, o.env, took)
		}
		if code := s.close(); code != 0 {
			t.Errorf("server exit code %d", code)
		}
	}
}

// TestCallTimeoutFlagQuiet: `mcp call --timeout 1s` ends a 5 s call,
// says "timed out" and exits non-zero; a call that succeeds prints its
// result on stdout and nothing at all on stderr (no INFO lines).
func TestCallTimeoutFlagQuiet(t *testing.T) {
	t.Parallel()
	run := func(args ...string) (string, string, error) {
		cmd := exec.Command(mycliBin, args...)
		cmd.Env = append(os.Environ(), "MYCLI_STATE="+t.TempDir()+"/state")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		return out.String(), errOut.String(), err
	}
	out, errOut, err := run("mcp", "call", "mycli_sleep", `{"flags":{"for":"5s"}}`, "--timeout", "1s")
	if err == nil || !strings.Contains(errOut, "timed out") || !strings.Contains(out, `"timedOut": true`) {
		t.Errorf("mcp call --timeout 1s of a 5s sleep: err %v\nstdout %s\nstderr %s", err, out, errOut)
	}
	out, errOut, err = run("mcp", "call", "mycli_version", `{}`)
	if err != nil || !strings.Contains(out, "mycli") || errOut != "" {
		t.Errorf("mcp call mycli_version: err %v\nstdout %s\nstderr %q (want nothing)", err, out, errOut)
	}
}
