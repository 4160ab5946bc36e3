package httpwatch

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

// TestClient: a request whose context carries a Watch reports Sent as it
// leaves and Done once, when its body is read to its end or closed, or when
// no response came; a request without one reports nothing.
func TestClient(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "answer") }))
	defer srv.Close()
	tests := []struct {
		name  string
		url   string
		watch bool
		use   func(*http.Response) // what the caller does with the body
		want  []string
	}{
		{"read to the end", srv.URL, true, func(r *http.Response) { io.ReadAll(r.Body); r.Body.Close() }, []string{"sent", "done"}},
		{"closed unread", srv.URL, true, func(r *http.Response) { r.Body.Close() }, []string{"sent", "done"}},
		{"no response", "http://127.0.0.1:1", true, nil, []string{"sent", "done"}},
		{"not watched", srv.URL, false, func(r *http.Response) { r.Body.Close() }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			ctx := context.Background()
			if tt.watch {
				ctx = With(ctx, Watch{
					Sent: func() { got = append(got, "sent") },
					Done: func() { got = append(got, "done") },
				})
			}
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, tt.url, nil)
			res, err := Client(nil).Do(req)
			if err == nil {
				tt.use(res)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("reported %q, want %q", got, tt.want)
			}
		})
	}
}
