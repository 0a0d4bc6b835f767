package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// minKeyFetchInterval is the shortest time between two fetches of the
// issuer's keys that tokens can cause (by naming a key not yet seen), and
// the shortest refresh interval that the issuer's Cache-Control max-age
// can ask for.
const minKeyFetchInterval = 10 * time.Second

// Bounds of a key set fetch.
const (
	maxKeySetBytes  = 1 << 20
	keyFetchTimeout = 30 * time.Second
	// staleWait is how long a verification waits for the periodic
	// refresh before it goes on with the keys it has (the issuer is slow
	// or down).
	staleWait = 2 * time.Second
)

// keySet is the issuer's signing keys, as go-oidc's verifier asks for
// them (an oidc.KeySet), fetched from its jwks_uri:
//
//   - when a verification first needs them;
//   - again once they are older than their refresh interval: refresh
//     (serve.OAuthConfig.KeyRefresh), or less when the answer's Cache-Control max-age
//     says so, never less than minKeyFetchInterval; a key removed at the
//     provider is refused after that interval;
//   - again when a token names a key (kid) that is not among them, or
//     names none and no key verifies it: a rotation. Such fetches start
//     at most once per minRefetch, whatever the number of tokens (forged
//     ones cannot turn the server into a flood against the provider); a
//     token that comes meanwhile waits for the next one.
//
// Every verification that needs a fetch while one runs shares it. When a
// fetch fails, the keys fetched before keep working. A token whose kid
// names a key that does not verify it never causes a fetch.
type keySet struct {
	url        string
	client     *http.Client
	algs       []jose.SignatureAlgorithm
	refresh    time.Duration // the longest time keys are used
	minRefetch time.Duration // the shortest time between two fetches caused by tokens
	log        *slog.Logger

	mu        sync.Mutex
	keys      []jose.JSONWebKey   // nil before the first fetch that succeeded
	expires   time.Time           // when keys must be fetched again
	nextMiss  time.Time           // before it, a token naming an unknown key waits
	gen       uint64              // counts the fetches that succeeded
	withdrawn map[string]struct{} // the kids of the keys before that are not among keys
	inflight  *keyFetch
}

// keyFetch is one fetch of the key set, which every verification that
// needs it waits for.
type keyFetch struct {
	done chan struct{}
	err  error // set before done is closed
}

func newKeySet(url string, client *http.Client, algs []string, refresh time.Duration, log *slog.Logger) *keySet {
	ks := &keySet{url: url, client: client, refresh: refresh, minRefetch: minKeyFetchInterval, log: log}
	for _, a := range algs {
		ks.algs = append(ks.algs, jose.SignatureAlgorithm(a))
	}
	return ks
}

// VerifySignature checks the signature of the compact JWS jwt with the
// issuer's keys and returns its payload. It is go-oidc's oidc.KeySet.
func (ks *keySet) VerifySignature(ctx context.Context, jwt string) ([]byte, error) {
	jws, err := jose.ParseSignedCompact(jwt, ks.algs)
	if err != nil {
		return nil, fmt.Errorf("malformed token: %v", err)
	}
	if len(jws.Signatures) != 1 {
		return nil, errors.New("malformed token: want one signature")
	}
	h := jws.Signatures[0].Header
	keys, gen, err := ks.current(ctx)
	if err != nil {
		return nil, err
	}
	payload, known := verifyWith(jws, keys, h)
	if payload != nil {
		return payload, nil
	}
	if known {
		// The key it names is the issuer's, and its signature does not
		// verify: forged. Fetching again would change nothing.
		return nil, fmt.Errorf("signature does not verify with the issuer's key %q", h.KeyID)
	}
	if h.KeyID != "" && ks.withdrawnKey(h.KeyID) {
		return nil, fmt.Errorf("the token's key %q was withdrawn by the issuer", h.KeyID)
	}
	// A key not seen yet: a rotation, or a forgery.
	if keys, err = ks.refetch(ctx, gen); err != nil {
		return nil, err
	}
	if payload, _ := verifyWith(jws, keys, h); payload != nil {
		return payload, nil
	}
	if h.KeyID == "" {
		return nil, errors.New("no key of the issuer verifies the token (its header names no key)")
	}
	return nil, fmt.Errorf("the token's key %q is not among the issuer's keys", h.KeyID)
}

