package loopback

import "testing"

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
