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
	DefaultMaxConnsPerClient = 256
)

// limitListener bounds the connections a server holds open: at most max in
// all and perClient per client IP address. When a new connection would pass
// a cap, the oldest connection within it that waits for its client (no
// request yet, idle between requests, or a request body still arriving) is
// closed to make room; when none waits, the new connection is answered 503
// and closed. So a flood of slow connections costs at most max descriptors
// and goroutines, and a client that sends its request at once (/health) is
// served whatever the flood.
//
// golang.org/x/net/netutil.LimitListener is not used: it blocks Accept when
// full, which leaves every new connection, /health's too, queued behind the
// slow ones (and x/net is not one of the project's libraries).
type limitListener struct {
	net.Listener
	max, perClient int

	mu    sync.Mutex
	conns list.List // of *limitedConn, oldest first
	perIP map[netip.Addr]int
}

func newLimitListener(ln net.Listener, max, perClient int) *limitListener {
	return &limitListener{Listener: ln, max: max, perClient: perClient, perIP: map[netip.Addr]int{}}
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
	ip := clientIP(c.RemoteAddr())
	l.mu.Lock()
	var evicted []*limitedConn
	if l.perIP[ip] >= l.perClient {
		v := l.oldestWaiting(func(o *limitedConn) bool { return o.ip == ip })
		if v == nil {
			l.mu.Unlock()
			return nil
		}
		l.removeLocked(v)
		evicted = append(evicted, v)
	}
	if l.conns.Len() >= l.max {
		v := l.oldestWaiting(func(*limitedConn) bool { return true })
		if v == nil {
			l.mu.Unlock()
			for _, v := range evicted {
				v.Conn.Close()
			}
			return nil
		}
		l.removeLocked(v)
		evicted = append(evicted, v)
	}
	lc := &limitedConn{Conn: c, l: l, ip: ip}
	lc.idle.Store(true)
	lc.elem = l.conns.PushBack(lc)
	l.perIP[ip]++
	l.mu.Unlock()
	for _, v := range evicted {
		v.Conn.Close()
	}
	return lc
}

// oldestWaiting returns the oldest connection in scope that waits for its
// client, or nil.
func (l *limitListener) oldestWaiting(in func(*limitedConn) bool) *limitedConn {
	for e := l.conns.Front(); e != nil; e = e.Next() {
		if c := e.Value.(*limitedConn); in(c) && c.waiting() {
			return c
		}
	}
	return nil
}

func (l *limitListener) removeLocked(c *limitedConn) {
	if c.elem == nil {
		return
	}
	l.conns.Remove(c.elem)
	c.elem = nil
	if l.perIP[c.ip]--; l.perIP[c.ip] <= 0 {
		delete(l.perIP, c.ip)
	}
}

// open is the number of connections counted in.
func (l *limitListener) open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.conns.Len()
}

// refusedBody and refused are the answer of a connection past the caps.
var (
	refusedBody = `{"success":false,"error":{"code":"` + api.CodeTooManyConnections +
		`","message":"the server holds too many connections","suggestion":"try again in a moment"}}` + "\n"
	refused = []byte("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n" +
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
	elem *list.Element // nil once counted out; guarded by l.mu

	// idle: no request is being served (http.StateNew, StateIdle); body:
	// the request's body is still awaited (see withBodyGuard).
	idle, body atomic.Bool
}

func (c *limitedConn) waiting() bool { return c.idle.Load() || c.body.Load() }

// waitBody marks that the connection's request body is (or no longer is)
// awaited; c may be nil.
func (c *limitedConn) waitBody(on bool) {
	if c != nil {
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
		lc.idle.Store(st == http.StateNew || st == http.StateIdle)
	}
}
