// Command libserver serves mycli's tree through the library API alone, as
// package bridge's doc shows (toolset.New, NewServer, then package serve),
// without the mcp command group: `libserver serve-stdio` on stdio,
// `libserver serve-http [--max-sessions N] [--oauth-issuer URL]` over
// streamable HTTP on a loopback port (its URL on stderr as "url=..."; with
// OAuth, that URL is the resource), with serve.NewHTTPServer's zero options
// otherwise. Any other arguments run mycli's own commands, which is what
// the calls' processes do.
package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"strconv"

	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/oauth"
	"github.com/cobramcp/cobramcp/serve"
	"github.com/cobramcp/cobramcp/toolset"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	root := mycli.New()
	if len(os.Args) < 2 || os.Args[1] != "serve-stdio" && os.Args[1] != "serve-http" {
		os.Exit(mycli.ExitCode(root.Execute()))
	}
	all, err := toolset.New(root, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "libserver:", err)
		os.Exit(1)
	}
	// The listing mcp start serves by default.
	ts, err := all.View(toolset.Listing{Mode: toolset.ToolModeAuto})
	if err != nil {
		fmt.Fprintln(os.Stderr, "libserver:", err)
		os.Exit(1)
	}
	ctx := context.Background()
	srv := ts.NewServer(toolset.ServerOptions{Context: ctx})
	if os.Args[1] == "serve-stdio" {
		err = serve.Stdio(ctx, srv, os.Stdin, os.Stdout)
		ts.Wait()
	} else {
		err = serveHTTP(srv)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "libserver:", err)
		os.Exit(1)
	}
}

func serveHTTP(srv *mcp.Server) error {
	var opts serve.HTTPOptions // the zero options are mcp stream's defaults
	issuer := ""
	for i := 2; i+1 < len(os.Args); i += 2 {
		switch os.Args[i] {
		case "--max-sessions":
			n, err := strconv.Atoi(os.Args[i+1])
			if err != nil {
				return err
			}
			opts.MaxSessions = n
		case "--oauth-issuer":
			issuer = os.Args[i+1]
		default:
			return fmt.Errorf("unknown option %s", os.Args[i])
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String() + "/mcp"
	if issuer != "" {
		// The resource is this server's own URL.
		rs, err := oauth.New(context.Background(), serve.OAuthConfig{Issuer: issuer, Resource: url})
		if err != nil {
			return err
		}
		opts.Auth = rs
	}
	hs, err := serve.NewHTTPServer(srv, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "url=%s\n", url)
	return hs.Serve(context.Background(), ln)
}
