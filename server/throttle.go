package server

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"sync"

	"golang.org/x/time/rate"

	"github.com/debatehq/debate/server/api"
)

// Failed token attempts are slowed per client IP address: a client may fail
// failBurst times at once, then once per second; past that its requests are
// answered 429 until it may try again, before any token is compared.
const (
	failBurst   = 5
	failRate    = rate.Limit(1)
	maxFailures = 4096 // clients tracked at once
)

// failures keeps the failed token attempts of recent clients.
type failures struct {
	mu sync.Mutex
	m  map[netip.Addr]*rate.Limiter
}

// blocked reports whether ip failed too often to try again now.
func (f *failures) blocked(ip netip.Addr) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	l := f.m[ip]
	return l != nil && l.Tokens() < 1
}

// failed counts a failed attempt of ip.
func (f *failures) failed(ip netip.Addr) {
	f.mu.Lock()
	defer f.mu.Unlock()
	l := f.m[ip]
	if l == nil {
		if len(f.m) >= maxFailures {
			for k, o := range f.m {
				if o.Tokens() >= failBurst {
					delete(f.m, k) // forgiven
				}
			}
			if len(f.m) >= maxFailures {
				clear(f.m)
			}
		}
		if f.m == nil {
			f.m = map[netip.Addr]*rate.Limiter{}
		}
		l = rate.NewLimiter(failRate, failBurst)
		f.m[ip] = l
	}
	l.Allow()
}

// remoteIP is the IP address of r's client.
func remoteIP(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, _ := netip.ParseAddr(host)
	return ip.Unmap()
}

// throttled answers a client that failed too many token attempts.
func (s *Server) throttled(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Retry-After", "1")
	s.writeErrorBody(w, r, http.StatusTooManyRequests, codeBody(api.CodeTooManyAttempts,
		"too many failed token attempts from this address", "wait a moment and send the server's token (--token or DEBATE_AUTH_TOKEN)"))
}

// presented reports whether r carries a token at all (see authorized).
func presented(r *http.Request) bool {
	return r.Header.Get("Authorization") != "" || sessionToken(r) != "" ||
		(r.Method == http.MethodGet && r.URL.Query().Get("token") != "")
}

// exchange answers a page asked for with the right ?token= by keeping the
// token in the session cookie and sending the browser to the same URL
// without it (303), so that the token stays out of the address bar, the
// history and the links of the page.
func (s *Server) exchange(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.setSession(w, r, q.Get("token"))
	q.Del("token")
	u := url.URL{Path: r.URL.Path, RawPath: r.URL.RawPath, RawQuery: q.Encode()}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
}

// tokenInPageURL reports whether r asks for a page with ?token= (and no
// Authorization header).
func (s *Server) tokenInPageURL(r *http.Request) bool {
	return (r.Method == http.MethodGet || r.Method == http.MethodHead) && r.Header.Get("Authorization") == "" &&
		s.opt.Pages != nil && r.URL.Query().Has("token") && s.opt.Pages.Page(r) != nil
}
