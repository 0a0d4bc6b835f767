package mycli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cobramcp/cobramcp/example/mycli"
)

// asMainEnv makes the test binary behave as the mycli program (see TestMain), so that tests can
// run it as a child process and `sleep --spawn` can re-execute it.
const asMainEnv = "MYCLI_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMainEnv) == "1" {
		os.Exit(mycli.ExitCode(mycli.New().Execute()))
	}
	os.Exit(m.Run())
}

// result is what one in-process run produced.
type result struct {
	stdout, stderr string
	err            error
}

// execute runs a fresh tree in-process with args.
func execute(ctx context.Context, stdin io.Reader, stdout io.Writer, args ...string) result {
	root := mycli.New()
	var out, errb bytes.Buffer
	if stdout == nil {
		stdout = &out
	}
	root.SetOut(stdout)
	root.SetErr(&errb)
	if stdin != nil {
		root.SetIn(stdin)
	}
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	return result{stdout: out.String(), stderr: errb.String(), err: err}
}

// run runs `mycli --state STATE args...` in-process.
func run(t *testing.T, state string, args ...string) result {
	t.Helper()
	return execute(context.Background(), nil, nil, append([]string{"--state", state}, args...)...)
}

// newState returns the path of a state file that does not exist yet (so the seed is used).
func newState(t *testing.T) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "state.json")
}

// readState reads the state file, failing the test when it is missing.
func readState(t *testing.T, path string) *mycli.State {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read state: %v", err)
	}
	var s mycli.State
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("state is not JSON: %v", err)
	}
	return &s
}

// podNames lists the names of the pods of namespace ns.
func podNames(s *mycli.State, ns string) []string {
	var names []string
	for _, p := range s.Pods {
		if p.Namespace == ns {
			names = append(names, p.Name)
		}
	}
	return names
}

// lines splits output into lines, without the final empty one.
func lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
