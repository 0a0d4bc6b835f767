package serve_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/cobramcp/cobramcp/serve"
	"github.com/cobramcp/cobramcp/toolset"
)

// A tree served on stdio: here stdin is a line that is not JSON, which is
// answered and does not end the session.
func ExampleStdio() {
	root := &cobra.Command{Use: "hello"}
	root.AddCommand(&cobra.Command{Use: "world", Run: func(*cobra.Command, []string) {}})
	ts, err := toolset.New(root, nil)
	if err != nil {
		panic(err)
	}
	v, err := ts.View(toolset.Listing{})
	if err != nil {
		panic(err)
	}
	var out bytes.Buffer
	in := strings.NewReader("this is not JSON\n")
	err = serve.Stdio(context.Background(), v.NewServer(toolset.ServerOptions{}), in, &out)
	fmt.Print(out.String(), err)
	// Output:
	// {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the message is not valid JSON"}}
	// <nil>
}

// A tree served over streamable HTTP with the defaults of `mcp stream`
// (here through httptest; Serve serves it on a listener, with graceful
// shutdown).
func ExampleNewHTTPServer() {
	root := &cobra.Command{Use: "hello"}
	root.AddCommand(&cobra.Command{Use: "world", Run: func(*cobra.Command, []string) {}})
	ts, err := toolset.New(root, nil)
	if err != nil {
		panic(err)
	}
	v, err := ts.View(toolset.Listing{})
	if err != nil {
		panic(err)
	}
	hs, err := serve.NewHTTPServer(v.NewServer(toolset.ServerOptions{}), serve.HTTPOptions{})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(hs.Handler())
	defer srv.Close()
	req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(resp.Body)
	fmt.Print(resp.StatusCode, " ", b.String())
	// Output:
	// 200 {"jsonrpc":"2.0","id":9007199254740993,"error":{"code":-32600,"message":"Invalid Request: \"id\" must be a string or an integer of at most 2^53 in magnitude (a fraction, an exponent or a larger number would be answered changed)"}}
}

// A server per caller: ServerFor chooses each new session's server from
// the caller's token (nil without an identity); an error wrapping
// ErrForbidden is answered 403.
func ExampleHTTPOptions_serverFor() {
	admins := mcp.NewServer(&mcp.Implementation{Name: "admin-tools", Version: "1"}, nil)
	viewers := mcp.NewServer(&mcp.Implementation{Name: "read-only-tools", Version: "1"}, nil)
	opts := serve.HTTPOptions{
		// Auth: an *oauth.ResourceServer, whose tokens give the caller's claims.
		ServerFor: func(ctx context.Context, who *auth.TokenInfo) (*mcp.Server, error) {
			if who == nil {
				return nil, fmt.Errorf("%w: log in first", serve.ErrForbidden)
			}
			groups, _ := who.Extra["groups"].([]any)
			for _, g := range groups {
				if g == "admins" {
					return admins, nil
				}
			}
			return viewers, nil
		},
	}
	hs, err := serve.NewHTTPServer(nil, opts)
	fmt.Println(hs != nil, err)
	// Output:
	// true <nil>
}
