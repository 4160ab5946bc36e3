package api

import (
	"net/url"
	"strings"
	"testing"

	"github.com/debatehq/debate/protocol"
)

func TestCheckURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url  string
		want string // part of the refusal; "" when accepted
	}{
		{"/debates/d1?limit=5", ""},
		{"/debates/caf%C3%A9", ""},
		{"/debates/d1/poll?role=opponent&argument_id=%E2%9C%93", ""},
		{"/debates/%00", "path: holds a NUL character"},
		{"/debates/%ff%fe", "path: not valid UTF-8"},
		{"/documents/x/versions?x=1", ""},
		{"/debates/d1/poll?role=opponent&argument_id=a%00", "argument_id: holds a NUL character"},
		{"/ws?debate_id=%ff", "debate_id: not valid UTF-8"},
		{"/debates?%ff=1", "query parameter name: not valid UTF-8"},
		{"/debates?state=%zz", ""}, // a bad escape is skipped, as url.ParseQuery does
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.url)
		if err != nil {
			t.Fatal(err)
		}
		err = CheckURL(u)
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: refused: %v", tt.url, err)
			}
			continue
		}
		if protocol.CodeOf(err) != protocol.CodeInvalidInput || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want INVALID_INPUT with %q", tt.url, err, tt.want)
		}
	}
}

// FuzzCheckURL: a URL CheckURL accepts has a path and query values that are
// text both backends store; it never panics.
func FuzzCheckURL(f *testing.F) {
	f.Add("/debates/%00", "a=%ff%fe")
	f.Add("/debates/d1", "role=opponent&wait=1")
	f.Fuzz(func(t *testing.T, path, query string) {
		u := &url.URL{Path: path, RawQuery: query}
		if CheckURL(u) != nil {
			return
		}
		if err := CheckText("path", u.Path); err != nil {
			t.Fatalf("accepted %q: %v", path, err)
		}
		q, _ := url.ParseQuery(query)
		for k, vs := range q {
			for _, v := range vs {
				if CheckText(k, v) != nil || CheckText("name", k) != nil {
					t.Fatalf("accepted %q=%q", k, v)
				}
			}
		}
	})
}
