package bench

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestWire sends requests of every shape the load generator sends through
// one wire to a net/http server answering in every framing it may use, and
// checks what the server received and what the wire returned.
func TestWire(t *testing.T) {
	var conns atomic.Int64
	block := make(chan struct{})
	defer close(block)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if r.Header.Get("Content-Type") != "application/json" || r.Host == "" {
			http.Error(w, "bad headers", http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusCreated)
		w.Write(b)
	})
	mux.HandleFunc("GET /chunked", func(w http.ResponseWriter, r *http.Request) {
		for _, part := range []string{`{"a":`, strings.Repeat("x", 5000), `}`} {
			io.WriteString(w, part)
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("GET /close", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		io.WriteString(w, "bye")
	})
	mux.HandleFunc("GET /empty", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /refuse", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":"not your turn"}`, http.StatusForbidden)
	})
	mux.HandleFunc("GET /block", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewUnstartedServer(mux)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()

	addr, err := wireAddr(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	c := &wire{addr: addr}
	defer c.close()
	ctx := context.Background()
	steps := []struct {
		method, path string
		body         string
		want         int
		wantBody     string // "" for any
		wantErr      string
		wantConns    int64 // connections dialled so far
	}{
		{"POST", "/echo", `{"content":"é \"quoted\""}`, 201, `{"content":"é \"quoted\""}`, "", 1},
		{"POST", "/echo", `{}`, 201, `{}`, "", 1},
		{"GET", "/chunked", "", 200, `{"a":` + strings.Repeat("x", 5000) + `}`, "", 1},
		{"GET", "/empty", "", 204, "", "", 1},
		{"GET", "/close", "", 200, "bye", "", 1},
		{"POST", "/echo", `[1]`, 201, `[1]`, "", 2}, // dialled again after Connection: close
		{"GET", "/refuse", "", 200, "", `HTTP 403: {"error":"not your turn"}`, 2},
		{"GET", "/missing", "", 200, "", "HTTP 404", 2},
	}
	for _, s := range steps {
		var body []byte
		if s.body != "" {
			body = []byte(s.body)
		}
		got, err := c.do(ctx, s.method, s.path, body, s.want)
		switch {
		case s.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), s.wantErr) {
				t.Errorf("%s %s: error %v, want one with %q", s.method, s.path, err, s.wantErr)
			}
		case err != nil:
			t.Errorf("%s %s: %v", s.method, s.path, err)
		case string(got) != s.wantBody:
			t.Errorf("%s %s: body %.80q, want %.80q", s.method, s.path, got, s.wantBody)
		}
		if n := conns.Load(); n != s.wantConns {
			t.Errorf("%s %s: %d connections dialled, want %d", s.method, s.path, n, s.wantConns)
		}
	}

	// A request cut by its context returns at once, and the next request
	// works on a new connection.
	cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := c.do(cctx, "GET", "/block", nil, 200); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a request cut by its context: %v, want the context's error", err)
	}
	if got, err := c.do(ctx, "POST", "/echo", []byte(`2`), 201); err != nil || string(got) != "2" {
		t.Errorf("after a cut request: %q, %v", got, err)
	}
	if n := conns.Load(); n != 3 {
		t.Errorf("%d connections dialled, want 3", n)
	}
}

func TestWireAddress(t *testing.T) {
	for _, base := range []string{"https://127.0.0.1:1", "127.0.0.1:1", "http://"} {
		if _, err := wireAddr(base); err == nil {
			t.Errorf("wireAddr(%q): no error", base)
		}
	}
}

func TestArgumentID(t *testing.T) {
	tests := []struct {
		answer, want string
	}{
		{`{"success":true,"data":{"argument":{"id":"0193-abc","seq":2}}}`, "0193-abc"},
		{`{"success":true,"data":{"debate":{"id":"d","title":"\"argument\":{\"id\":\"no\""},"argument":{"id":"0193-abd"}}}`, "0193-abd"},
		// Not in the server's order: decoded as JSON.
		{`{"data":{"debate":{},"argument":{"seq":2,"id":"x-1"}},"success":true}`, "x-1"},
		{`{"data" : {"argument" : {"id" : "spaced"}}}`, "spaced"},
		{`{"data":{"argument":{"id":"a\u0062c"}}}`, "abc"},
		{`{"data":{"argument":{"id":""}}}`, ""},
		{`not json`, ""},
	}
	for _, tt := range tests {
		got, err := argumentID([]byte(tt.answer))
		if got != tt.want || (err != nil) != (tt.want == "") {
			t.Errorf("argumentID(%s) = %q, %v; want %q", tt.answer, got, err, tt.want)
		}
	}
}
