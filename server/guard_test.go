package server

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/store"
)

// serveLoopback runs srv on a loopback listener until t ends and returns
// its address.
func serveLoopback(t *testing.T, srv *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		stop()
		if err := <-served; err != nil {
			t.Error(err)
		}
	})
	return ln.Addr().String()
}

// sendPartial opens a connection and sends head, a request whose body
// declares more bytes than follow it, and keeps the rest back.
func sendPartial(t *testing.T, addr, head string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	// A guard against a hang only: the body timeout below is a minute, so
	// an answer in time was not waiting for the body.
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.WriteString(c, head); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestUnreadBodyHoldsNothing: a request whose body dribbles is answered
// without waiting for the body when its route reads none, or when it is
// refused before the body is read (a missing token), and its connection is
// closed after the answer.
func TestUnreadBodyHoldsNothing(t *testing.T) {
	t.Parallel()
	const token = "s3cret"
	open := New(storeFor(t), Options{Logger: discardLogger(), BodyTimeout: time.Minute})
	locked := New(storeFor(t), Options{Logger: discardLogger(), BodyTimeout: time.Minute, Token: token})
	openAddr, lockedAddr := serveLoopback(t, open), serveLoopback(t, locked)
	partial := func(method, path, auth string) string {
		h := method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n"
		if auth != "" {
			h += "Authorization: Bearer " + auth + "\r\n"
		}
		return h + "\r\n" + `{"content":"`
	}
	tests := []struct {
		name, addr, head string
		status           int
	}{
		{"health", openAddr, partial("GET", "/health", ""), 200},
		{"unknown route", openAddr, partial("POST", "/nowhere", ""), 404},
		{"read", openAddr, partial("GET", "/debates", ""), 200},
		{"delete", openAddr, partial("DELETE", "/debates/none", ""), 404},
		{"not JSON", openAddr, strings.Replace(partial("POST", "/debates", ""), "application/json", "text/plain", 1), 415},
		{"no token, write", lockedAddr, partial("POST", "/debates", ""), 401},
		{"wrong token, write", lockedAddr, partial("POST", "/debates/d1/arguments", "nope"), 401},
		{"no token, health", lockedAddr, partial("GET", "/health", ""), 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := sendPartial(t, tt.addr, tt.head)
			br := bufio.NewReader(c)
			res, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatalf("no answer while the body is held back: %v", err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tt.status || !strings.HasPrefix(string(b), `{"success":`) {
				t.Fatalf("got %d %s, want %d in the JSON envelope", res.StatusCode, b, tt.status)
			}
			assertClosed(t, br)
		})
	}
}

// assertClosed checks that the server closed the connection behind br.
func assertClosed(t *testing.T, br *bufio.Reader) {
	t.Helper()
	if _, err := br.ReadByte(); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the connection is still open after the answer (read: %v)", err)
	}
}

// TestSlowFlood opens many more slow connections than the server's caps,
// half stuck in their headers and half in their bodies, while /health is
// asked after every batch: /health always answers 200, and the server's open
// connections, file descriptors and goroutines stay bounded by the caps.
func TestSlowFlood(t *testing.T) {
	const (
		maxConns, perClient = 128, 64
		flood, batch        = 2000, 100
	)
	srv := New(storeFor(t), Options{Logger: discardLogger(), MaxConns: maxConns, MaxConnsPerClient: perClient})
	srv.freshGrace = 0 // the flood's connections count as stuck at once
	addr := serveLoopback(t, srv)
	health := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	ask := func() {
		t.Helper()
		res, err := health.Get("http://" + addr + "/health")
		if err != nil {
			t.Fatalf("health under the flood: %v", err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("health under the flood: %d %s", res.StatusCode, b)
		}
	}
	ask()
	runtime.GC()
	fds0, g0 := openFDs(t), runtime.NumGoroutine()
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	maxFDs, maxG := 0, 0
	for i := range flood {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("dial %d: %v", i, err)
		}
		conns = append(conns, c)
		head := "GET /debates HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " // headers never end
		if i%2 == 1 {
			head = "POST /debates HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
		}
		_, _ = io.WriteString(c, head)
		if (i+1)%batch == 0 {
			ask()
			// The flood's own client sockets are this process's too:
			// count the server's.
			maxFDs = max(maxFDs, openFDs(t)-fds0-len(conns))
			maxG = max(maxG, runtime.NumGoroutine()-g0)
			if n := srv.OpenConns(); n > perClient {
				t.Fatalf("after %d slow connections the server holds %d, past its cap of %d", i+1, n, perClient)
			}
		}
	}
	t.Logf("%d slow connections (caps %d, %d per client): /health answered %d times; at most %d more descriptors and %d more goroutines on the server",
		flood, maxConns, perClient, flood/batch, maxFDs, maxG)
	// Bounds: one descriptor and about two goroutines (the connection's and
	// net/http's background read) per held connection, and a little slack
	// for the health checks' own connections.
	if maxFDs > perClient+16 {
		t.Errorf("descriptors grew by %d under the flood, want at most %d", maxFDs, perClient+16)
	}
	if maxG > 2*perClient+16 {
		t.Errorf("goroutines grew by %d under the flood, want at most %d", maxG, 2*perClient+16)
	}
}

