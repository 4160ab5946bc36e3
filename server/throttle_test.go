package server

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestWrongTokensAreSlowed: a client that sends wrong tokens (as a Bearer
// header, in a page URL, a cookie or to /session) is answered 429 with
// Retry-After after a few failures, while the right token is still
// accepted; a request without any token is not a failed attempt.
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
			f.srv.holdDelay.Store(0)
			f.srv.fails.now = frozen()
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
			if r := f.call("GET", "/debates", "", "Authorization", "Bearer right"); r.status != http.StatusOK {
				t.Fatalf("the right token while slowed: %d %s, want it accepted after the hold", r.status, r.raw)
			}
		})
	}
}

// forgive forgets every failed attempt.
func (f *failures) forgive() {
	f.mu.Lock()
	defer f.mu.Unlock()
	clear(f.m)
	f.order.Init()
	f.all = nil
}

// TestThrottleByNetwork: failed tokens count per client network, so that
// a guesser cannot get a new budget from each address of its network,
// past a global budget every network is slowed, and the right token is
// accepted all the same.
func TestThrottleByNetwork(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		addrs func(i int) string // the client address of the i-th wrong token
		// throttledAfter: the wrong tokens answered 401 before the first
		// 429.
		throttledAfter int
	}{
		{"loopback addresses are one client", func(i int) string { return "127.0." + strconv.Itoa(i/250) + "." + strconv.Itoa(i%250+1) }, failBurst},
		{"IPv6 loopback with IPv4 loopback", func(i int) string { return []string{"127.0.0.1", "[::1]"}[i%2] }, failBurst},
		{"an IPv6 /64 is one client", func(i int) string { return "[2001:db8::" + strconv.FormatInt(int64(i+1), 16) + "]" }, failBurst},
		{"other networks until the global budget", func(i int) string { return "10.0." + strconv.Itoa(i/250) + "." + strconv.Itoa(i%250+1) }, globalBurst},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := New(storeFor(t), Options{Token: "right", Logger: discardLogger()})
			srv.holdDelay.Store(0)
			srv.fails.now = frozen()
			call := func(addr, token string) int {
				r := httptest.NewRequest(http.MethodGet, "/health", nil)
				r.RemoteAddr = addr + ":40000"
				r.Header.Set("Authorization", "Bearer "+token)
				w := httptest.NewRecorder()
				srv.Handler().ServeHTTP(w, r)
				return w.Code
			}
			first := -1
			for i := range globalBurst + 10 {
				if code := call(tt.addrs(i), "wrong"); code == http.StatusTooManyRequests && first < 0 {
					first = i
				} else if code != http.StatusTooManyRequests && code != http.StatusUnauthorized {
					t.Fatalf("wrong token %d: %d", i, code)
				}
			}
			if first != tt.throttledAfter {
				t.Errorf("the first 429 after %d wrong tokens, want %d", first, tt.throttledAfter)
			}
			for i := range 3 {
				if code := call(tt.addrs(i), "right"); code != http.StatusOK {
					t.Errorf("the right token from %s: %d, want 200", tt.addrs(i), code)
				}
			}
		})
	}
}

// TestFailuresForgetOldest: a full table forgets the network that failed
// least recently, not everyone's failures.
func TestFailuresForgetOldest(t *testing.T) {
	t.Parallel()
	f := failures{max: 3, now: frozen()}
	nets := []netip.Prefix{clientNet(netip.MustParseAddr("10.0.0.1")), clientNet(netip.MustParseAddr("10.0.0.2")),
		clientNet(netip.MustParseAddr("10.0.0.3")), clientNet(netip.MustParseAddr("10.0.0.4"))}
	for _, n := range nets[:3] {
		for range failBurst {
			f.failed(n)
		}
	}
	f.failed(nets[3])
	for i, want := range []bool{false, true, true, false} {
		if got := f.blocked(nets[i]); got != want {
			t.Errorf("%v blocked: %v, want %v", nets[i], got, want)
		}
	}
}

// TestHeldWrongTokenIs429: a wrong token held because its network spent its
// budget is answered 429, though the budget refilled during the hold.
func TestHeldWrongTokenIs429(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Options{Token: "right"})
	f.srv.holdDelay.Store(int64(1100 * time.Millisecond)) // longer than one refill (failRate)
	for i := range failBurst {
		if r := f.call("GET", "/debates", "", "Authorization", "Bearer wrong"); r.status != http.StatusUnauthorized {
			t.Fatalf("attempt %d: %d, want 401", i+1, r.status)
		}
	}
	if r := f.call("GET", "/debates", "", "Authorization", "Bearer wrong"); r.status != http.StatusTooManyRequests {
		t.Fatalf("a held wrong token: %d, want 429", r.status)
	}
}

// frozen is a clock that stands still, so that no budget refills while a
// test spends it.
func frozen() func() time.Time {
	t0 := time.Now()
	return func() time.Time { return t0 }
}
