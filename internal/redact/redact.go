// Package redact masks credentials before they are printed, logged or
// recorded: the one policy every package applies. A URL keeps its scheme,
// host, path and the names of its query parameters; its user information,
// the value of every parameter whose name looks like a credential
// (SecretName) and its fragment are masked. Known secret values and bearer
// tokens are removed from any text, such as a provider's error message or a
// raw request and response (Secrets).
package redact

import (
	"net/url"
	"slices"
	"strings"
)

// Mask replaces each credential that URL removes.
const Mask = "REDACTED"

// Unparsable stands for a whole string that does not parse as a URL but
// might hold a credential.
const Unparsable = "(a URL that does not parse, not shown: it may hold a credential)"

// credentialWords mark a name that carries a credential ("x-api-key",
// "Authorization", "access_token", "sig"...).
var credentialWords = []string{"auth", "key", "token", "secret", "cookie", "session", "pass", "pwd", "sig", "credential"}

// SecretName reports whether a header or query parameter named name
// carries a credential: its name holds one of the words of credentialWords,
// in any case.
func SecretName(name string) bool {
	n := strings.ToLower(name)
	return slices.ContainsFunc(credentialWords, func(w string) bool { return strings.Contains(n, w) })
}

// URL returns s fit to print or record: user information and the values of
// secret-looking query parameters replaced by Mask, so
// "https://user:pw@host/v1?api_key=k&api-version=1" becomes
// "https://REDACTED@host/v1?api_key=REDACTED&api-version=1", a fragment
// replaced by Mask. A string that does not parse as a URL, or hides an "@"
// in an opaque part, is replaced by Unparsable when it holds an "@" or a
// "?"; any other string, such as a file path, is returned as it is.
func URL(s string) string {
	u, err := url.Parse(s)
	if err != nil || strings.Contains(u.Opaque, "@") {
		if strings.ContainsAny(s, "@?") {
			return Unparsable
		}
		return s
	}
	if u.User != nil {
		u.User = url.User(Mask)
	}
	if u.RawQuery != "" {
		params := strings.Split(u.RawQuery, "&")
		for i, p := range params {
			if name, _, ok := strings.Cut(p, "="); ok && SecretName(unescape(name)) {
				params[i] = name + "=" + Mask
			}
		}
		u.RawQuery = strings.Join(params, "&")
	}
	if u.Fragment != "" {
		u.Fragment, u.RawFragment = Mask, ""
	}
	return u.String()
}

// URLSecrets returns the credentials URL masks in s, for callers that scrub
// them from text they did not build (a provider's error): the password, or
// the user name when no password follows it (a token given as
// "https://TOKEN@host"), and the values of secret-looking query
// parameters. A string that does not parse gives none.
func URLSecrets(s string) []string {
	u, err := url.Parse(s)
	if err != nil {
		return nil
	}
	var out []string
	if p, ok := u.User.Password(); ok {
		out = append(out, p)
	} else if name := u.User.Username(); name != "" {
		out = append(out, name)
	}
	for name, vs := range u.Query() {
		if SecretName(name) {
			out = append(out, vs...)
		}
	}
	slices.Sort(out)
	return out
}

// unescape returns a query parameter's name decoded, or as written when it
// does not decode.
func unescape(name string) string {
	if n, err := url.QueryUnescape(name); err == nil {
		return n
	}
	return name
}
