package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/test/proctest"
)

// The binaries under test, set by TestMain.
var (
	mycliBin    string // the built example (mycli), or $MYCLI_BIN
	shortcliBin string // testdata/shortcli: mycli with a 5s timeout and a 4 KiB cap
	teamBin     string // example/team: mycli with the opt-in to OAuth, or $MYCLI_TEAM_BIN
	// libserverBin is testdata/libserver: mycli's tree served through the
	// library API alone (toolset, serve), without the mcp command group.
	libserverBin string
)

// The limits shortcli is built with (testdata/shortcli/main.go).
const (
	shortTimeout   = 5 * time.Second
	shortMaxOutput = 4096
)

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "cobramcp-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	mycliBin = os.Getenv("MYCLI_BIN")
	if mycliBin == "" {
		mycliBin = filepath.Join(dir, "mycli")
		if err := goBuild(mycliBin, "github.com/cobramcp/cobramcp/example"); err != nil {
			fmt.Fprintln(os.Stderr, "e2e:", err)
			return 1
		}
	} else if mycliBin, err = filepath.Abs(mycliBin); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: MYCLI_BIN:", err)
		return 1
	}
	if teamBin = os.Getenv("MYCLI_TEAM_BIN"); teamBin == "" {
		teamBin = filepath.Join(dir, "mycli-team")
		if err := goBuild(teamBin, "github.com/cobramcp/cobramcp/example/team"); err != nil {
			fmt.Fprintln(os.Stderr, "e2e:", err)
			return 1
		}
	} else if teamBin, err = filepath.Abs(teamBin); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: MYCLI_TEAM_BIN:", err)
		return 1
	}
	libserverBin = filepath.Join(dir, "libserver")
	if err := goBuild(libserverBin, "./testdata/libserver"); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	shortcliBin = filepath.Join(dir, "shortcli")
	if err := goBuild(shortcliBin, "./testdata/shortcli"); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	return m.Run()
}

// goBuild builds the package pkg into the binary out.
func goBuild(out, pkg string) error {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Stdout = os.Stderr
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s: %w", pkg, err)
	}
	return nil
}

// server is one `mcp start` process with a go-sdk client session on it.
type server struct {
	t        *testing.T
	cmd      *exec.Cmd
	cs       *mcp.ClientSession
	state    string           // the MYCLI_STATE file of the server
	stderr   *proctest.Buffer // the server's logs and its children's stray stderr
	progress chan *mcp.ProgressNotificationParams
	closed   bool
	stdin    io.WriteCloser // the server's stdin, with serverOptions.ownPipes
}

// serverOptions change how startServer starts a server.
type serverOptions struct {
	bin      string   // the binary; mycliBin when empty
	env      []string // extra environment entries
	args     []string // extra arguments of mcp start
	protocol string   // the client's protocol version; the SDK's latest when empty
	// ownPipes connects over mcp.IOTransport on pipes of the test's own
	// instead of mcp.CommandTransport, so that the test can close the
	// server's stdin while a call runs (ClientSession.Close waits for
	// the calls in flight before it closes anything).
	ownPipes bool
}

// startServer starts `BIN mcp start` with a fresh state file and connects a
// go-sdk client to it over mcp.CommandTransport. The session is closed when
// the test ends.
func startServer(t testing.TB, o serverOptions) *server {
	t.Helper()
	if o.bin == "" {
		o.bin = mycliBin
	}
	s := &server{
		state:    filepath.Join(t.TempDir(), "state.json"),
		stderr:   &proctest.Buffer{},
		progress: make(chan *mcp.ProgressNotificationParams, 1000),
	}
	if tt, ok := t.(*testing.T); ok {
		s.t = tt
	}
	s.cmd = exec.Command(o.bin, append([]string{"mcp", "start", "--mcp-log-level", "debug"}, o.args...)...)
	s.cmd.Env = append(os.Environ(), mycli.StateEnv+"="+s.state)
	s.cmd.Env = append(s.cmd.Env, o.env...)
	s.cmd.Stderr = s.stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "cobramcp-e2e", Version: "0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			select {
			case s.progress <- req.Params:
			default:
			}
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var opts *mcp.ClientSessionOptions
	if o.protocol != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: o.protocol}
	}
	// A long TerminateDuration: the server must exit because stdin closed,
	// not because the transport signalled it.
	var tr mcp.Transport = &mcp.CommandTransport{Command: s.cmd, TerminateDuration: 20 * time.Second}
	if o.ownPipes {
		stdin, err := s.cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := s.cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := s.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		s.stdin = stdin
		tr = &mcp.IOTransport{Reader: stdout, Writer: stdin}
	}
	cs, err := client.Connect(ctx, tr, opts)
	if err != nil {
		t.Fatalf("connecting to %s mcp start: %v\nserver stderr:\n%s", o.bin, err, s.stderr)
	}
	s.cs = cs
	t.Cleanup(func() {
		if !s.closed {
			s.close()
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", s.stderr)
		}
	})
	return s
}

