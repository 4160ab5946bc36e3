package server

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/debatehq/debate/server/api"
)

// TestBrokenRequestsGetJSON sends requests that net/http refuses itself,
// before any handler, over a raw connection: each is answered in the JSON
// envelope with the status net/http chose, a Content-Length that is the
// body's, and the connection closed.
func TestBrokenRequestsGetJSON(t *testing.T) {
	t.Parallel()
	addr := serveLoopback(t, New(storeFor(t), Options{Logger: discardLogger()}))
	const host = "Host: 127.0.0.1\r\n"
	tests := []struct {
		name, req string
		status    int
		code      string
		message   string // a part of the message
	}{
		{"garbage request line", "GARBAGE\r\n\r\n", 400, "INVALID_INPUT", "malformed request"},
		{"invalid method", "G@T /health HTTP/1.1\r\n" + host + "\r\n", 400, "INVALID_INPUT", "malformed request"},
		{"missing Host", "GET /health HTTP/1.1\r\n\r\n", 400, "INVALID_INPUT", "missing required Host header"},
		{"malformed Host", "GET /health HTTP/1.1\r\nHost: a b\r\n\r\n", 400, "INVALID_INPUT", "malformed Host header"},
		{"header line without colon", "GET /health HTTP/1.1\r\n" + host + "NoColon\r\n\r\n", 400, "INVALID_INPUT", "malformed request"},
		{"invalid header name", "GET /health HTTP/1.1\r\n" + host + "Bad\x01Name: x\r\n\r\n", 400, "INVALID_INPUT", "malformed request"},
		{"invalid header value", "GET /health HTTP/1.1\r\n" + host + "X-A: a\x01b\r\n\r\n", 400, "INVALID_INPUT", "malformed request"},
		{"bad Content-Length", "POST /debates HTTP/1.1\r\n" + host + "Content-Length: abc\r\n\r\n", 400, "INVALID_INPUT", "malformed request"},
		{"two Content-Lengths", "POST /debates HTTP/1.1\r\n" + host + "Content-Length: 1\r\nContent-Length: 2\r\n\r\n{}", 400, "INVALID_INPUT", "malformed request"},
		{"control byte in the URL", "GET /he\x7flth HTTP/1.1\r\n" + host + "\r\n", 400, "INVALID_INPUT", "malformed request"},
		{"header too large", "GET /health HTTP/1.1\r\n" + host + "X-Big: " + strings.Repeat("a", MaxHeaderBytes+8<<10) + "\r\n\r\n", 431, "INVALID_INPUT", "header fields too large"},
		{"unknown transfer encoding", "POST /debates HTTP/1.1\r\n" + host + "Transfer-Encoding: gzip\r\n\r\n", 501, "INVALID_INPUT", "unsupported transfer encoding"},
		{"HTTP/2.0 request line", "GET /health HTTP/2.0\r\n" + host + "\r\n", 505, "INVALID_INPUT", "unsupported protocol version"},
		{"HTTP/0.9", "GET /health HTTP/0.9\r\n" + host + "\r\n", 505, "INVALID_INPUT", "unsupported protocol version"},
		{"unknown Expect", "GET /health HTTP/1.1\r\n" + host + "Expect: magic\r\n\r\n", 417, "INVALID_INPUT", "unsupported Expect"},
		// net/http passes the preface to the handler, whose safety checks
		// refuse it: it names no Host.
		{"HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 403, api.CodeHostNotAllowed, "host"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := sendPartial(t, addr, tt.req)
			br := bufio.NewReader(c)
			res, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatalf("no answer: %v", err)
			}
			b, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err != nil {
				t.Fatalf("reading the body: %v", err)
			}
			var env api.Envelope[json.RawMessage]
			if err := json.Unmarshal(b, &env); err != nil || env.Success || env.Error == nil {
				t.Fatalf("got %d %q, want the JSON error envelope (%v)", res.StatusCode, b, err)
			}
			if res.StatusCode != tt.status || env.Error.Code != tt.code || !strings.Contains(env.Error.Message, tt.message) {
				t.Errorf("got %d %s %q, want %d %s with %q", res.StatusCode, env.Error.Code, env.Error.Message, tt.status, tt.code, tt.message)
			}
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			if cl := res.Header.Get("Content-Length"); cl != strconv.Itoa(len(b)) {
				t.Errorf("Content-Length %q for a body of %d bytes", cl, len(b))
			}
			assertClosed(t, br)
		})
	}
}

// FuzzEnvelopeOf: whatever is written, a rewritten answer is one whole HTTP
// answer of the same error status whose body is the JSON envelope, of the
// length its header says.
func FuzzEnvelopeOf(f *testing.F) {
	f.Add([]byte("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request"))
	f.Add([]byte("HTTP/1.1 400 Bad Request: missing required Host header\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request: missing required Host header"))
	f.Add([]byte("HTTP/1.1 431 Request Header Fields Too Large\r\n\r\n"))
	f.Add([]byte("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n"))
	f.Add([]byte(`{"success":true}`))
	f.Fuzz(func(t *testing.T, p []byte) {
		b, ok := envelopeOf(p)
		if !ok {
			return
		}
		status, _, _ := parseRawAnswer(p)
		res, err := http.ReadResponse(bufio.NewReader(strings.NewReader(string(b))), nil)
		if err != nil {
			t.Fatalf("rewritten %q is no HTTP answer: %v", p, err)
		}
		body, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode != status || status < 400 {
			t.Fatalf("rewritten %q: status %d (was %d), body %q, %v", p, res.StatusCode, status, body, err)
		}
		var env api.Envelope[json.RawMessage]
		if err := json.Unmarshal(body, &env); err != nil || env.Success || env.Error == nil || env.Error.Message == "" {
			t.Fatalf("rewritten %q: body %q is not the error envelope: %v", p, body, err)
		}
		if res.ContentLength != int64(len(body)) {
			t.Fatalf("Content-Length %d for %d bytes", res.ContentLength, len(body))
		}
	})
}
