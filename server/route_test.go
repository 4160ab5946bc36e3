package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestUnroutedRequests checks the answers to requests no route takes, for
// clean and unclean paths alike: a JSON 404 or 405, or the mux's redirect of
// an unclean path to the clean path of a route.
func TestUnroutedRequests(t *testing.T) {
	f := newFixture(t, Options{})
	f.create("d1")
	tests := []struct {
		method, path string
		status       int
		want         string // in the body, or the Location of a redirect
	}{
		{"GET", "/nope", 404, `"code":"NOT_FOUND"`},
		{"GET", "/debates/d1/poll/", 404, `"code":"NOT_FOUND"`},
		{"GET", "/debates/d1/poll/extra", 404, `"code":"NOT_FOUND"`},
		{"DELETE", "/health", 405, `"code":"METHOD_NOT_ALLOWED"`},
		{"PUT", "/debates/d1", 405, `"suggestion":"allowed: DELETE, GET, HEAD"`},
		{"GET", "/nope/../x", 404, `"code":"NOT_FOUND"`},
		{"GET", "//nope", 404, `"code":"NOT_FOUND"`},
		{"PUT", "/debates/./d1", 404, `"code":"NOT_FOUND"`},
		{"GET", "/debates//d1", 307, "/debates/d1"},
		{"GET", "/x/../debates/d1/poll?role=proposer", 307, "/debates/d1/poll?role=proposer"},
		{"GET", "/.well-known/x", 404, `"code":"NOT_FOUND"`},
		{"GET", "/debates/d1/poll?role=proposer", 200, `"success":true`},
	}
	for _, tt := range tests {
		req := httptest.NewRequest(tt.method, "http://127.0.0.1:3456/", nil)
		req.URL.Path, req.URL.RawQuery, _ = strings.Cut(tt.path, "?")
		w := httptest.NewRecorder()
		f.srv.Handler().ServeHTTP(w, req)
		got := w.Body.String()
		if tt.status == http.StatusTemporaryRedirect {
			got = w.Header().Get("Location")
		}
		if w.Code != tt.status || !strings.Contains(got, tt.want) {
			t.Errorf("%s %s: %d %s, want %d with %s", tt.method, tt.path, w.Code, got, tt.status, tt.want)
		}
	}
}
