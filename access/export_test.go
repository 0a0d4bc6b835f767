package access

import (
	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/cobramcp/cobramcp/toolset"
)

// View is viewFor, for the tests of package access_test.
func (s *Servers) View(who *auth.TokenInfo) (*toolset.Served, error) { return s.viewFor(who) }

// The refusals' reasons, for the tests of package access_test.
var (
	ErrNoIdentity = errNoIdentity
	ErrNoRule     = errNoRule
	ErrClaim      = errClaim
)
