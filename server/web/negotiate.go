package web

import (
	"net/http"
	"strings"
)

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
