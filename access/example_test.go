package access_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/cobramcp/cobramcp/access"
	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/toolset"
)

func Example() {
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
	viewer := &auth.TokenInfo{UserID: "vic", Extra: map[string]any{"groups": []any{"viewers"}}}
	v, _ := servers.View(viewer)
	fmt.Println("vic may call", len(v.Tools()), "tools, the first", v.Tools()[0].Name)

	// A caller without the claim its rule pins a flag to is refused:
	// serve's HTTP server answers 403.
	_, err = servers.ServerFor(context.Background(), &auth.TokenInfo{UserID: "nobody"})
	fmt.Println(errors.Is(err, access.ErrForbidden))
	// Output:
	// vic may call 3 tools, the first mycli_get_deployments
	// true
}
