package toolset

import (
	"context"
	"fmt"
	"runtime"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lookupLimit bounds how many of search mode's search, list and describe
// calls run at once, across every view and server of a Toolset: they take
// no call slot (they run no process), and without a bound a flood of them
// would take every core. A call waits its turn, and stops waiting when its
// request is cancelled.
type lookupLimit chan struct{}

// newLookupLimit returns a limit of one lookup per CPU the process may
// use, and at least two.
func newLookupLimit() lookupLimit {
	return make(lookupLimit, max(2, runtime.GOMAXPROCS(0)))
}

// acquire waits for a turn for the call of the tool named tool: it
// returns the function that ends the turn, or, when ctx is done first,
// the result that says so.
func (l lookupLimit) acquire(ctx context.Context, tool string) (release func(), refused *mcp.CallToolResult) {
	if l == nil {
		return func() {}, nil
	}
	select {
	case l <- struct{}{}:
		return func() { <-l }, nil
	default:
	}
	select {
	case l <- struct{}{}:
		return func() { <-l }, nil
	case <-ctx.Done():
		return nil, errorResult(fmt.Sprintf("%s: canceled while waiting for a turn (%d searches, lists and describes run at once): %v", tool, cap(l), ctx.Err()))
	}
}
