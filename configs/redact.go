package configs

import (
	"net/url"
	"strings"
)

// redactedPart replaces the credentials RedactURL removes from a URL.
const redactedPart = "REDACTED"

// RedactURL returns a configured URL fit to print or record: its user
// information (user name and password) and the value of every query
// parameter are replaced by "REDACTED", the parameter names kept, so
// "http://user:pw@host/v1?token=t" becomes
// "http://REDACTED@host/v1?token=REDACTED". A string that does not parse as
// a URL but holds an "@" or a "?" is replaced whole; any other is returned
// as it is.
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		if strings.ContainsAny(s, "@?") {
			return redactedPart
		}
		return s
	}
	if u.User != nil {
		u.User = url.User(redactedPart)
	}
	if u.RawQuery != "" {
		params := strings.Split(u.RawQuery, "&")
		for i, p := range params {
			if name, _, ok := strings.Cut(p, "="); ok {
				params[i] = name + "=" + redactedPart
			}
		}
		u.RawQuery = strings.Join(params, "&")
	}
	if u.Fragment != "" {
		u.Fragment, u.RawFragment = redactedPart, ""
	}
	return u.String()
}