// pid is the server's process id.
func (s *server) pid() int { return s.cmd.Process.Pid }

// close closes the client session (and so the server's stdin), waits for
// the server to exit and returns its exit code.
func (s *server) close() int {
	s.closed = true
	_ = s.cs.Close() // the error is the process's exit status, checked below
	if s.stdin != nil {
		s.stdin.Close()
	}
	if s.cmd.ProcessState == nil {
		// Close returned before the process was waited for; wait here.
		_ = s.cmd.Wait()
	}
	if s.cmd.ProcessState == nil {
		return -1
	}
	return s.cmd.ProcessState.ExitCode()
}

// call calls a tool with arguments given as JSON text and fails the test on
// a protocol error.
func (s *server) call(t testing.TB, ctx context.Context, name, args string) *mcp.CallToolResult {
	t.Helper()
	res, err := s.callErr(ctx, name, args)
	if err != nil {
		t.Fatalf("tools/call %s %s: %v", name, args, err)
	}
	return res
}

// callErr calls a tool with arguments given as JSON text.
func (s *server) callErr(ctx context.Context, name, args string) (*mcp.CallToolResult, error) {
	var a any = json.RawMessage(args)
	if args == "" {
		a = nil
	}
	return s.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: a})
}

// output is the structured content of every result.
type output struct {
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	ExitCode int    `json:"exitCode"`
	TimedOut bool   `json:"timedOut"`
}

// resultOutput checks that res carries exactly {stdout, stderr, exitCode}
// (plus "timedOut": true after a timeout) as structured content and one
// text block consistent with it, and returns both.
func resultOutput(t testing.TB, res *mcp.CallToolResult) (output, string) {
	t.Helper()
	text := resultText(t, res)
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatalf("structuredContent: %v", err)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		t.Fatalf("structuredContent %s is not an object: %v", raw, err)
	}
	want := 3
	if string(keys["timedOut"]) == "true" {
		want++
	}
	if len(keys) != want || keys["stdout"] == nil || keys["stderr"] == nil || keys["exitCode"] == nil {
		t.Fatalf("structuredContent %s: want exactly stdout, stderr and exitCode (and timedOut: true after a timeout)", raw)
	}
	var out output
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("structuredContent %s: %v", raw, err)
	}
	if !strings.HasPrefix(text, out.Stdout) {
		t.Errorf("text content does not start with structured stdout:\ntext:   %q\nstdout: %q", text, out.Stdout)
	}
	if !strings.Contains(text, out.Stderr) {
		t.Errorf("text content does not contain structured stderr:\ntext:   %q\nstderr: %q", text, out.Stderr)
	}
	if res.IsError != (out.ExitCode != 0) && !strings.Contains(out.Stderr, "cobramcp:") {
		t.Errorf("isError %v with exit code %d", res.IsError, out.ExitCode)
	}
	switch {
	case out.TimedOut:
		if !regexp.MustCompile(`\ntimed out after [0-9a-zµ.]+ \(exit code -?[0-9]+\)$`).MatchString(text) {
			t.Errorf("text of a timed-out call does not end saying so: %q", text)
		}
	case res.IsError && !strings.HasSuffix(text, "exit code: "+strconv.Itoa(out.ExitCode)):
		t.Errorf("text of a failed call does not end with its exit code %d: %q", out.ExitCode, text)
	}
	if !res.IsError && out.Stderr == "" && text != out.Stdout {
		t.Errorf("text %q != stdout %q", text, out.Stdout)
	}
	return out, text
}

