package providers

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// maxErrorBody caps how much of an error response is read: enough for any
// provider's JSON error, far less than an answer.
const maxErrorBody = 64 << 10

// attempt is what one HTTP exchange needs and leaves behind beyond what
// go-openai handles: the headers and body changes to send, the bounds on
// what is read back, and the status, Retry-After and bodies it returns. It
// travels in the request context.
type attempt struct {
	headers map[string]string
	patch   *bodyPatch // nil: the body as go-openai encoded it
	record  bool

	stream  bool          // the request asks for server-sent events
	idle    time.Duration // bound on silence while streaming; 0: none
	maxBody int64         // bound on the response body
	cancel  context.CancelCauseFunc
	// onStatus, when set, learns the response status as soon as it arrives.
	onStatus func(int)

	status     int
	retryAfter time.Duration
	request    []byte
	response   []byte // the body read (an error, or a non-streamed answer), or the stream's start when recording
	// plain is a one-piece JSON answer to a streamed request, from a server
	// that ignores "stream".
	plain []byte
	// events is the body of a stream, to read its events from.
	events *bufio.Reader
}

type attemptKey struct{}

func withAttempt(ctx context.Context, a *attempt) context.Context {
	return context.WithValue(ctx, attemptKey{}, a)
}

// errIdle is the cause of an attempt cut for silence (api.idleTimeout).
var errIdle = errors.New("idle timeout")

// tooLargeError is a response body over its cap.
type tooLargeError struct{ limit int64 }

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("the answer is longer than %s (api.maxResponseBytes); the attempt was stopped there", sizeText(e.limit))
}

func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// doer is the HTTP client given to go-openai. It sends the configured
// headers and body changes, bounds every body it reads (go-openai reads
// without a limit), cuts a stream that falls silent (go-openai cannot), and
// captures what go-openai drops (status, Retry-After, raw bodies).
type doer struct {
	base *http.Client
	// query and user are the base URL's query and user info, which
	// go-openai would otherwise put before the request's path
	// (".../v1?api-version=x/chat/completions"): every request carries
	// them in their places.
	query url.Values
	user  *url.Userinfo
}

