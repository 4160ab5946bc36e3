// Package loopback tells whether a host names this machine only: the one
// check the server's Host guard, "debate serve"'s warning and the agent
// commands' server on demand share. Serve puts a handler on a loopback port.
package loopback

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Host reports whether host names this machine's loopback interface:
// localhost, a name under .localhost, an address of 127.0.0.0/8 or ::1.
// host may carry a port ("127.0.0.1:3456", "[::1]:80") and brackets; an
// IPv6 address with a zone is not loopback.
func Host(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	h := strings.TrimSuffix(strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")), ".")
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.Zone() == "" && ip.IsLoopback()
}

// Serve serves h on a free port of 127.0.0.1 until stop is called, with the
// server's own error log discarded, and returns its base URL
// ("http://127.0.0.1:port"): the one way the benchmarks put a fake API on
// loopback. stop closes the listener and every connection.
func Serve(h http.Handler) (url string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("listen on loopback: %w", err)
	}
	hs := &http.Server{Handler: h, ErrorLog: slog.NewLogLogger(slog.DiscardHandler, slog.LevelError)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = hs.Serve(ln) // ends with http.ErrServerClosed when stop closes it
	}()
	return "http://" + ln.Addr().String(), func() { hs.Close(); <-done }, nil
}