// resultText returns the only content block of res, which must be text.
func resultText(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("want 1 content block, got %d", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T, want *mcp.TextContent", res.Content[0])
	}
	return tc.Text
}

// proc is one process as /proc/PID/stat shows it.
type proc struct {
	pid, ppid, pgid int
	state           byte
}

// processes lists every process on the machine.
func processes(t testing.TB) []proc {
	t.Helper()
	names, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatalf("reading /proc: %v", err)
	}
	var out []proc
	for _, n := range names {
		pid, err := strconv.Atoi(n.Name())
		if err != nil {
			continue
		}
		if p, ok := readProc(pid); ok {
			out = append(out, p)
		}
	}
	return out
}

// readProc reads /proc/PID/stat; false when the process is gone.
func readProc(pid int) (proc, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return proc{}, false
	}
	// "pid (comm) state ppid pgrp ...": comm may hold spaces and ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return proc{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 3 || len(f[0]) != 1 {
		return proc{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgid, err2 := strconv.Atoi(f[2])
	if err1 != nil || err2 != nil {
		return proc{}, false
	}
	return proc{pid: pid, ppid: ppid, pgid: pgid, state: f[0][0]}, true
}

// alive reports whether p is running: zombies (exited, not yet reaped by
// whatever adopted them) count as gone.
func (p proc) alive() bool { return p.state != 'Z' && p.state != 'X' }

// groupMembers returns the live processes of the process group pgid.
func groupMembers(t testing.TB, pgid int) []proc {
	t.Helper()
	var out []proc
	for _, p := range processes(t) {
		if p.pgid == pgid && p.alive() {
			out = append(out, p)
		}
	}
	return out
}

// children returns the live processes whose parent is pid.
//
// The server's guard (exec/guard_linux.go: a shell whose argv[0] is
// "cobramcp-guard", started with the first call, which ends the calls'
// groups if the server is killed) is not counted: it lives as long as the
// server.
func children(t testing.TB, pid int) []proc {
	t.Helper()
	var out []proc
	for _, p := range processes(t) {
		if p.ppid == pid && p.alive() && !isGuard(p.pid) {
			out = append(out, p)
		}
	}
	return out
}

// isGuard reports whether the process pid is a server's guard.
func isGuard(pid int) bool {
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	argv0, _, _ := bytes.Cut(cmdline, []byte{0})
	return err == nil && string(argv0) == "cobramcp-guard"
}

// waitGroupGone waits up to d for the process group pgid to have no live
// member, and fails the test naming the survivors otherwise.
func waitGroupGone(t testing.TB, pgid int, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		left := groupMembers(t, pgid)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process group %d still has live members after %s: %+v", pgid, d, left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// vmHWM returns the peak resident set size of the process pid, in bytes.
func vmHWM(t testing.TB, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatalf("reading the status of process %d: %v", pid, err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(v)
			if len(f) != 2 || f[1] != "kB" {
				t.Fatalf("unexpected VmHWM line %q", line)
			}
			kb, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				t.Fatalf("VmHWM line %q: %v", line, err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no VmHWM in /proc/%d/status", pid)
	return 0
}

// waitProgress returns the next progress notification whose message
// satisfies ok, failing the test after d.
func (s *server) waitProgress(t testing.TB, d time.Duration, ok func(*mcp.ProgressNotificationParams) bool) *mcp.ProgressNotificationParams {
	t.Helper()
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		select {
		case p := <-s.progress:
			if ok(p) {
				return p
			}
		case <-timer.C:
			t.Fatalf("no matching progress notification within %s", d)
			return nil
		}
	}
}

// pidProgress returns the pid that `sleep --spawn` prints on its first line,
// as the progress notification of the call with token carries it.
func (s *server) pidProgress(t testing.TB, token string) int {
	t.Helper()
	var pid int
	s.waitProgress(t, 20*time.Second, func(p *mcp.ProgressNotificationParams) bool {
		if p.ProgressToken != token {
			return false
		}
		n, err := strconv.Atoi(strings.TrimSpace(p.Message))
		pid = n
		return err == nil && n > 0
	})
	return pid
}
