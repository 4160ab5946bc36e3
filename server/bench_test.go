package server

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/debatehq/debate/server/web"
	"github.com/debatehq/debate/store"
)

// benchWriter is a ResponseWriter that keeps only the status and the size
// of the answer, and reuses its header map, so that a benchmark counts the
// server's allocations rather than a recorder's.
type benchWriter struct {
	header http.Header
	status int
	body   []byte
}

func (w *benchWriter) Header() http.Header { return w.header }

func (w *benchWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

func (w *benchWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.body = append(w.body, b...)
	return len(b), nil
}

// SetReadDeadline lets the handler set a body's deadline, as on a
// connection.
func (w *benchWriter) SetReadDeadline(time.Time) error { return nil }

func (w *benchWriter) reset() {
	clear(w.header)
	w.status, w.body = 0, w.body[:0]
}

// benchBody is a request body read again from the start on every request.
type benchBody struct{ bytes.Reader }

func (*benchBody) Close() error { return nil }

// benchServer is a server over a new store, with the web UI as its pages
// as `debate serve` runs it, driven through its handler.
type benchServer struct {
	b  *testing.B
	st *store.Store
	h  http.Handler
}

func newBenchServer(b *testing.B) *benchServer {
	st, err := store.Open(context.Background(), testDB(b), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	logger := discardLogger()
	srv := New(st, Options{Logger: logger, Pages: web.New(st, web.Options{Logger: logger})})
	b.Cleanup(func() {
		srv.stop()
		st.Close()
	})
	return &benchServer{b: b, st: st, h: srv.Handler()}
}

// send serves one request and returns the answer's status and body.
func (s *benchServer) send(method, path, body string) (int, []byte) {
	req := httptest.NewRequest(method, "http://127.0.0.1:3456"+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	w := &benchWriter{header: http.Header{}}
	s.h.ServeHTTP(w, req)
	return w.status, w.body
}

// create creates a debate and returns its MOTION's id.
func (s *benchServer) create(id string) string {
	st, body := s.send("POST", "/debates", createBody(id, "k-"+id))
	if st != http.StatusCreated {
		s.b.Fatalf("create %s: %d %s", id, st, body)
	}
	return argumentID(body)
}

// BenchmarkPoll measures a poll that does not wait, through the server's
// whole handler (request id, safety checks, pages, routing, the store's
// head, encoding), as the load's polling agents send it: "newest" names no
// argument, "seen" names the newest one, "behind" one three arguments back
// (the store reads those from the database).
func BenchmarkPoll(b *testing.B) {
	s := newBenchServer(b)
	last := s.create("bench")
	history := []string{last}
	for i, role := range []string{"opponent", "proposer", "opponent", "proposer"} {
		st, body := s.send("POST", "/debates/bench/arguments", `{"role":"`+role+`","target_id":"`+last+
			`","content":"A claim of ordinary length, a sentence or two of text.","client_request_id":"k`+strconv.Itoa(i)+`"}`)
		if st != http.StatusCreated {
			b.Fatalf("claim: %d %s", st, body)
		}
		last = argumentID(body)
		history = append(history, last)
	}
	for _, c := range []struct{ name, query string }{
		{"newest", "role=proposer"},
		{"seen", "role=proposer&argument_id=" + last},
		{"behind", "role=opponent&argument_id=" + history[1]},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", "http://127.0.0.1:3456/debates/bench/poll?"+c.query, nil)
			w := &benchWriter{header: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				w.reset()
				s.h.ServeHTTP(w, req)
				if w.status != http.StatusOK {
					b.Fatalf("poll: %d %s", w.status, w.body)
				}
			}
		})
	}
}

// BenchmarkSubmit measures CLAIMs alternating between the two sides of a
// debate through the server's whole handler, the store's write included:
// "serial" from one goroutine, "parallel" from 32 goroutines each on its own
// debate, as the load's writing agents do (the store batches their commits).
func BenchmarkSubmit(b *testing.B) {
	s := newBenchServer(b)
	var debates atomic.Int64
	run := func(pb interface{ Next() bool }) {
		id := fmt.Sprint("bench", debates.Add(1))
		target := s.create(id)
		req := httptest.NewRequest("POST", "http://127.0.0.1:3456/debates/"+id+"/arguments", nil)
		req.Header.Set("Content-Type", "application/json")
		body := &benchBody{}
		w := &benchWriter{header: http.Header{}}
		roles := []string{"opponent", "proposer"}
		var buf []byte
		for i := 0; pb.Next(); i++ {
			buf = fmt.Appendf(buf[:0], `{"role":%q,"target_id":%q,"content":"A claim of ordinary length, a sentence or two of text.","client_request_id":"k%d"}`,
				roles[i%2], target, i)
			body.Reset(buf)
			req.Body = body
			w.reset()
			s.h.ServeHTTP(w, req)
			if w.status != http.StatusCreated {
				b.Errorf("claim: %d %s", w.status, w.body)
				return
			}
			target = argumentID(w.body)
		}
	}
	b.Run("serial", func(b *testing.B) {
		b.ReportAllocs()
		run(loop{b})
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.SetParallelism(16)
		b.RunParallel(func(pb *testing.PB) { run(pb) })
	})
}

// argumentID returns the argument's id in a write's answer.
func argumentID(body []byte) string {
	const key = `"argument":{"id":"`
	i := bytes.Index(body, []byte(key))
	if i < 0 {
		return ""
	}
	rest := body[i+len(key):]
	return string(rest[:bytes.IndexByte(rest, '"')])
}

// loop adapts b.Loop to the shape of testing.PB.
type loop struct{ b *testing.B }

func (l loop) Next() bool { return l.b.Loop() }
