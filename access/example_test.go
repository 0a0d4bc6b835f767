package access_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/access"
	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/serve"
	"github.com/cobramcp/cobramcp/toolset"
)

func Example() {
	ctx := context.Background()
	ts, err := toolset.New(mycli.New(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := access.Parse([]byte(`{"rules": [
		{"group": "viewers", "read-only": true, "tools": ["mycli_get_*"]},
		{"set-claim": {"namespace": "team"}}
	]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	servers, err := access.New(f, ts, access.Options{Listing: toolset.Listing{Mode: toolset.ToolModeFull}})
	if err != nil {
		fmt.Println(err) // a bad rule, named
		return
	}
	// serve's HTTP server calls ServerFor (HTTPOptions.ServerFor) with the
	// verified token of the caller who opens a session.
	viewer := &auth.TokenInfo{UserID: "vic", Extra: map[string]any{"groups": []any{"viewers"}}}
	srv, err := servers.ServerFor(ctx, viewer)
	if err != nil {
		fmt.Println(err)
		return
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("vic may call", len(list.Tools), "tools, the first", list.Tools[0].Name)

	// A caller without the claim its rule pins a flag to is refused:
	// serve's HTTP server answers 403.
	_, err = servers.ServerFor(ctx, &auth.TokenInfo{UserID: "nobody"})
	fmt.Println(errors.Is(err, serve.ErrForbidden))
	// Output:
	// vic may call 3 tools, the first mycli_get_deployments
	// true
}
