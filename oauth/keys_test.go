package oauth_test

import (
	"context"
	"crypto/rand"
	"sync"
	"testing"
	"time"

	"github.com/cobramcp/cobramcp/internal/oidctest"
	"github.com/cobramcp/cobramcp/oauth"
	"github.com/cobramcp/cobramcp/serve"
)

// minFetch is oauth's shortest time between two fetches of the issuer's
// keys that tokens can cause.
const minFetch = 10 * time.Second

// Forged tokens whose iss and aud are right (copied from the metadata)
// cannot make the server fetch the issuer's keys more than once per
// minFetch, however many there are and whatever key they
// name; a token of a key published by a rotation meanwhile is accepted
// within that interval (issue 34, item 2).
func TestForgedTokenFlood(t *testing.T) {
	idp := oidctest.Start(t)
	rs := newRS(t, idp)
	claims := map[string]any{"sub": "alice", "aud": resource}
	if _, err := rs.Verify(context.Background(), idp.Token(t, claims), nil); err != nil {
		t.Fatal(err)
	}
	start := idp.JWKSFetches()
	if start != 1 {
		t.Fatalf("%d fetches for the first token, want 1", start)
	}

	// 300 forged tokens: 100 naming keys never published, 100 naming
	// none, 100 naming the published key with another key's signature;
	// sent one after another, then all at once.
	published := idp.MockOIDC().Keypair
	sameKid := oidctest.NewKey(t)
	sameKid.Kid, _ = published.KeyID()
	other := oidctest.NewKey(t)
	var forged []string
	for i := 0; i < 100; i++ {
		forged = append(forged,
			idp.SignWith(t, other, map[string]any{"kid": rand.Text()}, claims),
			idp.SignWith(t, other, map[string]any{"kid": nil}, claims),
			idp.Sign(t, sameKid, "JWT", claims))
	}
	flood := func() {
		var wg sync.WaitGroup
		for _, tok := range forged {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				if info, err := rs.Verify(ctx, tok, nil); err == nil {
					t.Errorf("a forged token was accepted: %+v", info)
				}
			}()
		}
		wg.Wait()
	}
	began := time.Now()
	// One after another, as a script would send them (a client that gives
	// up after 20ms).
	for _, tok := range forged[:150] {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		if info, err := rs.Verify(ctx, tok, nil); err == nil {
			t.Errorf("a forged token was accepted: %+v", info)
		}
		cancel()
	}
	flood()
	// The first token naming an unknown key fetched the keys again; the
	// others joined that fetch or waited for the next allowed one.
	if n := idp.JWKSFetches() - start; n > 1 {
		t.Errorf("450 forged tokens in %v caused %d key set fetches, want at most 1", time.Since(began).Round(time.Millisecond), n)
	}

	// A rotation during a flood: the new key's token is accepted once the
	// next fetch is allowed, within the interval.
	idp.Rotate(t)
	fresh := idp.Token(t, claims)
	go flood()
	ctx, cancel := context.WithTimeout(context.Background(), 3*minFetch)
	defer cancel()
	rotated := time.Now()
	if _, err := rs.Verify(ctx, fresh, nil); err != nil {
		t.Fatalf("the new key's token after a rotation: %v", err)
	}
	if d := time.Since(rotated); d > minFetch+2*time.Second {
		t.Errorf("the new key's token was accepted %v after the rotation, want within %v", d, minFetch)
	}
	if n := idp.JWKSFetches() - start; n > 2 {
		t.Errorf("%d key set fetches, want at most 2 (one per %v)", n, minFetch)
	}
}

// A key removed at the provider is refused once the keys are older than
// serve.OAuthConfig.KeyRefresh, without any token naming a new key (issue 34, item
// 3); until then it keeps working.
func TestKeyRemoved(t *testing.T) {
	idp := oidctest.Start(t)
	const refresh = 2 * time.Second
	rs, err := oauth.New(context.Background(), serve.OAuthConfig{Issuer: idp.Issuer(), Resource: resource, KeyRefresh: refresh})
	if err != nil {
		t.Fatal(err)
	}
	claims := map[string]any{"sub": "alice", "aud": resource}
	old := idp.Token(t, claims)
	if _, err := rs.Verify(context.Background(), old, nil); err != nil {
		t.Fatal(err)
	}
	fetched := time.Now()
	idp.Rotate(t) // the old key is withdrawn
	for time.Since(fetched) < refresh {
		if _, err := rs.Verify(context.Background(), old, nil); err != nil && time.Since(fetched) < refresh-200*time.Millisecond {
			t.Fatalf("refused %v after the keys were fetched, before the refresh interval: %v", time.Since(fetched), err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	_, err = rs.Verify(context.Background(), old, nil)
	if err == nil {
		t.Fatalf("a token of the removed key is accepted %v after the keys were fetched (refresh %v)", time.Since(fetched), refresh)
	}
	t.Logf("refused: %v", err)
	if n := idp.JWKSFetches(); n != 2 {
		t.Errorf("%d key set fetches, want 2 (the first, the refresh)", n)
	}
}

// The provider's Cache-Control max-age shortens the refresh interval, to
// minFetch at the least.
func TestKeyRefreshMaxAge(t *testing.T) {
	idp := oidctest.Start(t)
	idp.SetKeyCacheControl("public, max-age=1")
	rs, err := oauth.New(context.Background(), serve.OAuthConfig{Issuer: idp.Issuer(), Resource: resource, KeyRefresh: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	claims := map[string]any{"sub": "alice", "aud": resource}
	old := idp.Token(t, claims)
	if _, err := rs.Verify(context.Background(), old, nil); err != nil {
		t.Fatal(err)
	}
	fetched := time.Now()
	idp.Rotate(t)
	time.Sleep(1500 * time.Millisecond)
	if _, err := rs.Verify(context.Background(), old, nil); err != nil {
		t.Fatalf("max-age=1 refreshed the keys sooner than %v: %v", minFetch, err)
	}
	for {
		if _, err := rs.Verify(context.Background(), old, nil); err != nil {
			break
		}
		if time.Since(fetched) > minFetch+3*time.Second {
			t.Fatalf("the removed key is still accepted %v after the fetch, with max-age=1", time.Since(fetched))
		}
		time.Sleep(200 * time.Millisecond)
	}
	if d := time.Since(fetched); d < minFetch {
		t.Errorf("refused after %v, before %v", d, minFetch)
	}
}
