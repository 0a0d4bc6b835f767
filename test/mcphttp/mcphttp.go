package mcphttp

import (
	"context"
	"io"
	"net/http"
	"strings"
)

// ProtocolVersion is the MCP protocol version the requests name.
const ProtocolVersion = "2025-11-25"

// Answer is the server's answer to a request.
type Answer struct {
	Code   int
	Header http.Header
	Body   string
}

// SessionID is the answer's Mcp-Session-Id header.
func (a Answer) SessionID() string { return a.Header.Get("Mcp-Session-Id") }

// Send sends body to url with method, as an MCP client does: JSON, both
// reply forms accepted, the protocol version named, token as a bearer
// token and sid as the session when they are not empty. It returns the
// whole answer; an error only when no answer came.
func Send(method, url, token, sid, body string) (Answer, error) {
	return SendContext(context.Background(), method, url, token, sid, body)
}

// SendContext is Send, given up when ctx is done (a GET that opens a
// stream answers only when the stream ends).
func SendContext(ctx context.Context, method, url, token, sid, body string) (Answer, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		return Answer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", ProtocolVersion)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return Answer{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return Answer{}, err
	}
	return Answer{resp.StatusCode, resp.Header, string(b)}, nil
}
