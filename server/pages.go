package server

import (
	"net/http"
	"strings"

	"github.com/debatehq/debate/store"
)

// Store returns the store the server serves, for pages that read it.
func (s *Server) Store() *store.Store { return s.st }

// HandlePages routes a browser's page requests to pages: GET and HEAD
// requests whose Accept header lists text/html and whose path pages has a
// pattern for. Every other request goes to the server's routes as before, so
// that one URL (such as /debates/{id}) is a page for a browser and JSON for
// an agent. Pages are served behind the same authentication, request ids and
// panic recovery. Call it at most once, before Handler or Serve.
func (s *Server) HandlePages(pages *http.ServeMux) {
	s.handler = s.withRequestID(s.withRecover(s.withSafety(s.withAuth(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			if _, pattern := pages.Handler(r); pattern != "" {
				w.Header().Add("Vary", "Accept")
				if acceptsHTML(r) {
					pages.ServeHTTP(w, r)
					return
				}
			}
		}
		s.route(w, r)
	})))))
}

// acceptsHTML reports whether the request's Accept header names text/html
// (browsers' navigations do; agents ask for JSON or anything).
func acceptsHTML(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept") {
		for part := range strings.SplitSeq(v, ",") {
			mt, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			if strings.EqualFold(strings.TrimSpace(mt), "text/html") && !zeroQuality(params) {
				return true
			}
		}
	}
	return false
}

// zeroQuality reports whether media-type parameters carry q=0 (not
// acceptable).
func zeroQuality(params string) bool {
	for p := range strings.SplitSeq(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			v = strings.TrimRight(strings.TrimSpace(v), "0")
			return v == "" || v == "." || v == "0."
		}
	}
	return false
}
