package server

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/debatehq/debate/internal/loopback"
	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
)

// DefaultBodyTimeout bounds how long a client may take to send a request
// body.
const DefaultBodyTimeout = 10 * time.Second

// withSafety refuses what a browser could be tricked into sending
// (docs/PROTOCOL.md): without a token, a request whose Host is not a loopback
// name or address (DNS rebinding: an attacker's name that resolves to this
// machine); with or without one, a state-changing request from another origin
// (Sec-Fetch-Site, else Origin against Host, as net/http's
// CrossOriginProtection decides). The web UI's own requests are same-origin
// and pass. Read-only methods never change state and pass the origin check.
func (s *Server) withSafety(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.opt.Token == "" && !s.localHost(r.Host) {
			s.writeErrorBody(w, r, http.StatusForbidden, codeBody(api.CodeHostNotAllowed,
				fmt.Sprintf("host %q is not this server's loopback address", hostOnly(r.Host)),
				"without a token the server answers only on 127.0.0.1, ::1 and localhost; use one of those, or start the server with --token to serve other host names"))
			return
		}
		if err := cop.Check(r); err != nil {
			s.writeErrorBody(w, r, http.StatusForbidden, codeBody(api.CodeCrossSite,
				"cross-origin "+r.Method+" refused",
				"state-changing requests are accepted only from the server's own pages or from clients that send no Origin (agents, curl)"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// localHost reports whether a request's Host names this machine's loopback
// interface (localhost, a name under .localhost, 127.0.0.0/8, ::1) or the
// address the server listens on, when that is an IP address.
func (s *Server) localHost(host string) bool {
	if loopback.Host(host) {
		return true
	}
	ip, err := netip.ParseAddr(strings.TrimSuffix(hostOnly(host), "."))
	if err != nil || ip.Zone() != "" {
		return false
	}
	listen, ok := s.listenIP.Load().(net.IP)
	return ok && !listen.IsUnspecified() && listen.Equal(ip.AsSlice())
}

// hostOnly strips the port from a Host header value, and the brackets from
// an IPv6 literal.
func hostOnly(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
}

// decodeBody reads r's body (see readBody) into a pooled buffer and decodes
// it with decode, which must not keep the bytes it is given.
func decodeBody[T any](s *Server, w http.ResponseWriter, r *http.Request, decode func([]byte) (T, error)) (T, error) {
	bp := buffers.Get().(*[]byte)
	body, err := s.readBody(w, r, (*bp)[:0])
	var v T
	if err == nil {
		v, err = decode(body)
	}
	if cap(body) <= maxPooled {
		*bp = body
		buffers.Put(bp)
	}
	return v, err
}

// readBody reads a write's JSON body of at most MaxBody bytes within
// BodyTimeout, appending it to buf. A body not declared as application/json
// is refused with 415: browsers send text/plain, forms and blobs cross-site
// without asking first, but never application/json.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, buf []byte) ([]byte, error) {
	ct := r.Header.Get("Content-Type")
	if ct != "application/json" && !isJSON(ct) {
		msg := "Content-Type is missing"
		if ct != "" {
			msg = fmt.Sprintf("Content-Type %q is not application/json", ct)
		}
		return buf, &bodyError{status: http.StatusUnsupportedMediaType, body: codeBody(api.CodeUnsupportedMediaType, msg,
			"send the body as JSON with the header Content-Type: application/json")}
	}
	rc := http.NewResponseController(w)
	if err := rc.SetReadDeadline(time.Now().Add(s.opt.BodyTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return buf, fmt.Errorf("set body deadline: %w", err)
	}
	if n := r.ContentLength; n >= int64(cap(buf)) && n < s.opt.MaxBody {
		buf = slices.Grow(buf, int(n)+1) // room for the EOF read too
	}
	body, err := readAll(http.MaxBytesReader(w, r.Body, s.opt.MaxBody), buf)
	_ = rc.SetReadDeadline(time.Time{})
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return body, protocol.Errorf(protocol.CodeContentTooLarge, "request body is larger than %d bytes", s.opt.MaxBody).
			WithSuggestion("put long texts in a document (debate docs create) and send a short summary with its doc_id")
	case errors.Is(err, os.ErrDeadlineExceeded):
		// The connection is spent: answer and close it.
		w.Header().Set("Connection", "close")
		return body, &bodyError{status: http.StatusRequestTimeout, body: codeBody(api.CodeRequestTimeout,
			fmt.Sprintf("the request body did not arrive within %s", s.opt.BodyTimeout), "send the whole body at once")}
	case err != nil:
		return body, protocol.Errorf(protocol.CodeInvalidInput, "cannot read the request body: %v", err)
	}
	return body, nil
}

// isJSON reports whether a Content-Type names application/json.
func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "application/json"
}

// readAll appends what rd reads until EOF to b, as io.ReadAll does.
func readAll(rd io.Reader, b []byte) ([]byte, error) {
	for {
		n, err := rd.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// bodyError is a refusal of a request body by the server itself, with its
// own status.
type bodyError struct {
	status int
	body   *api.ErrorBody
}

func (e *bodyError) Error() string { return e.body.Message }
