// Command team is the example CLI (package
// github.com/cobramcp/cobramcp/example/mycli) as a CLI that serves a team
// adopts cobramcp: the one-line adoption plus the opt-in to OAuth, so that
// `mycli mcp stream --oauth-issuer ... --oauth-resource ...` is an OAuth
// 2.1 resource server and --access serves each caller by its rules:
//
//	root.AddCommand(bridge.Command(nil, bridge.WithOAuth(oauth.New)))
//
// The plain example (package github.com/cobramcp/cobramcp/example) does
// not opt in, and links no OAuth, JOSE or OIDC code.
package main

import (
	"os"

	"github.com/cobramcp/cobramcp/bridge"
	"github.com/cobramcp/cobramcp/example/mycli"
	"github.com/cobramcp/cobramcp/oauth"
)

func main() {
	root := mycli.New()
	root.AddCommand(bridge.Command(nil, bridge.WithOAuth(oauth.New))) // the adoption, with the team server
	os.Exit(mycli.ExitCode(root.Execute()))
}