// verifyWith verifies jws with the key among keys that its header names
// (every key when it names none), and reports whether its header names a
// key that is among keys.
func verifyWith(jws *jose.JSONWebSignature, keys []jose.JSONWebKey, h jose.Header) (payload []byte, known bool) {
	for i := range keys {
		k := &keys[i]
		if h.KeyID != "" && k.KeyID != h.KeyID {
			continue
		}
		known = h.KeyID != ""
		if k.Algorithm != "" && k.Algorithm != h.Algorithm {
			continue // RFC 7517 4.4: the key is for another algorithm
		}
		if p, err := jws.Verify(k); err == nil {
			return p, known
		}
	}
	return nil, known
}

// current returns the keys to verify with, and their generation: those
// fetched, fetched first when there are none yet or they are older than
// their interval. A refresh that fails or takes longer than staleWait
// leaves the keys already fetched in use.
func (ks *keySet) current(ctx context.Context) ([]jose.JSONWebKey, uint64, error) {
	ks.mu.Lock()
	keys, gen := ks.keys, ks.gen
	if keys != nil && time.Now().Before(ks.expires) {
		ks.mu.Unlock()
		return keys, gen, nil
	}
	f := ks.startLocked()
	ks.mu.Unlock()
	var timeout <-chan time.Time
	if keys != nil {
		t := time.NewTimer(staleWait)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-f.done:
	case <-timeout:
		return keys, gen, nil
	case <-ctx.Done():
		if keys != nil {
			return keys, gen, nil
		}
		return nil, 0, fmt.Errorf("fetching the issuer's keys: %w", ctx.Err())
	}
	ks.mu.Lock()
	keys, gen = ks.keys, ks.gen
	ks.mu.Unlock()
	if keys == nil {
		return nil, 0, fmt.Errorf("fetching the issuer's keys: %w", f.err)
	}
	return keys, gen, nil
}

// refetch returns keys newer than generation gen, for a token that names
// a key not among those: the keys fetched since, else those of a fetch it
// starts or joins. A fetch caused this way starts at most once per
// minRefetch: a token that comes sooner waits for the next one (or its
// context's end).
func (ks *keySet) refetch(ctx context.Context, gen uint64) ([]jose.JSONWebKey, error) {
	for {
		ks.mu.Lock()
		if ks.gen != gen {
			keys := ks.keys
			ks.mu.Unlock()
			return keys, nil
		}
		f := ks.inflight
		wait := time.Until(ks.nextMiss)
		if f == nil && wait <= 0 {
			ks.nextMiss = time.Now().Add(ks.minRefetch)
			f = ks.startLocked()
		}
		ks.mu.Unlock()
		if f == nil {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
				continue
			case <-ctx.Done():
				t.Stop()
				return nil, fmt.Errorf("waiting for the issuer's keys: %w", ctx.Err())
			}
		}
		select {
		case <-f.done:
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for the issuer's keys: %w", ctx.Err())
		}
		if f.err != nil {
			return nil, fmt.Errorf("fetching the issuer's keys: %w", f.err)
		}
	}
}

// withdrawnKey reports whether kid named a key of the issuer's that a
// later fetch no longer had: the token is refused without a fetch.
func (ks *keySet) withdrawnKey(kid string) bool {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	_, ok := ks.withdrawn[kid]
	return ok
}

// maxWithdrawn bounds the withdrawn kids remembered.
const maxWithdrawn = 256

