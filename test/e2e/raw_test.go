package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/test/proctest"
)

// rawServer is `mycli mcp start` driven by hand, line by line, to see every
// byte of its stdout.
type rawServer struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte // every line of stdout
	stderr *proctest.Buffer
	all    chan [][]byte // every line, once stdout is closed
}

func startRaw(t *testing.T) *rawServer {
	t.Helper()
	return startRawCmd(t, mycliBin, "mcp", "start")
}

// startRawCmd is startRaw for the stdio server that bin args... starts.
func startRawCmd(t *testing.T, bin string, args ...string) *rawServer {
	t.Helper()
	r := &rawServer{t: t, lines: make(chan []byte, 100), stderr: &proctest.Buffer{}, all: make(chan [][]byte, 1)}
	r.cmd = exec.Command(bin, args...)
	r.cmd.Env = append(os.Environ(), mycli.StateEnv+"="+t.TempDir()+"/state.json")
	r.cmd.Stderr = r.stderr
	var err error
	if r.stdin, err = r.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := r.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		var all [][]byte
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
		for sc.Scan() {
			line := bytes.Clone(sc.Bytes())
			all = append(all, line)
			r.lines <- line
		}
		close(r.lines)
		r.all <- all
	}()
	t.Cleanup(func() {
		r.stdin.Close()
		done := make(chan struct{})
		go func() { _ = r.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = r.cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", r.stderr)
		}
	})
	return r
}

// send writes one line to the server's stdin.
func (r *rawServer) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.stdin, line+"\n"); err != nil {
		r.t.Fatalf("writing %q: %v", line, err)
	}
}

// next returns the next message on stdout, failing the test if it is not
// JSON-RPC 2.0 or does not come within 20s.
func (r *rawServer) next() jsonRPC {
	r.t.Helper()
	select {
	case line, ok := <-r.lines:
		if !ok {
			r.t.Fatalf("the server closed stdout (exited?)")
		}
		var m jsonRPC
		if err := json.Unmarshal(line, &m); err != nil || m.JSONRPC != "2.0" {
			r.t.Fatalf("stdout line is not JSON-RPC 2.0 (%v): %.200q", err, line)
		}
		return m
	case <-time.After(20 * time.Second):
		r.t.Fatalf("no message from the server within 20s")
	}
	return jsonRPC{}
}

// response returns the response with the given id, skipping notifications.
func (r *rawServer) response(id string) jsonRPC {
	r.t.Helper()
	for {
		m := r.next()
		if m.Method != "" && len(m.ID) == 0 {
			continue // a notification
		}
		if string(m.ID) != id {
			r.t.Fatalf("response id %s, want %s: %+v", m.ID, id, m)
		}
		return m
	}
}

// initialize performs the initialize handshake at protocol 2025-11-25.
func (r *rawServer) initialize() {
	r.t.Helper()
	r.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	if m := r.response("1"); m.Error != nil || !bytes.Contains(m.Result, []byte(`"2025-11-25"`)) {
		r.t.Fatalf("initialize: %+v %s", m.Error, m.Result)
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// callTool sends tools/call and returns the structured output of the result.
func (r *rawServer) callTool(id int, name, args string) output {
	r.t.Helper()
	r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, name, args))
	m := r.response(fmt.Sprint(id))
	if m.Error != nil {
		r.t.Fatalf("tools/call %s: error %+v", name, m.Error)
	}
	var res struct {
		StructuredContent output `json:"structuredContent"`
		IsError           bool   `json:"isError"`
	}
	if err := json.Unmarshal(m.Result, &res); err != nil {
		r.t.Fatalf("tools/call %s result %s: %v", name, m.Result, err)
	}
	return res.StructuredContent
}

// TestStdoutIsProtocolOnly runs stray-print, which writes straight to its
// process's stdout, and checks that every byte of the server's stdout is
// JSON-RPC: the stray line arrives in the result instead, and the server
// stays alive and exits 0 when stdin closes.
func TestStdoutIsProtocolOnly(t *testing.T) {
	t.Parallel()
	r := startRaw(t)
	r.initialize()
	out := r.callTool(2, "mycli_stray-print", `{}`)
	if out.Stdout != "stray line on stdout\n" || out.Stderr != "stray line on stderr\n" {
		t.Errorf("stray-print result %+v", out)
	}
	// The server logs at debug level to stderr: still nothing on stdout.
	out = r.callTool(3, "mycli_flood", `{"flags":{"bytes":1000,"stderr":true},"args":null}`)
	if len(out.Stderr) != 1000 {
		t.Errorf("flood --stderr: %d bytes of stderr", len(out.Stderr))
	}
	out = r.callTool(4, "mycli_version", `{}`)
	if out.Stdout != "mycli version 1.4.2\n" {
		t.Errorf("version after stray-print: %+v", out)
	}
	r.stdin.Close()
	var all [][]byte
	select {
	case all = <-r.all:
	case <-time.After(20 * time.Second):
		t.Fatal("stdout not closed 20s after stdin")
	}
	for _, line := range all {
		var m jsonRPC
		if err := json.Unmarshal(line, &m); err != nil || m.JSONRPC != "2.0" {
			t.Errorf("stdout line is not JSON-RPC 2.0: %q", line)
		}
		if bytes.Contains(line, []byte("stray line")) && !bytes.Contains(line, []byte(`"result"`)) {
			t.Errorf("the stray line leaked onto the protocol stream: %q", line)
		}
	}
	if len(all) != 4 {
		t.Errorf("%d lines on stdout, want 4 responses", len(all))
	}
	if err := r.cmd.Wait(); err != nil {
		t.Errorf("server exit after stdin closed: %v", err)
	}
	if !strings.Contains(r.stderr.String(), "serving MCP on stdio") {
		t.Errorf("no startup log on stderr: %q", r.stderr)
	}
}

// TestMalformedJSON sends a line that is not JSON: the server answers with
// a JSON-RPC parse error (-32700, id null) and keeps serving.
func TestMalformedJSON(t *testing.T) {
	t.Parallel()
	r := startRaw(t)
	r.initialize()
	for i, bad := range []string{`{not json`, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":`} {
		r.send(bad)
		m := r.next()
		if m.Error == nil || m.Error.Code != -32700 || string(m.ID) != "null" {
			t.Fatalf("after %q: got %+v (id %s), want a parse error -32700 with id null", bad, m.Error, m.ID)
		}
		out := r.callTool(10+i, "mycli_version", `{}`)
		if out.Stdout != "mycli version 1.4.2\n" {
			t.Errorf("after malformed JSON: %+v", out)
		}
	}
}
