package oauth

import (
	"net/http"
	"testing"
	"time"
)

func TestMaxAge(t *testing.T) {
	for _, tt := range []struct {
		header []string
		want   time.Duration
	}{
		{nil, -1},
		{[]string{"no-cache"}, -1},
		{[]string{"no-store, no-cache, must-revalidate"}, -1},
		{[]string{"public, max-age=3600"}, time.Hour},
		{[]string{"Max-Age=60"}, time.Minute},
		{[]string{`max-age="120"`}, 2 * time.Minute},
		{[]string{"public", "max-age=0"}, 0},
		{[]string{"max-age=-5"}, -1},
		{[]string{"max-age=soon"}, -1},
		{[]string{"max-age=99999999999999"}, 365 * 24 * time.Hour},
	} {
		h := http.Header{}
		for _, v := range tt.header {
			h.Add("Cache-Control", v)
		}
		if got := maxAge(h); got != tt.want {
			t.Errorf("Cache-Control %q: max-age %v, want %v", tt.header, got, tt.want)
		}
	}
}

// The refresh interval is the operator's, shortened by max-age, never
// below minRefetch.
func TestKeyInterval(t *testing.T) {
	ks := &keySet{refresh: 15 * time.Minute, minRefetch: minKeyFetchInterval}
	for _, tt := range []struct{ maxAge, want time.Duration }{
		{-1, 15 * time.Minute},
		{time.Hour, 15 * time.Minute},
		{5 * time.Minute, 5 * time.Minute},
		{0, minKeyFetchInterval},
		{time.Second, minKeyFetchInterval},
	} {
		if got := ks.interval(tt.maxAge); got != tt.want {
			t.Errorf("max-age %v: interval %v, want %v", tt.maxAge, got, tt.want)
		}
	}
}
