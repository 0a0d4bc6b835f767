package httpserve_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/cobramcp/cobramcp/internal/httpserve"
)

// The handler stack in front of an endpoint: the health check is open,
// everything else needs the token and must not come from a foreign origin.
func ExampleServer_Handler() {
	endpoint := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello") })
	srv, err := httpserve.New(endpoint, httpserve.Options{Token: []byte("a-token-of-16-bytes-or-more")})
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()

	try := func(method, path string, header ...string) {
		req, _ := http.NewRequest(method, ts.URL+path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		resp.Body.Close()
		fmt.Println(method, path, header, resp.StatusCode)
	}
	try("GET", "/healthz")
	try("POST", "/mcp")
	try("POST", "/mcp", "Authorization", "Bearer a-token-of-16-bytes-or-more")
	try("POST", "/mcp", "Authorization", "Bearer a-token-of-16-bytes-or-more", "Origin", "https://evil.example")
	// Output:
	// GET /healthz [] 200
	// POST /mcp [] 401
	// POST /mcp [Authorization Bearer a-token-of-16-bytes-or-more] 200
	// POST /mcp [Authorization Bearer a-token-of-16-bytes-or-more Origin https://evil.example] 403
}