// TestBusyFlood fills every connection the caps allow with busy requests
// (long-polls, none waiting for its client): /health still answers, on
// connections taken past the caps, again and again on one connection and
// after idle connections took the spare places; any other request there is
// answered 503 TOO_MANY_CONNECTIONS in the JSON envelope and closed.
func TestBusyFlood(t *testing.T) {
	t.Parallel()
	const busy = 4
	f := newFixture(t, Options{})
	motion := f.create("d1").Argument.ID
	srv := New(f.st, Options{Logger: discardLogger(), MaxConns: busy, MaxConnsPerClient: busy})
	srv.freshGrace = 0 // the idle connections below count as stuck at once
	addr := serveLoopback(t, srv)
	for range busy {
		sendPartial(t, addr, "GET /debates/d1/poll?role=proposer&wait=60&argument_id="+motion+" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	}
	waitFor(func() bool { return srv.Waiting() == busy })
	ask := func(br *bufio.Reader, c net.Conn, path string) (*http.Response, string) {
		t.Helper()
		if _, err := io.WriteString(c, "GET "+path+" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("GET %s past the caps: %v", path, err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, string(b)
	}

	// /health, three times on one connection.
	c := sendPartial(t, addr, "")
	br := bufio.NewReader(c)
	for i := range 3 {
		if res, b := ask(br, c, "/health"); res.StatusCode != http.StatusOK {
			t.Fatalf("health %d with every slot busy: %d %s", i+1, res.StatusCode, b)
		}
	}
	c.Close()

	// Any other route is refused and its connection closed.
	c = sendPartial(t, addr, "")
	br = bufio.NewReader(c)
	res, b := ask(br, c, "/debates")
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" ||
		!strings.Contains(b, `"code":"`+api.CodeTooManyConnections+`"`) {
		t.Fatalf("GET /debates past the caps: %d %v %s", res.StatusCode, res.Header, b)
	}
	assertClosed(t, br)

	// Idle connections in every spare place are closed to make room.
	for range 2 * spareConns {
		sendPartial(t, addr, "")
	}
	c = sendPartial(t, addr, "")
	br = bufio.NewReader(c)
	if res, b := ask(br, c, "/health"); res.StatusCode != http.StatusOK {
		t.Fatalf("health after idle connections past the caps: %d %s", res.StatusCode, b)
	}
	if n := srv.OpenConns(); n > busy+spareConns {
		t.Errorf("the server holds %d connections, past its caps %d and %d spares", n, busy, spareConns)
	}
}

// TestRefusedPastSpares: when the caps and the spare places are all taken
// by busy connections, a new connection is answered 503
// TOO_MANY_CONNECTIONS in the JSON envelope and closed.
func TestRefusedPastSpares(t *testing.T) {
	t.Parallel()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := newLimitListener(inner, 1, 1, 1, 0)
	accepted := make(chan net.Conn)
	go func() {
		defer close(accepted)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		for c := range accepted {
			c.Close()
		}
	})
	for _, spare := range []bool{false, true} {
		sendPartial(t, inner.Addr().String(), "")
		c := (<-accepted).(*limitedConn)
		if c.spare != spare {
			t.Fatalf("spare = %v, want %v", c.spare, spare)
		}
		c.idle.Store(false) // busy
		t.Cleanup(func() { c.Close() })
	}
	br := bufio.NewReader(sendPartial(t, inner.Addr().String(), ""))
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" ||
		!strings.Contains(string(b), `"code":"`+api.CodeTooManyConnections+`"`) {
		t.Fatalf("got %d %v %s", res.StatusCode, res.Header, b)
	}
	assertClosed(t, br)
}

// storeFor opens a store on a new database for t (see testDB).
func storeFor(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), testDB(t), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// openFDs counts this process's open file descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd:", err)
	}
	return len(ents)
}