// withdrawn returns the kids of was (those withdrawn before) and of
// before that are not among after, at most maxWithdrawn of them.
func withdrawn(was map[string]struct{}, before, after []jose.JSONWebKey) map[string]struct{} {
	out := map[string]struct{}{}
	for kid := range was {
		out[kid] = struct{}{}
	}
	for _, b := range before {
		if b.KeyID != "" {
			out[b.KeyID] = struct{}{}
		}
	}
	for _, a := range after {
		delete(out, a.KeyID)
	}
	for kid := range out {
		if len(out) <= maxWithdrawn {
			break
		}
		delete(out, kid)
	}
	return out
}

// startLocked starts a fetch unless one runs, and returns the one that
// runs. ks.mu is held.
func (ks *keySet) startLocked() *keyFetch {
	if ks.inflight != nil {
		return ks.inflight
	}
	f := &keyFetch{done: make(chan struct{})}
	ks.inflight = f
	go func() {
		keys, maxAge, err := ks.fetch()
		now := time.Now()
		ks.mu.Lock()
		if err == nil {
			ks.withdrawn = withdrawn(ks.withdrawn, ks.keys, keys)
			ks.keys = keys
			ks.gen++
			ks.expires = now.Add(ks.interval(maxAge))
		} else {
			// Try again after a while; meanwhile the keys fetched before
			// keep working.
			ks.expires = now.Add(ks.minRefetch)
			ks.log.Warn("cannot fetch the OAuth issuer's keys; the keys fetched before keep working", "jwks_uri", ks.url, "err", err)
		}
		f.err = err
		ks.inflight = nil
		ks.mu.Unlock()
		close(f.done)
	}()
	return f
}

// interval is how long keys fetched with the answer's max-age (negative
// when it had none) are used.
func (ks *keySet) interval(maxAge time.Duration) time.Duration {
	if maxAge < 0 {
		return ks.refresh
	}
	return min(ks.refresh, max(maxAge, ks.minRefetch))
}

// fetch gets the key set and its Cache-Control max-age (-1 when none).
// Keys that go-jose cannot read, or that are for encryption, are left out
// (and logged); a set with no key left is an error.
func (ks *keySet) fetch() ([]jose.JSONWebKey, time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), keyFetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ks.url, nil)
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Accept", "application/json, application/jwk-set+json")
	resp, err := ks.client.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxKeySetBytes+1))
	if err != nil {
		return nil, 0, fmt.Errorf("GET %s: %v", ks.url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, 0, fmt.Errorf("GET %s: %s", ks.url, resp.Status)
	}
	if len(body) > maxKeySetBytes {
		return nil, 0, fmt.Errorf("GET %s: a key set larger than %d bytes", ks.url, maxKeySetBytes)
	}
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(body, &set); err != nil {
		return nil, 0, fmt.Errorf("GET %s: not a JSON key set: %v", ks.url, err)
	}
	var keys []jose.JSONWebKey
	for i, raw := range set.Keys {
		var k jose.JSONWebKey
		if err := k.UnmarshalJSON(raw); err != nil {
			ks.log.Warn("leaving out a key of the OAuth issuer that cannot be read", "jwks_uri", ks.url, "index", i, "err", err)
			continue
		}
		if k.Use == "enc" || !k.IsPublic() {
			continue
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, 0, fmt.Errorf("GET %s: no signing key in the key set", ks.url)
	}
	return keys, maxAge(resp.Header), nil
}

// maxAge reads the max-age directive of h's Cache-Control; -1 when there
// is none.
func maxAge(h http.Header) time.Duration {
	for _, v := range h.Values("Cache-Control") {
		for _, d := range strings.Split(v, ",") {
			name, val, ok := strings.Cut(strings.TrimSpace(d), "=")
			if !ok || !strings.EqualFold(name, "max-age") {
				continue
			}
			n, err := strconv.ParseInt(strings.Trim(val, `"`), 10, 64)
			if err != nil || n < 0 {
				return -1
			}
			return time.Duration(min(n, int64(365*24*3600))) * time.Second
		}
	}
	return -1
}
