package loopback

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestHost(t *testing.T) {
	t.Parallel()
	tests := map[string]bool{
		"localhost": true, "LOCALHOST": true, "localhost.": true, "app.localhost": true,
		"127.0.0.1": true, "127.1.2.3": true, "::1": true, "[::1]": true,
		"127.0.0.1:3456": true, "[::1]:80": true, "localhost:8080": true,
		"::ffff:127.0.0.1": true,
		"":                 false, "example.com": false, "localhost.example.com": false,
		"10.0.0.1": false, "0.0.0.0": false, "::": false, "192.168.1.1:80": false,
		"fe80::1%lo0": false, "notlocalhost": false,
	}
	for host, want := range tests {
		if got := Host(host); got != want {
			t.Errorf("Host(%q) = %v, want %v", host, got, want)
		}
	}
}

// TestServe: the handler answers on a loopback URL until stop, and nothing
// listens there after it.
func TestServe(t *testing.T) {
	t.Parallel()
	url, stop, err := Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "fake "+r.URL.Path)
	}))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !Host(strings.TrimPrefix(url, "http://")) {
		t.Errorf("Serve listens on %s, want a loopback address", url)
	}
	res, err := http.Get(url + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(body) != "fake /v1/models" {
		t.Errorf("answer %q, want the handler's", body)
	}
	stop()
	if res, err := http.Get(url + "/v1/models"); err == nil {
		res.Body.Close()
		t.Errorf("%s still answers after stop", url)
	}
}
