package httpe2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/test/mcptest"
	"github.com/cobramcp/cobramcp/test/proctest"
)

// mycli is the binary under test: the example as a CLI that serves a team
// adopts cobramcp (example/team, which opts into OAuth): $MYCLI_TEAM_BIN
// when set (make test builds it), else built once by TestMain.
var mycli string

func TestMain(m *testing.M) {
	if bin := os.Getenv("MYCLI_TEAM_BIN"); bin != "" {
		if _, err := os.Stat(bin); err != nil {
			fmt.Fprintf(os.Stderr, "MYCLI_TEAM_BIN: %v\n", err)
			os.Exit(1)
		}
		mycli = bin
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "httpe2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	mycli = filepath.Join(dir, "mycli")
	if out, err := exec.Command("go", "build", "-o", mycli, "github.com/cobramcp/cobramcp/example/team").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// testToken is a token long enough for the server.
const testToken = "e2e-token-0123456789abcdef"

// server is one running `mycli mcp stream`.
type server struct {
	cmd    *exec.Cmd
	url    string // the MCP endpoint
	base   string // scheme://host:port
	stderr *proctest.Buffer
	exited chan struct{} // closed when the server has exited and its stderr is read
	err    error         // Wait's error, once exited is closed
}

var urlRE = regexp.MustCompile(`msg="serving MCP over streamable HTTP" url=(\S+)`)

// startServer runs `mycli mcp stream --addr 127.0.0.1:0 args...` with env
// added to a minimal environment, and waits until it serves. The server is
// stopped (SIGTERM, then SIGKILL) at the end of the test.
func startServer(t testing.TB, env []string, args ...string) *server {
	t.Helper()
	s, err := tryStartServer(t, env, append([]string{"--addr", "127.0.0.1:0"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// tryStartServer runs `mycli mcp stream args...` and returns once it
// serves, or the error with its stderr when it exits first.
func tryStartServer(t testing.TB, env []string, args ...string) (*server, error) {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(mycli, append([]string{"mcp", "stream"}, args...)...)
	cmd.Env = append([]string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + dir,
		"MYCLI_STATE=" + filepath.Join(dir, "state.json"),
	}, env...)
	s := &server{cmd: cmd, stderr: &proctest.Buffer{}, exited: make(chan struct{})}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	found := make(chan string, 1)
	read := make(chan struct{}) // closed once all of stderr is in s.stderr
	go func() {
		defer close(read)
		sc := bufio.NewScanner(pr)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			s.stderr.Write([]byte(line + "\n"))
			if m := urlRE.FindStringSubmatch(line); m != nil && !sent {
				found <- m[1]
				sent = true
			}
		}
	}()
	// exited is closed only once stderr has been read to its end, so that
	// whoever waits on it reads the whole of stderr (the last lines, such as
	// a refusal's reason, come just before the exit).
	go func() {
		err := cmd.Wait()
		<-read
		s.err = err
		close(s.exited)
	}()
	t.Cleanup(func() { s.stop(t) })
	select {
	case u := <-found:
		s.url = u
		s.base = strings.TrimSuffix(u, "/mcp")
		return s, nil
	case <-s.exited:
		return nil, fmt.Errorf("mycli mcp stream %q exited (%v) before serving:\n%s", args, s.err, s.stderr)
	case <-time.After(30 * time.Second):
		return nil, fmt.Errorf("mycli mcp stream %q did not serve within 30s:\n%s", args, s.stderr)
	}
}

// stop ends the server with SIGTERM (SIGKILL after 30s) and waits for it.
func (s *server) stop(t testing.TB) {
	select {
	case <-s.exited:
		return
	default:
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(30 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
		t.Errorf("server did not stop within 30s of SIGTERM:\n%s", s.stderr)
	}
}

// bearer is an http.RoundTripper that adds a bearer token.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// connect opens a go-sdk client session to s, sending token when not empty.
func connect(t testing.TB, ctx context.Context, s *server, token string) (*mcp.ClientSession, error) {
	t.Helper()
	hc := &http.Client{Transport: http.DefaultTransport}
	if token != "" {
		hc.Transport = bearer{token, http.DefaultTransport}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "httpe2e", Version: "1"}, nil)
	return client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.url, HTTPClient: hc, MaxRetries: -1}, nil)
}

// mustConnect is connect that fails the test on error and closes the
// session at the end of the test.
func mustConnect(t testing.TB, s *server, token string) *mcp.ClientSession {
	t.Helper()
	cs, err := connect(t, context.Background(), s, token)
	if err != nil {
		t.Fatalf("connect: %v\nserver stderr:\n%s", err, s.stderr)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// modes are the two ways to serve, as extra arguments.
var modes = []struct {
	name string
	args []string
}{
	{"stateful", nil},
	{"stateless", []string{"--stateless"}},
}

// echoOut is what mycli echo prints.
type echoOut struct {
	Args  []string       `json:"args"`
	Flags map[string]any `json:"flags"`
}

// callEcho calls mycli_echo with args and returns what it printed.
func callEcho(ctx context.Context, cs *mcp.ClientSession, args ...string) (echoOut, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "mycli_echo", Arguments: map[string]any{"args": args, "flags": map[string]any{"int": 7}}})
	if err != nil {
		return echoOut{}, err
	}
	if res.IsError {
		return echoOut{}, errors.New("isError: " + text(res))
	}
	var sc struct {
		Stdout   string `json:"stdout"`
		ExitCode int    `json:"exitCode"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &sc); err != nil {
		return echoOut{}, err
	}
	var out echoOut
	if err := json.Unmarshal([]byte(sc.Stdout), &out); err != nil {
		return echoOut{}, errors.New("stdout is not echo's JSON: " + sc.Stdout)
	}
	return out, nil
}

// text is the text of a result's content.
var text = mcptest.Text

// waitFor polls cond for up to 20s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 20s for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
