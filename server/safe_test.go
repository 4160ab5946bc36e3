package server

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSafeByDefault sends what an attacker's page, a DNS-rebinding name or
// a careless client would, and what the server's own pages and agents send.
func TestSafeByDefault(t *testing.T) {
	f := newFixture(t, Options{})
	f.create("d1")
	own := f.ts.URL // http://127.0.0.1:port, the page's own origin
	port := f.ts.Listener.Addr().(*net.TCPAddr).Port
	ruling := `{"content":"forged","close":true}`
	tests := []struct {
		name    string
		method  string
		path    string
		body    string
		host    string
		headers map[string]string // "" value: header absent
		status  int
		code    string
	}{
		{name: "write without Content-Type", method: "POST", path: "/debates/d1/intervention", body: `{}`,
			headers: map[string]string{"Content-Type": ""}, status: 415, code: "UNSUPPORTED_MEDIA_TYPE"},
		{name: "write as text/plain", method: "POST", path: "/debates/d1/intervention", body: `{}`,
			headers: map[string]string{"Content-Type": "text/plain;charset=UTF-8"}, status: 415, code: "UNSUPPORTED_MEDIA_TYPE"},
		{name: "write as a form", method: "POST", path: "/debates", body: `debate_id=x`,
			headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, status: 415, code: "UNSUPPORTED_MEDIA_TYPE"},
		{name: "write as +json", method: "POST", path: "/debates/d1/intervention", body: `{}`,
			headers: map[string]string{"Content-Type": "application/merge-patch+json"}, status: 415, code: "UNSUPPORTED_MEDIA_TYPE"},
		{name: "foreign Origin", method: "POST", path: "/debates/d1/intervention", body: `{}`,
			headers: map[string]string{"Origin": "http://evil.example"}, status: 403, code: "CROSS_SITE_REQUEST"},
		{name: "foreign Origin on the same host, other port", method: "POST", path: "/debates/d1/intervention", body: `{}`,
			headers: map[string]string{"Origin": "http://127.0.0.1:1"}, status: 403, code: "CROSS_SITE_REQUEST"},
		{name: "Sec-Fetch-Site cross-site", method: "POST", path: "/debates/d1/intervention", body: `{}`,
			headers: map[string]string{"Sec-Fetch-Site": "cross-site"}, status: 403, code: "CROSS_SITE_REQUEST"},
		{name: "Sec-Fetch-Site cross-site, delete", method: "DELETE", path: "/debates/d1",
			headers: map[string]string{"Sec-Fetch-Site": "cross-site"}, status: 403, code: "CROSS_SITE_REQUEST"},
		{name: "foreign Host without a token", method: "GET", path: "/debates/d1", host: "evil.example:" + itoa(port),
			status: 403, code: "HOST_NOT_ALLOWED"},
		{name: "foreign Host, health", method: "GET", path: "/health", host: "rebind.evil.example",
			status: 403, code: "HOST_NOT_ALLOWED"},
		{name: "foreign Host, write", method: "POST", path: "/debates/d1/ruling", body: ruling, host: "evil.example",
			status: 403, code: "HOST_NOT_ALLOWED"},
		{name: "localhost passes", method: "GET", path: "/debates/d1", host: "localhost:" + itoa(port), status: 200},
		{name: "::1 passes", method: "GET", path: "/health", host: "[::1]:" + itoa(port), status: 200},
		{name: "cross-site read passes", method: "GET", path: "/debates/d1",
			headers: map[string]string{"Sec-Fetch-Site": "cross-site"}, status: 200},
		{name: "own page's write passes", method: "POST", path: "/debates/d1/intervention", body: `{"content":"stop"}`,
			headers: map[string]string{"Origin": own, "Sec-Fetch-Site": "same-origin"}, status: 201},
		{name: "agent's write passes", method: "POST", path: "/debates/d1/ruling", body: `{"content":"go on"}`, status: 201},
		{name: "unknown route", method: "GET", path: "/nope", status: 404, code: "NOT_FOUND"},
		{name: "unknown method", method: "PUT", path: "/debates/d1", body: `{}`, status: 405, code: "METHOD_NOT_ALLOWED"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := countArguments(t, f, "d1")
			req, err := http.NewRequest(tt.method, f.ts.URL+tt.path, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if tt.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			for k, v := range tt.headers {
				if v == "" {
					req.Header.Del(k)
				} else {
					req.Header.Set(k, v)
				}
			}
			if tt.host != "" {
				req.Host = tt.host
			}
			r := f.do(req)
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.raw)
			}
			if tt.code != "" {
				if r.env.Success || r.env.Error == nil || r.env.Error.Code != tt.code || r.env.Error.Suggestion == "" {
					t.Fatalf("want the JSON envelope with %s and a suggestion, got %s", tt.code, r.raw)
				}
				if n := countArguments(t, f, "d1"); n != before {
					t.Errorf("a refused request changed the debate: %d → %d arguments", before, n)
				}
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestForeignHostWithToken: a server with a token serves any Host name (it
// may listen on a public address) to those who present the token.
func TestForeignHostWithToken(t *testing.T) {
	f := newFixture(t, Options{Token: "s3cret"})
	req, _ := http.NewRequest("GET", f.ts.URL+"/health", nil)
	req.Host = "debate.example.org"
	req.Header.Set("Authorization", "Bearer s3cret")
	if r := f.do(req); r.status != 200 {
		t.Fatalf("with the token: %d %s", r.status, r.raw)
	}
	req, _ = http.NewRequest("GET", f.ts.URL+"/health", nil)
	req.Host = "debate.example.org"
	if r := f.do(req); r.status != 401 || r.env.Error == nil || r.env.Error.Code != "AUTH_FAILED" {
		t.Fatalf("without the token: %d %s", r.status, r.raw)
	}
}

// TestSlowBodyIsCut sends a body one byte at a time, for as long as the
// server reads it: the server answers 408 once the body deadline passes and
// closes the connection, instead of holding it for as long as the client
// likes.
func TestSlowBodyIsCut(t *testing.T) {
	f := newFixture(t, Options{BodyTimeout: 200 * time.Millisecond})
	f.create("d1")
	conn, err := net.Dial("tcp", f.ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"content":"` + strings.Repeat("x", 2000) + `"}`
	head := "POST /debates/d1/intervention HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
		"Content-Length: " + itoa(len(body)) + "\r\n\r\n"
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sent := make(chan int, 1)
	go func() {
		n := 0
		defer func() { sent <- n }()
		for ; n < len(body) && ctx.Err() == nil; n++ {
			if _, err := conn.Write([]byte{body[n]}); err != nil {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to the slow body: %v", err)
	}
	cancel()
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(b), `"REQUEST_TIMEOUT"`) || !res.Close {
		t.Fatalf("got %d (close %v) %s; want 408 REQUEST_TIMEOUT and the connection closed", res.StatusCode, res.Close, b)
	}
	if n := <-sent; n >= len(body) {
		t.Fatalf("the whole body (%d bytes) was read before the answer", n)
	}
	if n := countArguments(t, f, "d1"); n != 1 {
		t.Errorf("the cut body was written: %d arguments", n)
	}
}

func countArguments(t *testing.T, f *fixture, id string) int {
	t.Helper()
	_, args, err := f.st.Since(context.Background(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	return len(args)
}

func TestLocalHost(t *testing.T) {
	s := New(nil, Options{})
	s.listenIP.Store(net.ParseIP("192.0.2.7"))
	tests := []struct {
		host string
		want bool
	}{
		{"127.0.0.1:3456", true},
		{"127.8.9.10", true},
		{"[::1]:3456", true},
		{"localhost:3456", true},
		{"LOCALHOST.", true},
		{"app.localhost:80", true},
		{"192.0.2.7:3456", true}, // the address listened on
		{"192.0.2.8:3456", false},
		{"evil.example", false},
		{"localhost.evil.example", false},
		{"127.0.0.1.nip.io", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := s.localHost(tt.host); got != tt.want {
			t.Errorf("localHost(%q) = %v, want %v", tt.host, got, tt.want)
		}
	}
}

// FuzzLocalHost compares localHost with the same rule written over
// net.ParseIP.
func FuzzLocalHost(f *testing.F) {
	for _, h := range []string{"127.0.0.1:3456", "[::1]:80", "[::ffff:127.0.0.1]:1", "192.0.2.7", "[::ffff:192.0.2.7]",
		"[fe80::1%25lo]:1", "[::1%lo]", "0127.0.0.1", "LocalHost.", "[::]:1", "1.2.3.4:5:6"} {
		f.Add(h)
	}
	s := New(nil, Options{})
	s.listenIP.Store(net.ParseIP("192.0.2.7"))
	f.Fuzz(func(t *testing.T, host string) {
		h := strings.TrimSuffix(strings.ToLower(hostOnly(host)), ".")
		want := h == "localhost" || strings.HasSuffix(h, ".localhost")
		if ip := net.ParseIP(h); ip != nil && !want {
			want = ip.IsLoopback() || ip.Equal(net.ParseIP("192.0.2.7"))
		}
		if got := s.localHost(host); got != want {
			t.Errorf("localHost(%q) = %v, want %v", host, got, want)
		}
	})
}
