package serve

import (
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Stdio serves srv on in and out until in ends or ctx is done. A session
// that ends because in reached its end, or because ctx was cancelled,
// returns nil.
//
// When in is an *os.File on a pipe or a socket (a client's stdin), Stdio
// reads it through Go's poller, in non-blocking mode for as long as it
// serves: nothing else may read in meanwhile.
func Stdio(ctx context.Context, srv *mcp.Server, in io.Reader, out io.Writer) error {
	r, stop, undo := pollable(in)
	defer undo()
	defer context.AfterFunc(ctx, stop)() // a read waiting for the next line ends with ctx
	err := srv.Run(ctx, stdioTransport(r, out, maxMessage))
	if err == nil || ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// requestKey is the context key under which withRequestContext keeps the
// HTTP request's own context.
type requestKey struct{}

// withRequestContext keeps the request's context as a value of itself. In
// stateless mode each POST connects a session of its own with the request's
// context, whose values (not its cancellation) reach the tool handlers.
func withRequestContext(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestKey{}, r.Context())))
	})
}

// endWithRequest ends a stateless tool call when its HTTP request ends (the
// client went away or closed the stream): the result could not be delivered
// anyway. The go-sdk does this itself only for protocol versions from
// 2026-07-28 on (PropagateRequestCancellation); with older ones a
// stateless server cannot route notifications/cancelled to the call, so
// closing the request is the only way a client can stop it.
func endWithRequest(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if rc, ok := ctx.Value(requestKey{}).(context.Context); ok && method == "tools/call" {
			var cancel context.CancelFunc
			ctx, cancel = context.WithCancel(ctx)
			defer cancel()
			defer context.AfterFunc(rc, cancel)()
		}
		return next(ctx, method, req)
	}
}
