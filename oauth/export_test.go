package oauth

import "github.com/modelcontextprotocol/go-sdk/oauthex"

// Metadata is the metadata rs serves, for the tests of package oauth_test.
func (rs *ResourceServer) Metadata() *oauthex.ProtectedResourceMetadata { return rs.metadata() }
