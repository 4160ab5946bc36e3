package server

import (
	"net/http"
	"strings"
	"testing"
)

// TestWrongTokensAreSlowed: a client that sends wrong tokens (as a Bearer
// header, in a page URL, a cookie or to /session) is answered 429 with
// Retry-After after a few failures, whatever it sends next; a request
// without any token is not a failed attempt.
func TestWrongTokensAreSlowed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		attempt func(f *fixture) response
	}{
		{"bearer", func(f *fixture) response { return f.call("GET", "/debates", "", "Authorization", "Bearer wrong") }},
		{"query", func(f *fixture) response { return f.call("GET", "/debates?token=wrong", "") }},
		{"cookie", func(f *fixture) response { return f.call("GET", "/debates", "", "Cookie", sessionCookie+"=wrong") }},
		{"session", func(f *fixture) response { return f.call("POST", SessionPath, `{"token":"wrong"}`) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, Options{Token: "right"})
			for range 10 {
				if r := f.call("GET", "/debates", ""); r.status != http.StatusUnauthorized {
					t.Fatalf("no token: %d %s", r.status, r.raw)
				}
			}
			for i := range failBurst {
				if r := tt.attempt(f); r.status != http.StatusUnauthorized {
					t.Fatalf("attempt %d: %d %s, want 401", i+1, r.status, r.raw)
				}
			}
			r := tt.attempt(f)
			if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" || r.env.Error == nil ||
				!strings.Contains(r.env.Error.Code, "TOO_MANY_ATTEMPTS") {
				t.Fatalf("attempt %d: %d %v %s, want 429 with Retry-After", failBurst+1, r.status, r.header, r.raw)
			}
			if r := f.call("GET", "/debates", "", "Authorization", "Bearer right"); r.status != http.StatusTooManyRequests {
				t.Fatalf("the right token while slowed: %d, want 429 before any comparison", r.status)
			}
		})
	}
}

// forgive forgets every failed attempt.
func (f *failures) forgive() {
	f.mu.Lock()
	defer f.mu.Unlock()
	clear(f.m)
}