func (d *doer) Do(req *http.Request) (*http.Response, error) {
	if len(d.query) > 0 {
		q := req.URL.Query()
		for k, vs := range d.query {
			q[k] = vs
		}
		req.URL.RawQuery = q.Encode()
	}
	if d.user != nil {
		req.URL.User = d.user
	}
	a, _ := req.Context().Value(attemptKey{}).(*attempt)
	if a == nil {
		return d.base.Do(req)
	}
	for k, v := range a.headers {
		req.Header.Set(k, v)
	}
	if (a.patch != nil || a.record) && req.Body != nil {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		if body, err = a.patch.apply(body); err != nil {
			return nil, err
		}
		if a.record {
			a.request = body
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		req.ContentLength = int64(len(body))
	}
	var w *watch
	if a.stream && a.idle > 0 && a.cancel != nil {
		w = newWatch(a.idle, a.cancel)
	}
	res, err := d.base.Do(req)
	if err != nil {
		w.stop()
		return nil, err
	}
	a.status = res.StatusCode
	a.retryAfter = retryAfter(res.Header, time.Now())
	if a.onStatus != nil {
		a.onStatus(res.StatusCode)
	}
	if res.StatusCode < 200 || res.StatusCode >= 400 {
		// An error body is quoted, never used: its start is enough.
		w.stop()
		body, err := readAtMost(res.Body, maxErrorBody, false)
		res.Body.Close()
		if a.record {
			a.response = body
		}
		if err != nil {
			return nil, err
		}
		res.Body, res.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		return res, nil
	}
	sb := &streamBody{body: res.Body, w: w, limit: a.maxBody, filter: a.stream}
	if a.stream && a.record {
		sb.rec = &a.response
	}
	br := bufio.NewReader(sb)
	if a.stream && !onePiece(res.Header, br) {
		a.events = br
		res.Body = struct {
			io.Reader
			io.Closer
		}{br, sb}
		return res, nil
	}
	// A non-streamed answer, or one in a piece to a streamed request from a
	// server that ignores "stream".
	body, err := readAtMost(br, a.maxBody, true)
	sb.Close()
	sb.rec, a.response = nil, body
	if err != nil {
		return nil, err
	}
	if a.stream {
		a.plain, body = body, nil
	}
	res.Body, res.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
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

// readAtMost reads r up to limit bytes. Past the limit, an answer (strict)
// is an error and an error body is cut short.
func readAtMost(r io.Reader, limit int64, strict bool) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return body, err
	}
	if int64(len(body)) > limit {
		if strict {
			return nil, &tooLargeError{limit: limit}
		}
		body = body[:limit]
	}
	return body, nil
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

// streamBody is an answer as read from the server: silence is watched and
// the size capped. In a stream (filter), the lines that go-openai would
// count as empty messages — SSE comments such as ": OPENROUTER PROCESSING"
// and the blank lines between events — are dropped after they have counted
// as signs of life, so that a long wait full of keep-alives neither trips
// go-openai's empty-message limit nor piles up in its buffer.
type streamBody struct {
	body   io.ReadCloser
	w      *watch
	limit  int64
	filter bool
	rec    *[]byte // when set, receives what is passed on

	n       int64
	mid     bool // inside a line that is kept
	comment bool // inside a comment line
	once    sync.Once
}

func (s *streamBody) Read(p []byte) (int, error) {
	for {
		n, err := s.body.Read(p)
		if n > 0 {
			s.w.heard()
			s.n += int64(n)
			if s.n > s.limit {
				s.once.Do(s.w.stop)
				return 0, &tooLargeError{limit: s.limit}
			}
			if s.filter {
				n = s.drop(p[:n])
			}
			if s.rec != nil {
				*s.rec = append(*s.rec, p[:n]...)
			}
		}
		if n > 0 || err != nil {
			if err != nil {
				s.once.Do(s.w.stop)
			}
			return n, err
		}
	}
}

// drop removes comment and blank lines from b in place and returns the
// length kept. It moves whole lines, not bytes: a stream is mostly kept
// lines.
func (s *streamBody) drop(b []byte) int {
	k := 0
	for i := 0; i < len(b); {
		switch c := b[i]; {
		case s.comment:
			j := bytes.IndexByte(b[i:], '\n')
			if j < 0 {
				return k
			}
			s.comment = false
			i += j + 1
		case !s.mid && c == ':':
			s.comment = true
			i++
		case !s.mid && (c == '\n' || c == '\r'):
			i++
		default:
			end := len(b)
			if j := bytes.IndexByte(b[i:], '\n'); j >= 0 {
				end = i + j + 1
			}
			k += copy(b[k:], b[i:end])
			s.mid = b[end-1] != '\n'
			i = end
		}
	}
	return k
}

func (s *streamBody) Close() error {
	s.once.Do(s.w.stop)
	return s.body.Close()
}

// bodyPatch changes a JSON request body: an explicit temperature of 0 that
// go-openai drops (omitempty), the endpoint's extraBody, and the fields an
// adaptation takes out. Fields the program sets itself are never replaced.
type bodyPatch struct {
	zeroTemperature bool
	extra           map[string]json.RawMessage
	drop            []string
	breaks          map[int][]int // message index → offsets of cache breakpoints
}

// apply returns body with the patch applied; a nil patch returns it as is.
func (p *bodyPatch) apply(body []byte) ([]byte, error) {
	if p == nil {
		return body, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, fmt.Errorf("patching the request body: %w", err)
	}
	if _, ok := m["temperature"]; p.zeroTemperature && !ok {
		m["temperature"] = json.RawMessage("0")
	}
	for k, v := range p.extra {
		switch k {
		case "model", "messages", "stream":
		default:
			m[k] = v
		}
	}
	for _, k := range p.drop {
		delete(m, k)
	}
	if len(p.breaks) > 0 {
		msgs, err := withBreaks(m["messages"], p.breaks)
		if err != nil {
			return nil, fmt.Errorf("patching the request body: %w", err)
		}
		m["messages"] = msgs
	}
	return json.Marshal(m)
}

// defaultHTTPClient keeps enough idle connections per host for a run's
// parallel calls; per-call timeouts come from contexts.
func defaultHTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	return &http.Client{Transport: t}
}
