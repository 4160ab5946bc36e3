package server

import (
	"container/list"
	"context"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/debatehq/debate/server/api"
)

// Defaults of the connection caps (Options.MaxConns, MaxConnsPerClient).
const (
	DefaultMaxConns          = 1024
	DefaultMaxConnsPerClient = 512
)

// limitListener bounds the connections a server holds open: at most max in
// all and perClient per client IP address. When a new connection would pass
// a cap, room is made within it:
//
//   - the oldest connection that is stuck (no request for freshGrace since
//     it opened, or a request body still arriving freshGrace after its
//     headers) is closed: a client sends its request at once, though a
//     busy server may take a while to read it;
//   - else the oldest idle keep-alive connection (between requests) is
//     retired: counted out of the caps at once, and closed after its next
//     answer, which carries Connection: close. Closing it now could cut a
//     request its client is sending on it, which the client cannot always
//     tell from a lost one. At most max connections are retiring; past
//     that the oldest of them is closed;
//   - when none is either, the new connection is answered 503 and closed.
//
// So a flood of slow connections costs at most max descriptors and
// goroutines (twice that while idle ones retire), a client that sends its
// request at once (/health) is served whatever the flood, and a client's
// keep-alive connection is never closed under a request.
//
// A flood of busy connections (each with a request in progress, none
// waiting) leaves nothing to close: then up to spares connections are taken
// past the caps, which answer /health and nothing else (see withConnLimits),
// so /health keeps answering. Only past those is a new connection refused.
//
// golang.org/x/net/netutil.LimitListener is not used: it blocks Accept when
// full, which leaves every new connection, /health's too, queued behind the
// slow ones (and x/net is not one of the project's libraries).
type limitListener struct {
	net.Listener
	max, perClient, spares int
	grace                  time.Duration // see freshGrace

	mu       sync.Mutex
	conns    list.List // of *limitedConn within the caps, oldest first
	extra    list.List // of *limitedConn past the caps, oldest first
	retiring list.List // of *limitedConn retired from the caps, oldest first
	perIP    map[netip.Addr]int
}

// spareConns is how many connections a limitListener takes past its caps
// for /health.
const spareConns = 8

// freshGrace is how long a new connection may wait for its first request
// before it counts as stuck.
const freshGrace = time.Second

func newLimitListener(ln net.Listener, max, perClient, spares int, grace time.Duration) *limitListener {
	return &limitListener{Listener: ln, max: max, perClient: perClient, spares: spares, grace: grace, perIP: map[netip.Addr]int{}}
}

// Accept returns the next connection within the caps.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if lc := l.admit(c); lc != nil {
			return lc, nil
		}
		refuse(c)
	}
}

// admit counts c in, closing the connections it evicts, or returns nil when
// no room can be made.
func (l *limitListener) admit(c net.Conn) *limitedConn {
	lc := &limitedConn{Conn: c, l: l, ip: clientIP(c.RemoteAddr()), born: time.Now()}
	lc.idle.Store(true)
	l.mu.Lock()
	evicted, ok := l.makeRoomLocked(lc.ip)
	switch {
	case ok:
		l.pushLocked(&l.conns, lc)
		l.perIP[lc.ip]++
	case l.extra.Len() < l.spares:
		lc.spare = true
		l.pushLocked(&l.extra, lc)
	default:
		if v := l.oldest(&l.extra, anyConn, func(c *limitedConn) bool { return c.stuck(l.grace) || c.keptAlive() }); v != nil {
			l.removeLocked(v)
			evicted = append(evicted, v)
			lc.spare = true
			l.pushLocked(&l.extra, lc)
		} else {
			lc = nil
		}
	}
	l.mu.Unlock()
	for _, v := range evicted {
		v.Conn.Close()
	}
	return lc
}

