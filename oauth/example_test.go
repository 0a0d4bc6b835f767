package oauth_test

import (
	"context"
	"log"
	"net"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cobramcp/cobramcp/oauth"
	"github.com/cobramcp/cobramcp/serve"
)

// The library's HTTP server as an OAuth resource server: every request
// needs an access token of the issuer for this server's URL, and the
// metadata tells clients where to get one.
func ExampleNew() {
	ctx := context.Background()
	rs, err := oauth.New(ctx, serve.OAuthConfig{
		Issuer:   "https://keycloak.example.com/realms/team",
		Resource: "https://mcp.example.com/mcp",
	})
	if err != nil {
		log.Fatal(err) // the issuer could not be discovered
	}
	log.Println("clients learn where to log in at", rs.MetadataURL())
	srv := mcp.NewServer(&mcp.Implementation{Name: "hello", Version: "1"}, nil)
	hs, err := serve.NewHTTPServer(srv, serve.HTTPOptions{Auth: rs})
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", ":8080")
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(hs.Serve(ctx, ln))
}
