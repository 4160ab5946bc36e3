package server

import (
	"cmp"
	"container/list"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/debatehq/debate/server/api"
)

// Failed token attempts are slowed per client network (see clientNet) and
// in all: a network may fail failBurst times at once, then once per second,
// and all networks together globalBurst times, then globalRate times per
// second. Past either budget a wrong token is answered 429, and every
// token from that network (from any network, past the global budget) is
// compared only after holdDelay. A right token is always accepted, after
// that wait at worst; wrong ones cost the guesser holdDelay each, so that
// the connection caps bound the guesses per second.
const (
	failBurst   = 5
	failRate    = rate.Limit(1)
	globalBurst = 100
	globalRate  = rate.Limit(10)
	maxFailures = 4096 // networks tracked at once; the least recently failed is forgotten first
	holdDelay   = 2 * time.Second
)

// failures keeps the failed token attempts of recent client networks.
type failures struct {
	mu    sync.Mutex
	m     map[netip.Prefix]*list.Element // of *failing
	order list.List                      // of *failing, least recently failed first
	all   *rate.Limiter                  // every network's failures
	max   int                            // maxFailures when 0
	now   func() time.Time               // time.Now when nil
}

func (f *failures) clock() time.Time {
	if f.now != nil {
		return f.now()
	}
	return time.Now()
}

// failing is the failure budget of one network.
type failing struct {
	net netip.Prefix
	lim *rate.Limiter
}

// blocked reports whether the failure budget of net, or the global one, is
// spent.
func (f *failures) blocked(net netip.Prefix) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.clock()
	if f.all != nil && f.all.TokensAt(now) < 1 {
		return true
	}
	e := f.m[net]
	return e != nil && e.Value.(*failing).lim.TokensAt(now) < 1
}

// failed counts a failed attempt from net, and reports whether it was
// within both budgets.
func (f *failures) failed(net netip.Prefix) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.m == nil {
		f.m = map[netip.Prefix]*list.Element{}
	}
	if f.all == nil {
		f.all = rate.NewLimiter(globalRate, globalBurst)
	}
	e := f.m[net]
	if e == nil {
		if len(f.m) >= cmp.Or(f.max, maxFailures) {
			old := f.order.Front()
			delete(f.m, old.Value.(*failing).net)
			f.order.Remove(old)
		}
		e = f.order.PushBack(&failing{net: net, lim: rate.NewLimiter(failRate, failBurst)})
		f.m[net] = e
	}
	f.order.MoveToBack(e)
	now := f.clock()
	own := e.Value.(*failing).lim.AllowN(now, 1)
	return f.all.AllowN(now, 1) && own
}

// heldKey is the request context key set when the request's token was
// held (see hold).
type heldKey struct{}

// failed counts a wrong token of r from net and reports whether to answer
// it 429: when it was held, or is past a budget now. (The budget refills
// while a token is held, so the hold itself is what tells.)
func (s *Server) failed(r *http.Request, net netip.Prefix) bool {
	within := s.fails.failed(net)
	return !within || r.Context().Value(heldKey{}) != nil
}

// clientNet is the network a client address is counted in: the loopback
// addresses as one, an IPv4 address alone, an IPv6 address with its /64.
func clientNet(ip netip.Addr) netip.Prefix {
	switch {
	case ip.IsLoopback():
		return loopbackNet
	case ip.Is4():
		return netip.PrefixFrom(ip, 32)
	case ip.IsValid():
		return netip.PrefixFrom(ip, 64).Masked()
	}
	return netip.Prefix{}
}

var loopbackNet = netip.MustParsePrefix("127.0.0.0/8")

// hold waits before a token from a network past its budget is compared:
// holdDelay, or until the client leaves or the server stops. It reports
// whether the wait ran its course.
func (s *Server) hold(r *http.Request) bool {
	t := time.NewTimer(time.Duration(s.holdDelay.Load()))
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
	case <-s.stopCtx.Done():
	}
	return false
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
		"too many failed token attempts from this network", "wait a moment and send the server's token (--token or DEBATE_AUTH_TOKEN)"))
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
