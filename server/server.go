// Package server is the protocol server of `debate serve` (docs/PROTOCOL.md):
// the REST API of vjcspy/aweave's server over the store, long-polling waits, a
// WebSocket feed for the arbitrator's web UI, and document routes for the agent
// commands. It holds no SQL: every read and write goes through store.Store, and
// every refusal is an error code mapped to an HTTP status by one table
// (api.Status), always answered in the JSON envelope.
//
// It is safe by default: writes must be JSON, state changes from other
// origins are refused, a server without a token answers only loopback Host
// names, and request bodies have a deadline (see withSafety and readBody).
//
// The web UI (package web) plugs in as Options.Pages and is served behind the
// same safety checks and authentication.
package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/store"
)

// Defaults for Options fields left zero.
const (
	DefaultMaxBody         = 4 << 20 // bytes per request body (documents are up to 1 MiB of text)
	DefaultShutdownTimeout = 10 * time.Second
	DefaultPingInterval    = 30 * time.Second
	// MaxHeaderBytes bounds a request's header lines.
	MaxHeaderBytes = 64 << 10
)

// Options configure a Server. The zero value serves without authentication.
type Options struct {
	// Token, when set, is required on every route, the WebSocket and the web
	// UI: as "Authorization: Bearer <token>", or as ?token= on GET requests
	// (browsers and WebSocket clients cannot always set headers).
	Token string
	// Logger receives internal errors (with a request id) and lifecycle
	// messages; slog.Default() when nil. The token is never logged.
	Logger *slog.Logger
	// MaxBody is the largest request body in bytes (DefaultMaxBody when 0).
	MaxBody int64
	// ShutdownTimeout bounds how long Serve drains requests after its context
	// ends (DefaultShutdownTimeout when 0).
	ShutdownTimeout time.Duration
	// PingInterval is how often a WebSocket is pinged (DefaultPingInterval
	// when 0).
	PingInterval time.Duration
	// BodyTimeout bounds how long a request body may take to arrive
	// (DefaultBodyTimeout when 0); a slower body is cut and answered 408.
	BodyTimeout time.Duration
	// MaxConns caps the connections open at once (DefaultMaxConns when
	// 0), MaxConnsPerClient those of one client IP address
	// (DefaultMaxConnsPerClient when 0). Past a cap, the oldest connection
	// stuck before its request is closed to make room, else the oldest idle
	// keep-alive one is closed after its next answer, else the new one is
	// answered 503 (see limitListener).
	MaxConns, MaxConnsPerClient int
	// Pages, when set, serves the pages of a browser's requests (package
	// web); see Pages.
	Pages Pages
	// MCP, when set, serves the MCP endpoint at /mcp (package mcp), behind
	// the same safety checks and authentication as every route; its
	// requests end when the server begins to shut down.
	MCP http.Handler
	// OriginPatterns lists extra origins (host patterns, see
	// websocket.AcceptOptions) allowed to open the WebSocket; the server's
	// own origin is always allowed.
	OriginPatterns []string
}

// Server serves the protocol over HTTP. Create it with New.
type Server struct {
	st  *store.Store
	opt Options
	log *slog.Logger
	// mux serves the routes, and "/" (noRoute) for requests none of them
	// takes; routes holds the routes alone, to tell a 404 from a 405.
	mux     *http.ServeMux
	routes  *http.ServeMux
	handler http.Handler
	token   [32]byte // SHA-256 of the token, compared in constant time

	// stopCtx ends when shutdown begins: long-polls answer at once and
	// WebSockets close with "going away".
	stopCtx context.Context
	stop    context.CancelFunc
	sockets sync.WaitGroup

	idPrefix string
	nextID   atomic.Uint64
	// listenIP is the IP address Serve listens on (a net.IP), which a
	// request's Host may name besides the loopback names.
	listenIP atomic.Value
	// waiting counts long-polls blocked in the store (see Waiting).
	waiting atomic.Int64
	// limit is the listener of Serve, which counts the open connections.
	limit atomic.Pointer[limitListener]
	// fails slows clients that send wrong tokens; holdDelay is holdDelay
	// but in tests.
	fails     failures
	holdDelay atomic.Int64
	// freshGrace is the limit listener's (see freshGrace).
	freshGrace time.Duration
}

