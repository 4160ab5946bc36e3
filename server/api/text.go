package api

import (
	"net/url"
	"strings"
	"unicode/utf8"
)

// Text the server accepts is what both store backends keep as it is: valid
// UTF-8 without NUL (PostgreSQL refuses both in text columns, SQLite would
// keep them). Every request decoder and CheckURL refuse the rest, so that the
// answer does not depend on the backend.
const (
	errNotUTF8  = "not valid UTF-8"
	errNUL      = `holds a NUL character (\u0000 or %00)`
	suggestText = "send text as UTF-8 without NUL characters"
)

// CheckText refuses a value that is not valid UTF-8 or holds a NUL, naming
// it as name.
func CheckText(name, v string) error {
	switch {
	case !utf8.ValidString(v):
		return invalid(name+": "+errNotUTF8, suggestText)
	case strings.IndexByte(v, 0) >= 0:
		return invalid(name+": "+errNUL, suggestText)
	}
	return nil
}

// CheckURL refuses a request URL whose path or query, once unescaped, is not
// text (see CheckText): "path" or the query parameter is named.
func CheckURL(u *url.URL) error {
	if plain(u.Path) && plain(u.RawQuery) && !strings.Contains(u.RawQuery, "%") {
		return nil
	}
	if err := CheckText("path", u.Path); err != nil {
		return err
	}
	for pair := range strings.SplitSeq(u.RawQuery, "&") {
		k, v, _ := strings.Cut(pair, "=")
		k, err := url.QueryUnescape(k)
		if err != nil {
			continue // ignored by url.ParseQuery, so by every route
		}
		if err := CheckText("query parameter name", k); err != nil {
			return err
		}
		if v, err := url.QueryUnescape(v); err == nil {
			if err := CheckText(k, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// plain reports whether s is printable ASCII.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}
