package httpserve

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// slowRequest opens a connection to addr and sends a POST whose headers
// announce a body of 1000 bytes, with auth as its Authorization header
// (none when empty), and only the first 10 bytes of that body. It returns
// the connection, which the caller closes.
func slowRequest(t *testing.T, addr, auth string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n", addr)
	if auth != "" {
		fmt.Fprintf(&b, "Authorization: %s\r\n", auth)
	}
	b.WriteString("\r\n{\"jsonrpc\"")
	if _, err := c.Write([]byte(b.String())); err != nil {
		t.Fatal(err)
	}
	return c
}

// status reads the status code of the response on c; a safety net of 20s
// fails the test rather than hang it.
func status(t *testing.T, c net.Conn) int {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Errorf("no response while the body is incomplete: %v", err)
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestSlowBody checks that a request whose body never completes is
// answered without waiting for it: 401 at once without the token, 408
// once the body timeout is over with it.
func TestSlowBody(t *testing.T) {
	srv, err := New(echo, Options{Token: []byte(testToken), BodyTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := started(t, srv)
	addr := strings.TrimPrefix(url, "http://")

	t.Run("without token", func(t *testing.T) {
		c := slowRequest(t, addr, "")
		defer c.Close()
		if got := status(t, c); got != http.StatusUnauthorized {
			t.Errorf("status %d, want 401", got)
		}
	})
	t.Run("wrong token", func(t *testing.T) {
		c := slowRequest(t, addr, "Bearer wrong-token-0123456789")
		defer c.Close()
		if got := status(t, c); got != http.StatusUnauthorized {
			t.Errorf("status %d, want 401", got)
		}
	})
	t.Run("with token", func(t *testing.T) {
		c := slowRequest(t, addr, "Bearer "+testToken)
		defer c.Close()
		if got := status(t, c); got != http.StatusRequestTimeout {
			t.Errorf("status %d, want 408", got)
		}
	})
}

// TestSlowConnectionsDoNotLockOut opens many connections that send their
// body slowly, with and without the token, and checks that an
// authenticated client is still served meanwhile and that every request
// without the token got its 401.
func TestSlowConnectionsDoNotLockOut(t *testing.T) {
	const unauthenticated, authenticated = 300, 50
	srv, err := New(echo, Options{Token: []byte(testToken)}) // the default body timeout: longer than the test
	if err != nil {
		t.Fatal(err)
	}
	url, _ := started(t, srv)
	addr := strings.TrimPrefix(url, "http://")

	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range authenticated {
		conns = append(conns, slowRequest(t, addr, "Bearer "+testToken))
	}
	var wg sync.WaitGroup
	refused := make(chan int, unauthenticated)
	for range unauthenticated {
		c := slowRequest(t, addr, "")
		conns = append(conns, c)
		wg.Add(1)
		go func() {
			defer wg.Done()
			refused <- status(t, c)
		}()
	}

	req, err := http.NewRequest("POST", url+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	hc := &http.Client{Timeout: 20 * time.Second}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatalf("an authenticated client beside %d slow connections: %v", unauthenticated+authenticated, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("an authenticated client beside slow connections: status %d", resp.StatusCode)
	}

	wg.Wait()
	close(refused)
	n := 0
	for code := range refused {
		if code == http.StatusUnauthorized {
			n++
		}
	}
	if n != unauthenticated {
		t.Errorf("%d of %d slow requests without the token got 401", n, unauthenticated)
	}
}
