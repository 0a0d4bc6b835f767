package httpserve

import (
	"fmt"
	"net/http"
	"slices"
)

// newOriginCheck returns net/http's CrossOriginProtection with the given
// trusted origins ("scheme://host[:port]").
func newOriginCheck(trusted []string) (*http.CrossOriginProtection, error) {
	cop := http.NewCrossOriginProtection()
	for _, o := range trusted {
		if err := cop.AddTrustedOrigin(o); err != nil {
			return nil, fmt.Errorf("trusted origin %q: %w", o, err)
		}
	}
	return cop, nil
}

// CORS headers for a trusted origin. A browser page sends the MCP headers
// and the token, so every such request is preflighted; it must be able to
// read the session ID and the bearer challenge of the answers.
const (
	corsMethods = "GET, POST, DELETE"
	corsHeaders = "Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID"
	corsExpose  = "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate"
)

// refuseCrossOrigin returns middleware that answers 403 to a browser
// request from another origin, whatever its method, and lets a page of a
// trusted origin use the server: it answers that origin's CORS preflight
// (OPTIONS, without the token, which a browser never sends on one) and
// adds the CORS headers to the answers it gets.
//
// CrossOriginProtection lets GET, HEAD and OPTIONS through because they
// should not change state; an MCP endpoint has no business with any browser
// page from another origin, and a GET opens a stream of server messages, so
// every method is checked as if it were a POST.
func refuseCrossOrigin(cop *http.CrossOriginProtection, trusted []string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			probe := r
			if r.Method != http.MethodPost {
				c := *r
				c.Method = http.MethodPost
				probe = &c
			}
			if err := cop.Check(probe); err != nil {
				http.Error(w, "Forbidden: "+err.Error(), http.StatusForbidden)
				return
			}
			origin := r.Header.Get("Origin")
			if origin == "" || !slices.Contains(trusted, origin) {
				next.ServeHTTP(w, r)
				return
			}
			h := w.Header()
			h.Add("Vary", "Origin")
			h.Set("Access-Control-Allow-Origin", origin)
			if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
				h.Add("Vary", "Access-Control-Request-Method")
				h.Add("Vary", "Access-Control-Request-Headers")
				h.Set("Access-Control-Allow-Methods", corsMethods)
				h.Set("Access-Control-Allow-Headers", corsHeaders)
				h.Set("Access-Control-Max-Age", "600")
				w.WriteHeader(http.StatusNoContent)
				return
			}
			h.Set("Access-Control-Expose-Headers", corsExpose)
			next.ServeHTTP(w, r)
		})
	}
}