// New returns a server over st. The caller keeps ownership of st and closes
// it after Serve returns.
func New(st *store.Store, opt Options) *Server {
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	if opt.MaxBody <= 0 {
		opt.MaxBody = DefaultMaxBody
	}
	if opt.ShutdownTimeout <= 0 {
		opt.ShutdownTimeout = DefaultShutdownTimeout
	}
	if opt.BodyTimeout <= 0 {
		opt.BodyTimeout = DefaultBodyTimeout
	}
	if opt.PingInterval <= 0 {
		opt.PingInterval = DefaultPingInterval
	}
	if opt.MaxConns <= 0 {
		opt.MaxConns = DefaultMaxConns
	}
	if opt.MaxConnsPerClient <= 0 {
		opt.MaxConnsPerClient = DefaultMaxConnsPerClient
	}
	var p [4]byte
	_, _ = rand.Read(p[:])
	s := &Server{st: st, opt: opt, log: opt.Logger, mux: http.NewServeMux(), routes: http.NewServeMux(), idPrefix: hex.EncodeToString(p[:]), freshGrace: freshGrace}
	s.stopCtx, s.stop = context.WithCancel(context.Background())
	s.holdDelay.Store(int64(holdDelay))
	if opt.Token != "" {
		s.token = sha256.Sum256([]byte(opt.Token))
	}
	s.route("GET /health", s.health)
	s.route("POST /debates", s.createDebate)
	s.route("GET /debates", s.listDebates)
	s.route("GET /debates/{id}", s.getDebate)
	s.route("DELETE /debates/{id}", s.deleteDebate)
	s.route("POST /debates/{id}/arguments", s.submitClaim)
	s.route("POST /debates/{id}/appeal", s.submitAppeal)
	s.route("POST /debates/{id}/resolution", s.submitResolution)
	s.route("POST /debates/{id}/intervention", s.submitIntervention)
	s.route("POST /debates/{id}/ruling", s.submitRuling)
	s.route("GET /debates/{id}/poll", s.poll)
	s.route("GET /ws", s.websocket)
	s.route("POST /documents", s.createDocument)
	s.route("POST /documents/{id}/versions", s.submitDocument)
	s.route("GET /documents/{id}", s.getDocument)
	s.route("POST "+SessionPath, s.session)
	if opt.MCP != nil {
		s.route(MCPPath, s.mcp)
	}
	s.mux.HandleFunc("/", s.noRoute)
	s.handler = withBodyGuard(withConnLimits(s.withRequestID(s.withRecover(s.withSafety(s.withAuth(http.HandlerFunc(s.serve)))))))
	return s
}

// MCPPath is the path of the MCP endpoint.
const MCPPath = "/mcp"

// mcp serves the MCP endpoint until the request ends or the server begins
// to shut down, so that a tool call that waits does not hold the shutdown.
func (s *Server) mcp(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stop := context.AfterFunc(s.stopCtx, cancel)
	defer stop()
	s.opt.MCP.ServeHTTP(w, r.WithContext(ctx))
}

// route serves pattern with h.
func (s *Server) route(pattern string, h http.HandlerFunc) {
	s.mux.HandleFunc(pattern, h)
	s.routes.HandleFunc(pattern, h)
}

// Waiting returns the number of long-polls waiting for a new argument now.
func (s *Server) Waiting() int { return int(s.waiting.Load()) }

// OpenConns returns the number of connections Serve holds open now.
func (s *Server) OpenConns() int {
	if l := s.limit.Load(); l != nil {
		return l.open()
	}
	return 0
}

// Handler returns the server's HTTP handler: request ids, panic recovery,
// the safety checks, authentication, then the pages and the routes.
func (s *Server) Handler() http.Handler { return s.handler }

// Serve serves HTTP on ln until ctx ends, then shuts down gracefully: it
// stops accepting, tells long-polls to answer now and WebSockets to close
// with "going away", and waits up to ShutdownTimeout for requests in flight
// before closing what remains. It returns nil after a clean shutdown.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    MaxHeaderBytes,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		ConnContext:       withConn,
	}
	if a, ok := ln.Addr().(*net.TCPAddr); ok {
		s.listenIP.Store(a.IP)
	}
	lim := newLimitListener(ln, s.opt.MaxConns, s.opt.MaxConnsPerClient, spareConns, s.freshGrace)
	s.limit.Store(lim)
	ln = lim
	var fresh freshConns
	hs.ConnState = func(c net.Conn, st http.ConnState) {
		fresh.track(c, st)
		trackIdle(c, st)
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		s.stop()
		s.sockets.Wait()
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	s.stop()
	// http.Server.Shutdown waits up to 5 s for connections that never sent a
	// request (browsers open them ahead of need): close those now.
	fresh.close()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.opt.ShutdownTimeout)
	defer cancel()
	err := hs.Shutdown(sctx)
	done := make(chan struct{})
	go func() { s.sockets.Wait(); close(done) }()
	select {
	case <-done:
	case <-sctx.Done():
		err = errors.Join(err, errors.New("websockets still open after the shutdown timeout"))
	}
	if err != nil {
		hs.Close()
		<-done
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// freshConns tracks the connections that have not sent a request yet.
type freshConns struct {
	mu sync.Mutex
	m  map[net.Conn]struct{}
}

// track is an http.Server.ConnState hook.
func (f *freshConns) track(c net.Conn, st http.ConnState) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if st != http.StateNew {
		delete(f.m, c)
		return
	}
	if f.m == nil {
		f.m = map[net.Conn]struct{}{}
	}
	f.m[c] = struct{}{}
}

// close closes every connection still waiting for its first request.
func (f *freshConns) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.m {
		c.Close()
	}
	clear(f.m)
}