// makeRoomLocked makes room within the caps for a new connection from ip,
// and reports whether it could; evicted are the connections to close.
func (l *limitListener) makeRoomLocked(ip netip.Addr) (evicted []*limitedConn, ok bool) {
	if l.perIP[ip] >= l.perClient {
		if evicted, ok = l.makeRoomAmong(evicted, func(o *limitedConn) bool { return o.ip == ip }); !ok {
			return evicted, false
		}
	}
	if l.conns.Len() >= l.max {
		return l.makeRoomAmong(evicted, anyConn)
	}
	return evicted, true
}

// makeRoomAmong counts out one connection of l.conns in scope: the oldest
// stuck one, to be closed (appended to evicted), else the oldest idle one,
// retired. It reports whether there was one.
func (l *limitListener) makeRoomAmong(evicted []*limitedConn, in func(*limitedConn) bool) ([]*limitedConn, bool) {
	stuck := func(c *limitedConn) bool { return c.stuck(l.grace) }
	if v := l.oldest(&l.conns, in, stuck); v != nil {
		l.removeLocked(v)
		return append(evicted, v), true
	}
	v := l.oldest(&l.conns, in, (*limitedConn).keptAlive)
	if v == nil {
		return evicted, false
	}
	l.removeLocked(v)
	v.retire.Store(true)
	if l.retiring.Len() >= l.max {
		old := l.retiring.Front().Value.(*limitedConn)
		l.removeLocked(old)
		evicted = append(evicted, old)
	}
	l.pushLocked(&l.retiring, v)
	return evicted, true
}

// anyConn is the scope of every connection.
func anyConn(*limitedConn) bool { return true }

// oldest returns the oldest connection of conns in scope for which is
// holds, or nil.
func (l *limitListener) oldest(conns *list.List, in, is func(*limitedConn) bool) *limitedConn {
	for e := conns.Front(); e != nil; e = e.Next() {
		if c := e.Value.(*limitedConn); in(c) && is(c) {
			return c
		}
	}
	return nil
}

// pushLocked counts c into conns, one of l's lists.
func (l *limitListener) pushLocked(conns *list.List, c *limitedConn) {
	c.list = conns
	c.elem = conns.PushBack(c)
}

// removeLocked counts c out of its list, and out of its client's count when
// it was within the caps.
func (l *limitListener) removeLocked(c *limitedConn) {
	if c.elem == nil {
		return
	}
	c.list.Remove(c.elem)
	c.elem = nil
	if c.list == &l.conns {
		if l.perIP[c.ip]--; l.perIP[c.ip] <= 0 {
			delete(l.perIP, c.ip)
		}
	}
}

// open is the number of connections counted in: within the caps, past
// them, and retiring.
func (l *limitListener) open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.conns.Len() + l.extra.Len() + l.retiring.Len()
}

// tooMany, refusedBody and refused are the answer of a connection past the
// caps.
var (
	tooMany     = codeBody(api.CodeTooManyConnections, "the server holds too many connections", "try again in a moment")
	refusedBody = string(tooMany.AppendJSON([]byte(`{"success":false,"error":`))) + "}\n"
	refused     = []byte("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n" +
		"Retry-After: 1\r\nConnection: close\r\nContent-Length: " + strconv.Itoa(len(refusedBody)) + "\r\n\r\n" + refusedBody)
)

// refuse answers c 503 and closes it. The few bytes fit in a new socket's
// send buffer, so the write does not wait for the client.
func refuse(c net.Conn) {
	_ = c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
	_, _ = c.Write(refused)
	c.Close()
}

func clientIP(a net.Addr) netip.Addr {
	if ta, ok := a.(*net.TCPAddr); ok {
		ip, _ := netip.AddrFromSlice(ta.IP)
		return ip.Unmap()
	}
	return netip.Addr{}
}

