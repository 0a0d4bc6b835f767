package httpserve

import (
	"fmt"
	"net/http"
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

// refuseCrossOrigin returns middleware that answers 403 to a browser
// request from another origin, whatever its method.
//
// CrossOriginProtection lets GET, HEAD and OPTIONS through because they
// should not change state; an MCP endpoint has no business with any browser
// page from another origin, and a GET opens a stream of server messages, so
// every method is checked as if it were a POST.
func refuseCrossOrigin(cop *http.CrossOriginProtection) func(http.Handler) http.Handler {
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
			next.ServeHTTP(w, r)
		})
	}
}
