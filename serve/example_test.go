package serve_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

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

// A tree served over streamable HTTP, mounted on a mux of the caller's.
func ExampleHTTPHandler() {
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
	mux := http.NewServeMux()
	mux.Handle("/mcp", serve.HTTPHandler(v.NewServer(toolset.ServerOptions{}), serve.HTTPOptions{MaxSessions: 100}))
	srv := httptest.NewServer(mux)
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
