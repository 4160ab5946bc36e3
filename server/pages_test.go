package server

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// fakePages serves mux's patterns as pages for every request, and asks
// browsers (Accept: text/html) for the token.
type fakePages struct{ mux *http.ServeMux }

func (p fakePages) Page(r *http.Request) http.Handler {
	if _, pattern := p.mux.Handler(r); pattern != "" {
		return p.mux
	}
	return nil
}

func (p fakePages) AskToken(w http.ResponseWriter, r *http.Request) bool {
	if !strings.Contains(r.Header.Get("Accept"), "text/html") {
		return false
	}
	w.Header().Set("Content-Type", "text/html")
	w.WriteHeader(http.StatusUnauthorized)
	_, _ = io.WriteString(w, "type the token")
	return true
}

// TestPagesAndSession: pages sit behind the token; a browser without it gets
// the page asking for it, an agent the JSON 401; the token typed into that
// page becomes a session cookie that opens the pages and the API.
func TestPagesAndSession(t *testing.T) {
	pages := http.NewServeMux()
	pages.HandleFunc("GET /page/{id}", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "page of "+r.PathValue("id"))
	})
	f := newFixture(t, Options{Token: "tok", Pages: fakePages{mux: pages}})
	get := func(path, accept string, cookie *http.Cookie) (int, string, http.Header) {
		req, _ := http.NewRequest(http.MethodGet, f.ts.URL+path, nil)
		req.Header.Set("Accept", accept)
		if cookie != nil {
			req.AddCookie(cookie)
		}
		hc := &http.Client{Transport: f.ts.Client().Transport,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b), res.Header
	}
	if st, _, h := get("/page/1?token=tok&x=1", "text/html", nil); st != http.StatusSeeOther || h.Get("Location") != "/page/1?x=1" ||
		!strings.Contains(h.Get("Set-Cookie"), sessionCookie+"=tok") {
		t.Errorf("page with the token: %d, Location %q, cookie %q; want 303 to the URL without it and the session cookie",
			st, h.Get("Location"), h.Get("Set-Cookie"))
	}
	if st, body, h := get("/page/1", "text/html", &http.Cookie{Name: sessionCookie, Value: "tok"}); st != 200 || body != "page of 1" || h.Get("Vary") != "Accept" {
		t.Errorf("page with the session cookie: %d %q vary %q", st, body, h.Get("Vary"))
	}
	if st, body, _ := get("/page/1", "text/html", nil); st != 401 || body != "type the token" {
		t.Errorf("browser without the token: %d %q, want the token page", st, body)
	}
	if st, body, _ := get("/page/1", "application/json", nil); st != 401 || !strings.Contains(body, `"AUTH_FAILED"`) {
		t.Errorf("agent without the token: %d %q, want the JSON 401", st, body)
	}
	if st, body, _ := get("/debates", "text/html", nil); st != 401 || !strings.Contains(body, `"AUTH_FAILED"`) {
		t.Errorf("an API route without a page: %d %q, want the JSON 401", st, body)
	}

	r := f.call("POST", SessionPath, `{"token":"wrong"}`)
	if r.status != 401 || r.env.Error == nil || r.env.Error.Code != "AUTH_FAILED" || r.header.Get("Set-Cookie") != "" {
		t.Fatalf("wrong token: %d %s (cookie %q)", r.status, r.raw, r.header.Get("Set-Cookie"))
	}
	if r := f.call("POST", SessionPath, `{"token":"tok"}`, "Sec-Fetch-Site", "cross-site"); r.status != 403 {
		t.Fatalf("session from another site: %d %s", r.status, r.raw)
	}
	r = f.call("POST", SessionPath, `{"token":"tok"}`)
	res := http.Response{Header: r.header}
	cookies := res.Cookies()
	if r.status != 201 || len(cookies) != 1 {
		t.Fatalf("right token: %d %s cookies %v", r.status, r.raw, cookies)
	}
	c := cookies[0]
	if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || c.MaxAge != 0 || !c.Expires.IsZero() {
		t.Errorf("cookie %+v: want HttpOnly, SameSite=Strict, path /, for the session only", c)
	}
	if st, body, _ := get("/page/1", "text/html", c); st != 200 || body != "page of 1" {
		t.Errorf("page with the session: %d %q", st, body)
	}
	if st, _, _ := get("/debates", "application/json", c); st != 200 {
		t.Errorf("API with the session: %d", st)
	}
	if st, _, _ := get("/page/1", "text/html", &http.Cookie{Name: c.Name, Value: "forged"}); st != 401 {
		t.Errorf("page with a forged cookie: %d", st)
	}
}