// limitedConn is a connection counted by a limitListener.
type limitedConn struct {
	net.Conn
	l    *limitListener
	ip   netip.Addr
	born time.Time
	list *list.List    // the list of l that counts c; guarded by l.mu
	elem *list.Element // nil once counted out; guarded by l.mu
	// spare: taken past the caps, for /health alone.
	spare bool

	// idle: no request is being served (http.StateNew, StateIdle); served:
	// a request was answered, so an idle connection is a keep-alive one;
	// body: the request's body is still awaited (see withBodyGuard), since
	// bodySince;
	// answering: a handler took the request that is being served, so what
	// is written is its answer (see Write); retire: the next answer is the
	// last (see limitListener).
	idle, served, body, answering, retire atomic.Bool
	bodySince                             atomic.Int64 // Unix nanoseconds
}

// Write writes p, the answer of a handler as it is; an error answer that
// net/http wrote itself, with no handler, is rewritten into the JSON
// envelope (see envelopeOf).
func (c *limitedConn) Write(p []byte) (int, error) {
	if !c.answering.Load() {
		if b, ok := envelopeOf(p); ok {
			if _, err := c.Conn.Write(b); err != nil {
				return 0, err
			}
			return len(p), nil
		}
	}
	return c.Conn.Write(p)
}

// stuck reports whether c waits for its client in a request: its first
// request has not arrived within grace, or its body is still arriving.
func (c *limitedConn) stuck(grace time.Duration) bool {
	if c.body.Load() {
		return time.Since(time.Unix(0, c.bodySince.Load())) >= grace
	}
	return c.idle.Load() && !c.served.Load() && time.Since(c.born) >= grace
}

// keptAlive reports whether c is idle between requests.
func (c *limitedConn) keptAlive() bool { return c.idle.Load() && c.served.Load() }

// waitBody marks that the connection's request body is (or no longer is)
// awaited; c may be nil.
func (c *limitedConn) waitBody(on bool) {
	if c != nil {
		if on {
			c.bodySince.Store(time.Now().UnixNano())
		}
		c.body.Store(on)
	}
}

// Close counts the connection out and closes it.
func (c *limitedConn) Close() error {
	c.l.mu.Lock()
	c.l.removeLocked(c)
	c.l.mu.Unlock()
	return c.Conn.Close()
}

// connKey is the request context key of the request's *limitedConn.
type connKey struct{}

// withConn is an http.Server.ConnContext hook.
func withConn(ctx context.Context, c net.Conn) context.Context {
	if lc, ok := c.(*limitedConn); ok {
		return context.WithValue(ctx, connKey{}, lc)
	}
	return ctx
}

// connOf is r's connection when it came through a limitListener, else nil.
func connOf(r *http.Request) *limitedConn {
	lc, _ := r.Context().Value(connKey{}).(*limitedConn)
	return lc
}

// trackIdle is an http.Server.ConnState hook: it marks the connections that
// wait for a request.
func trackIdle(c net.Conn, st http.ConnState) {
	if lc, ok := c.(*limitedConn); ok {
		idle := st == http.StateNew || st == http.StateIdle
		lc.idle.Store(idle)
		if idle {
			lc.answering.Store(false)
		}
		if st == http.StateIdle {
			lc.served.Store(true)
		}
	}
}

// withConnLimits marks a request's connection as answered by a handler
// (see limitedConn.Write), makes the answer on a retiring connection its
// last (Connection: close), and, on a connection past the caps, serves
// /health alone: anything else is answered 503 TOO_MANY_CONNECTIONS and the
// connection closed.
func withConnLimits(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lc := connOf(r)
		if lc == nil {
			next.ServeHTTP(w, r)
			return
		}
		lc.answering.Store(true)
		if lc.retire.Load() {
			w.Header().Set("Connection", "close")
		}
		if lc.spare && !(r.URL.Path == "/health" && (r.Method == http.MethodGet || r.Method == http.MethodHead)) {
			h := w.Header()
			h.Set("Connection", "close")
			h.Set("Retry-After", "1")
			writeEnvelope(w, http.StatusServiceUnavailable, `{"success":false,"error":`, tooMany)
			return
		}
		next.ServeHTTP(w, r)
	})
}