// TestCapRetiresKeepAlive: a client at its connection cap that opens one
// more is served on it, and none of its connections is closed under a
// request: a connection that never sent one is closed first; else the
// oldest idle keep-alive connection answers its next request, with
// Connection: close, and only then closes.
func TestCapRetiresKeepAlive(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		kinds []string // per connection at the cap: "kept" (answered once, idle) or "new" (no request yet)
		grace time.Duration
		// closeAfter: the connection (index) whose next answer is its last;
		// -1 for none. closed: the connection closed to make room; -1 for
		// none.
		closeAfter, closed int
	}{
		{"idle keep-alives", []string{"kept", "kept"}, 0, 0, -1},
		{"one never sent a request", []string{"kept", "new"}, 0, -1, 1},
		{"one just opened", []string{"kept", "new"}, time.Hour, 0, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := New(storeFor(t), Options{Logger: discardLogger(), MaxConns: 64, MaxConnsPerClient: len(tt.kinds)})
			srv.freshGrace = tt.grace
			addr := serveLoopback(t, srv)
			health := func(c net.Conn, br *bufio.Reader) (*http.Response, error) {
				if _, err := io.WriteString(c, "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); err != nil {
					return nil, err
				}
				res, err := http.ReadResponse(br, nil)
				if err == nil {
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
				return res, err
			}
			conns := make([]net.Conn, len(tt.kinds))
			brs := make([]*bufio.Reader, len(tt.kinds))
			kept := 0
			for i, kind := range tt.kinds {
				conns[i] = sendPartial(t, addr, "")
				brs[i] = bufio.NewReader(conns[i])
				if kind == "kept" {
					kept++
					if res, err := health(conns[i], brs[i]); err != nil || res.Close {
						t.Fatalf("connection %d: %v, close %v", i, err, res != nil && res.Close)
					}
				}
			}
			// Wait until the server holds every connection and counts the
			// answered ones idle.
			waitFor(func() bool {
				l := srv.limit.Load()
				l.mu.Lock()
				defer l.mu.Unlock()
				n := 0
				for e := l.conns.Front(); e != nil; e = e.Next() {
					if e.Value.(*limitedConn).keptAlive() {
						n++
					}
				}
				return l.conns.Len() == len(tt.kinds) && n == kept
			})
			c := sendPartial(t, addr, "")
			if res, err := health(c, bufio.NewReader(c)); err != nil || res.StatusCode != http.StatusOK {
				t.Fatalf("the connection past the cap: %v", err)
			}
			for i := range conns {
				if tt.kinds[i] == "new" && i != tt.closed {
					continue
				}
				if i == tt.closed {
					assertClosed(t, brs[i])
					continue
				}
				res, err := health(conns[i], brs[i])
				if err != nil || res.StatusCode != http.StatusOK {
					t.Fatalf("connection %d: its next request failed: %v", i, err)
				}
				if res.Close != (i == tt.closeAfter) {
					t.Errorf("connection %d: Connection: close is %v, want %v", i, res.Close, i == tt.closeAfter)
				}
				if i == tt.closeAfter {
					assertClosed(t, brs[i])
				}
			}
		})
	}
}

// TestAgentsOnOneHost: by default one client address may hold 300
// long-polls at once (128 writers and 128 pollers on one host, with room to
// spare), none refused.
func TestAgentsOnOneHost(t *testing.T) {
	t.Parallel()
	const agents = 300
	f := newFixture(t, Options{})
	motion := f.create("d1").Argument.ID
	srv := New(f.st, Options{Logger: discardLogger()})
	addr := serveLoopback(t, srv)
	for range agents {
		sendPartial(t, addr, "GET /debates/d1/poll?role=proposer&wait=60&argument_id="+motion+" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	}
	giveUp := time.Now().Add(30 * time.Second) // a guard against a hang only
	waitFor(func() bool { return srv.Waiting() == agents || time.Now().After(giveUp) })
	if w, n := srv.Waiting(), srv.OpenConns(); w != agents || n != agents {
		t.Errorf("%d long-polls held on %d connections, want %d", w, n, agents)
	}
}

// TestYoungSpareKept: past the caps and the spare places, a spare
// connection that opened a moment ago, its request maybe on the way, is
// not closed to make room: the new connection is refused instead.
func TestYoungSpareKept(t *testing.T) {
	t.Parallel()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := newLimitListener(inner, 1, 1, 1, time.Hour)
	t.Cleanup(func() { ln.Close() })
	addr := inner.Addr().String()
	var spare *limitedConn
	for i := range 2 {
		sendPartial(t, addr, "")
		c, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		lc := c.(*limitedConn)
		if i == 0 {
			lc.idle.Store(false) // busy
		} else {
			spare = lc
		}
	}
	br := bufio.NewReader(sendPartial(t, addr, ""))
	go func() { _, _ = ln.Accept() }() // refuses the third, then waits until Cleanup closes ln
	res, err := http.ReadResponse(br, nil)
	if err != nil || res.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("the third connection: %v %v, want 503", res, err)
	}
	res.Body.Close()
	ln.mu.Lock()
	kept := spare.elem != nil
	ln.mu.Unlock()
	if !kept {
		t.Error("the young spare connection was closed to make room")
	}
}
