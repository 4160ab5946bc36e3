package server

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/debatehq/debate/store"
)

func TestAcceptsHTML(t *testing.T) {
	tests := []struct {
		accept []string
		want   bool
	}{
		{nil, false},
		{[]string{"application/json"}, false},
		{[]string{"*/*"}, false},
		{[]string{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}, true},
		{[]string{"application/json", "TEXT/HTML; charset=utf-8"}, true},
		{[]string{"text/html;q=0"}, false},
		{[]string{"text/html; q=0.000, application/json"}, false},
		{[]string{"text/html;q=0.5"}, true},
		{[]string{"text/htmlx"}, false},
	}
	for _, tt := range tests {
		r, _ := http.NewRequest(http.MethodGet, "/", nil)
		for _, v := range tt.accept {
			r.Header.Add("Accept", v)
		}
		if got := acceptsHTML(r); got != tt.want {
			t.Errorf("Accept %q: %v, want %v", tt.accept, got, tt.want)
		}
	}
}

func TestHandlePages(t *testing.T) {
	f := newFixture(t, Options{Token: "tok"})
	pages := http.NewServeMux()
	pages.HandleFunc("GET /debates/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("page of " + r.PathValue("id")))
	})
	f.srv.HandlePages(pages)
	ts := httptest.NewServer(f.srv.Handler())
	defer ts.Close()
	if _, err := f.st.Create(context.Background(), store.NewDebate{ID: "d1", Title: "T", Type: "general_debate",
		Content: "M", ClientRequestID: "c1"}); err != nil {
		t.Fatal(err)
	}
	get := func(path, accept string) (int, string, string) {
		req, _ := http.NewRequest(http.MethodGet, ts.URL+path, nil)
		req.Header.Set("Accept", accept)
		res, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header.Get("Vary"), string(b)
	}
	if st, vary, body := get("/debates/d1?token=tok", "text/html"); st != 200 || body != "page of d1" || vary != "Accept" {
		t.Errorf("browser: %d %q vary %q", st, body, vary)
	}
	if st, vary, body := get("/debates/d1?token=tok", "application/json"); st != 200 || !strings.Contains(body, `"motion"`) || vary != "Accept" {
		t.Errorf("agent: %d %q vary %q", st, body, vary)
	}
	if st, _, body := get("/debates/d1", "text/html"); st != http.StatusUnauthorized || strings.Contains(body, "page of") {
		t.Errorf("browser without token: %d %q", st, body)
	}
	if st, vary, _ := get("/health?token=tok", "text/html"); st != 200 || vary != "" {
		t.Errorf("a route without a page: %d vary %q", st, vary)
	}
}
