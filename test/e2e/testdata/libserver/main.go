// Command libserver serves mycli's tree through the library API alone, as
// package bridge's doc shows (toolset.New, NewServer, then package serve),
// without the mcp command group: `libserver serve-stdio` on stdio,
// `libserver serve-http --max-sessions N` over streamable HTTP on a
// loopback port (its URL on stderr as "url=..."). Any other arguments run
// mycli's own commands, which is what the calls' processes do.
package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/cobramcp/cobramcp/example/mycli"
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
	max := serve.DefaultMaxSessions
	if len(os.Args) == 4 && os.Args[2] == "--max-sessions" {
		n, err := strconv.Atoi(os.Args[3])
		if err != nil {
			return err
		}
		max = n
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", serve.HTTPHandler(srv, serve.HTTPOptions{SessionTimeout: 30 * time.Minute, MaxSessions: max}))
	fmt.Fprintf(os.Stderr, "url=http://%s/mcp\n", ln.Addr())
	return http.Serve(ln, mux)
}
