package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioServer is a go-sdk server behind stdioTransport, driven with raw
// lines. Its one tool, "slow", runs until its call is cancelled.
type stdioServer struct {
	t        *testing.T
	in       *io.PipeWriter
	lines    chan string
	flight   *inFlight
	slowDone chan struct{} // a slow call returned
}

func startStdio(t *testing.T, max int) *stdioServer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &stdioServer{t: t, in: inW, lines: make(chan string, 100), slowDone: make(chan struct{}, 10)}
	srv := mcp.NewServer(&mcp.Implementation{Name: "stdio-test", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "slow", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			<-ctx.Done()
			defer func() { s.slowDone <- struct{}{} }()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "canceled"}}}, nil
		})
	tr := stdioTransport(inR, outW, max)
	s.flight = tr.Writer.(*replyWriter).flight
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, tr) }()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		<-done
		outW.Close()
	})
	return s
}

// send writes one line to the server.
func (s *stdioServer) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("writing to the server: %v", err)
	}
}

// next returns the server's next line; a session that ended fails the test.
func (s *stdioServer) next() string {
	s.t.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			s.t.Fatal("the server ended the session")
		}
		return l
	case <-time.After(3 * time.Minute): // a safety net for a loaded machine
		s.t.Fatal("no answer from the server within 3 minutes")
		return ""
	}
}

// want reads the next line and checks that it holds each of parts.
func (s *stdioServer) want(parts ...string) {
	s.t.Helper()
	l := s.next()
	for _, p := range parts {
		if !strings.Contains(l, p) {
			s.t.Errorf("answer %.300s\nwant it to contain %s", l, p)
		}
	}
}

func (s *stdioServer) initialize() {
	s.t.Helper()
	s.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	s.want(`"id":"init","result":`)
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// TestStdioErrorCodes: the go-sdk answers a request before initialize, and
// a second initialize, with code 0; JSON-RPC has -32600 for those.
func TestStdioErrorCodes(t *testing.T) {
	s := startStdio(t, maxMessage)
	s.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	s.want(`"id":1`, `"code":-32600`, `invalid during session initialization`)
	s.initialize()
	s.send(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	s.want(`"id":2`, `"code":-32600`, `duplicate`)
	s.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	s.want(`"id":3,"result":{}`)
}

// TestStdioIDs: every id comes back exactly as sent, or is refused with
// -32600 echoing it as sent (the go-sdk would answer it changed).
func TestStdioIDs(t *testing.T) {
	s := startStdio(t, maxMessage)
	s.initialize()
	for _, id := range []string{`9007199254740992`, `-9007199254740992`, `0`, `"9007199254740993"`, `"x\u0079"`} {
		s.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		want := `"id":` + id + `,"result":{}`
		if id == `"x\u0079"` {
			want = `"id":"xy","result":{}`
		}
		s.want(want)
	}
	for _, id := range []string{`9007199254740993`, `1180591620717411303424`, `1.5`, `1.0`, `1e2`, `-0`} {
		s.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		s.want(`"id":`+id+`,"error":{"code":-32600`, `at most 2^53`)
	}
}

// TestStdioDuplicateAndCancel: a request reusing the id of one in progress
// is answered with -32600; after notifications/cancelled, the cancelled
// request gets no response at all.
func TestStdioDuplicateAndCancel(t *testing.T) {
	s := startStdio(t, maxMessage)
	s.initialize()
	s.send(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"slow","arguments":{}}}`)
	s.send(`{"jsonrpc":"2.0","id":10,"method":"ping"}`)
	s.want(`"id":10,"error":{"code":-32600`, `in progress`)
	s.send(`{"jsonrpc":"2.0","id":11,"method":"ping"}`)
	s.want(`"id":11,"result":{}`)

	s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":10,"reason":"test"}}`)
	<-s.slowDone
	// The go-sdk answers once the handler has returned; wait for that answer
	// to have gone through the writer (dropped or not).
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
		s.flight.mu.Lock()
		n := len(s.flight.ids)
		s.flight.mu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cancelled request is still in flight after a minute")
		}
	}
	s.send(`{"jsonrpc":"2.0","id":12,"method":"ping"}`)
	s.want(`"id":12,"result":{}`) // and not the cancelled call's result
	// The id is free again.
	s.send(`{"jsonrpc":"2.0","id":10,"method":"ping"}`)
	s.want(`"id":10,"result":{}`)
}

// TestStdioMessageLimit: a message of exactly the limit is served (the
// transport's own limit comes from the same number), one byte more is
// answered with -32600, and the session goes on. With the real limit,
// messages over the go-sdk's 16 MiB default are answered too (they used to
// end the server).
func TestStdioMessageLimit(t *testing.T) {
	ping := func(id, size int) string {
		head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"pad":"`, id)
		return head + strings.Repeat("x", size-len(head)-len(`"}}`)) + `"}}`
	}
	for _, max := range []int{4096, maxMessage} {
		t.Run(fmt.Sprint(max), func(t *testing.T) {
			s := startStdio(t, max)
			s.initialize()
			if max < maxMessage { // the real size costs minutes under -race
				s.send(ping(1, max))
				s.want(`"id":1,"result":{}`)
				s.send(ping(2, max)) // two at the limit in a row
				s.want(`"id":2,"result":{}`)
			}
			s.send(ping(3, max+1))
			s.want(`"id":null,"error":{"code":-32600`, "longer than")
			if max == maxMessage {
				s.send(ping(4, 20<<20))
				s.want(`"id":null,"error":{"code":-32600`, "longer than")
			}
			s.send(`{"jsonrpc":"2.0","id":5,"method":"ping"}`)
			s.want(`"id":5,"result":{}`)
		})
	}
}
