package web

import (
	"net/http"
	"testing"
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
