// Package loopback tells whether a host names this machine only: the one
// check the server's Host guard, "debate serve"'s warning and the agent
// commands' server on demand share.
package loopback

import (
	"net"
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