// serve serves a page when Pages has one for the request, else the route
// with its pattern, or a JSON 404/405 when no pattern matches. A URL that is
// not text is refused first.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	// Both backends store the same text: a path or query that is not
	// (NUL, invalid UTF-8) is refused before any route sees it.
	if err := api.CheckURL(r.URL); err != nil {
		s.writeError(w, r, err)
		return
	}
	if s.opt.Pages != nil {
		// The same URL may be a page or JSON depending on Accept.
		if h := w.Header(); h["Vary"] == nil {
			h["Vary"] = varyAccept
		} else {
			h.Add("Vary", "Accept")
		}
		if h := s.opt.Pages.Page(r); h != nil {
			h.ServeHTTP(w, r)
			return
		}
	}
	if !cleanPath(r) {
		// The mux would redirect an unclean path that no route takes to
		// its clean form; it gets the JSON 404 at once instead.
		if _, pattern := s.routes.Handler(r); pattern == "" {
			s.noRoute(w, r)
			return
		}
	}
	s.mux.ServeHTTP(w, r)
}

// cleanPath reports whether the mux takes r's path as it is, neither
// cleaning nor redirecting it; it may report false for some paths the mux
// would take.
func cleanPath(r *http.Request) bool {
	p := r.URL.EscapedPath()
	return r.Method != http.MethodConnect && p != "" && p[0] == '/' && !strings.Contains(p, "//") && !strings.Contains(p, "/.")
}

// noRoute answers a request no route takes: 405 with the methods allowed
// when a route takes its path with another method, else 404.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request) {
	h, _ := s.routes.Handler(r)
	rec := &statusRecorder{header: http.Header{}}
	h.ServeHTTP(rec, r)
	if rec.status == http.StatusMethodNotAllowed {
		w.Header().Set("Allow", rec.header.Get("Allow"))
		s.writeErrorBody(w, r, http.StatusMethodNotAllowed, codeBody(api.CodeMethodNotAllowed,
			fmt.Sprintf("method %s is not allowed on %s", r.Method, r.URL.Path), "allowed: "+rec.header.Get("Allow")))
		return
	}
	s.writeErrorBody(w, r, http.StatusNotFound, codeBody(api.CodeRouteNotFound,
		fmt.Sprintf("no route %s %s", r.Method, r.URL.Path), "see debate help serve for the routes"))
}

type statusRecorder struct {
	header http.Header
	status int
}

func (r *statusRecorder) Header() http.Header         { return r.header }
func (r *statusRecorder) Write(b []byte) (int, error) { return len(b), nil }
func (r *statusRecorder) WriteHeader(code int)        { r.status = code }

// withRequestID names every request: its answer carries the id in
// X-Request-Id, where requestID reads it back for the log.
func (s *Server) withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["X-Request-Id"] = []string{s.newRequestID()}
		next.ServeHTTP(w, r)
	})
}

// newRequestID returns the next request id: the server's random prefix and
// a count.
func (s *Server) newRequestID() string {
	var b [32]byte
	id := append(b[:0], s.idPrefix...)
	id = append(id, '-')
	return string(strconv.AppendUint(id, s.nextID.Add(1), 10))
}

// requestID is the id of the request that w answers.
func requestID(w http.ResponseWriter) string { return w.Header().Get("X-Request-Id") }

func (s *Server) withRecover(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.writeError(w, r, fmt.Errorf("panic: %v", v))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

func (s *Server) withAuth(next http.Handler) http.Handler {
	if s.opt.Token == "" {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		client := clientNet(remoteIP(r))
		sessionPost := r.Method == http.MethodPost && r.URL.Path == SessionPath
		held := (sessionPost || presented(r)) && s.fails.blocked(client)
		if held {
			if !s.hold(r) {
				s.throttled(w, r)
				return
			}
			r = r.WithContext(context.WithValue(r.Context(), heldKey{}, true))
		}
		ok := s.authorized(r)
		if ok && s.tokenInPageURL(r) {
			s.exchange(w, r)
			return
		}
		if !ok && !sessionPost {
			if presented(r) && s.failed(r, client) {
				s.throttled(w, r)
				return
			}
			if p := s.opt.Pages; p != nil && p.Page(r) != nil && p.AskToken(w, r) {
				return
			}
			w.Header().Set("WWW-Authenticate", `Bearer realm="debate"`)
			s.writeError(w, r, authFailed())
			return
		}
		next.ServeHTTP(w, r)
	})
}

// authorized reports whether r carries the server's token: as a Bearer
// header, as ?token= on a GET, or in the session cookie a browser got from
// POST /session.
func (s *Server) authorized(r *http.Request) bool {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, tok, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") {
			return false
		}
		return s.tokenMatches(strings.TrimSpace(tok))
	}
	if r.Method == http.MethodGet {
		if tok := r.URL.Query().Get("token"); tok != "" {
			return s.tokenMatches(tok)
		}
	}
	return s.tokenMatches(sessionToken(r))
}
