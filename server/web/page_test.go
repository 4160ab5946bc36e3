package web

import (
	"net/http/httptest"
	"testing"
)

// TestPageSkipsOnlyOtherPaths checks that Page takes exactly the requests
// the UI's own mux has a pattern for, whether or not it asks the mux.
func TestPageSkipsOnlyOtherPaths(t *testing.T) {
	u := New(nil, Options{})
	for _, path := range []string{
		"/", "/ui/events", "/ui/debates/d1/arguments", "/reports/0/a.md", "/reports/",
		"/%75i/events", "/ui/./events", "/x/../ui/events", "//ui/events", "/ui//events",
		"/debates", "/debates/d1", "/debates/d1/poll", "/health", "/documents/x", "/session",
		"/uix/events", "/reportsx/a", "/ui", "/reports", "/nope", "/.well-known/x",
	} {
		for _, method := range []string{"GET", "HEAD", "POST"} {
			r := httptest.NewRequest(method, "http://127.0.0.1:3456"+path, nil)
			_, pattern := u.always.Handler(r)
			if got, want := u.Page(r) != nil, pattern != ""; got != want {
				t.Errorf("Page(%s %s) taken %v, the mux's pattern %q", method, path, got, pattern)
			}
		}
	}
}
