package providers

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/debatehq/debate/internal/regular"
)

// maxErrorBody caps how much of an error response is read: enough for any
// provider's JSON error, far less than an answer.
const maxErrorBody = 64 << 10

// errIdle is the cause of an attempt cut for silence (api.idleTimeout).
var errIdle = errors.New("idle timeout")

// tooLargeError is a response body over its cap.
type tooLargeError struct{ limit int64 }

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("the answer is longer than %s (api.maxResponseBytes); the attempt was stopped there", regular.Size(e.limit))
}

// bounds is the http.RoundTripper of one attempt: it bounds the body it
// hands back (an answer at maxBody, an error body far less), cuts a stream
// that falls silent for idle, says the status as soon as it arrives, and
// records the body as it is read when rec is set.
type bounds struct {
	base     http.RoundTripper
	stream   bool
	idle     time.Duration // 0: no bound on silence
	cancel   context.CancelCauseFunc
	maxBody  int64
	onStatus func(int) // told the status as soon as it arrives
	rec      *[]byte   // nil: no recording
}

// RoundTrip sends req and bounds what comes back.
func (b *bounds) RoundTrip(req *http.Request) (*http.Response, error) {
	var w *watch
	if b.stream && b.idle > 0 {
		w = newWatch(b.idle, b.cancel)
	}
	res, err := b.base.RoundTrip(req)
	if err != nil {
		w.stop()
		return nil, err
	}
	b.onStatus(res.StatusCode)
	body := &limitedBody{body: res.Body, w: w, limit: b.maxBody, strict: true, rec: b.rec}
	if res.StatusCode < 200 || res.StatusCode >= 300 {
		// An error body is quoted, never used: its start is enough.
		w.stop()
		body.limit, body.strict = maxErrorBody, false
	}
	res.Body = body
	return res, nil
}

// onePiece reports an answer to a streamed request that is one JSON body:
// by its content type, or, when the server names none that decides it, by
// its first byte.
func onePiece(h http.Header, br *bufio.Reader) bool {
	ct := strings.ToLower(h.Get("Content-Type"))
	switch {
	case strings.Contains(ct, "text/event-stream"):
		return false
	case strings.Contains(ct, "application/json"):
		return true
	}
	b, err := br.Peek(1)
	return err == nil && b[0] == '{'
}

// watch cancels an attempt after a silence of its idle bound; every byte
// received starts the silence again.
type watch struct {
	idle  time.Duration
	timer *time.Timer
}

func newWatch(idle time.Duration, cancel context.CancelCauseFunc) *watch {
	cause := fmt.Errorf("%w: no byte from the server for %v (api.idleTimeout)", errIdle, idle)
	return &watch{idle: idle, timer: time.AfterFunc(idle, func() { cancel(cause) })}
}

func (w *watch) heard() {
	if w != nil {
		w.timer.Reset(w.idle)
	}
}

func (w *watch) stop() {
	if w != nil {
		w.timer.Stop()
	}
}

// limitedBody is a response body as read from the server: silence is
// watched and the size capped. Past the cap, an answer (strict) is an error
// and an error body ends there.
type limitedBody struct {
	body   io.ReadCloser
	w      *watch
	limit  int64
	strict bool
	rec    *[]byte // when set, receives what is read
	n      int64
}

func (s *limitedBody) Read(p []byte) (int, error) {
	if s.n >= s.limit && !s.strict {
		return 0, io.EOF
	}
	if left := s.limit + 1 - s.n; int64(len(p)) > left {
		p = p[:left]
	}
	n, err := s.body.Read(p)
	if n > 0 {
		s.w.heard()
		s.n += int64(n)
		if s.n > s.limit {
			if s.strict {
				s.w.stop()
				return 0, &tooLargeError{limit: s.limit}
			}
			n -= int(s.n - s.limit)
			s.n = s.limit
		}
		if s.rec != nil {
			*s.rec = append(*s.rec, p[:n]...)
		}
	}
	if err != nil {
		s.w.stop()
	}
	return n, err
}

func (s *limitedBody) Close() error {
	s.w.stop()
	return s.body.Close()
}

// perPool is how many calls in flight one pool of connections serves. One
// pool, and its lock, serve a run up to that cap; past it the models take
// pools of their own in turn: at 1,024 calls in flight one pool's lock held
// most of a run's lock waiting, while below 256 a pool per model only
// dialed more connections (5 % more CPU per call at 64).
const perPool = 256

// pools are the connections of a client's calls. Each pool keeps as many
// idle connections as calls it serves at once, so that calls that finish
// together do not close connections the next ones dial again. Per-call
// timeouts come from contexts.
type pools struct {
	all []http.RoundTripper
	of  map[string]http.RoundTripper // model → its pool, set by New
}

func newPools(concurrency int) *pools {
	p := &pools{of: map[string]http.RoundTripper{}}
	for range max(1, (concurrency+perPool-1)/perPool) {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = min(concurrency, perPool)
		t.MaxIdleConns = max(t.MaxIdleConns, t.MaxIdleConnsPerHost)
		p.all = append(p.all, t)
	}
	return p
}

// assign gives model the next pool, unless it has one.
func (p *pools) assign(model string) {
	if _, ok := p.of[model]; !ok && model != "" {
		p.of[model] = p.all[len(p.of)%len(p.all)]
	}
}

// get returns the pool of model's calls.
func (p *pools) get(model string) http.RoundTripper {
	if t, ok := p.of[model]; ok {
		return t
	}
	return p.all[0]
}

// CloseIdleConnections closes the connections the client keeps between
// calls, so that a finished run leaves none open.
func (c *Client) CloseIdleConnections() {
	for _, t := range c.conns.all {
		if t, ok := t.(interface{ CloseIdleConnections() }); ok {
			t.CloseIdleConnections()
		}
	}
}
