package providers

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
)

// redacted replaces secrets in text.
const redacted = "[REDACTED]"

var bearerToken = regexp.MustCompile(`(?i)\bbearer\s+[^\s"',;)\]}]+`)

// redactor removes configured key values and bearer tokens from text.
type redactor struct {
	keys     *strings.Replacer // nil when no key is configured
	keyBytes []string
}

func newRedactor(keys []string) *redactor {
	keys = slices.Clone(keys)
	keys = slices.DeleteFunc(keys, func(k string) bool { return strings.TrimSpace(k) == "" })
	// Longest first, so a key that contains another is removed whole.
	slices.SortFunc(keys, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	keys = slices.Compact(keys)
	r := &redactor{keyBytes: keys}
	if len(keys) > 0 {
		pairs := make([]string, 0, 2*len(keys))
		for _, k := range keys {
			pairs = append(pairs, k, redacted)
		}
		r.keys = strings.NewReplacer(pairs...)
	}
	return r
}

// redact returns s without key values or bearer tokens.
func (r *redactor) redact(s string) string {
	if r.keys != nil && r.contains(s) {
		s = r.keys.Replace(s)
	}
	if containsFold(s, "bearer") {
		s = bearerToken.ReplaceAllString(s, "Bearer "+redacted)
	}
	return s
}

func (r *redactor) contains(s string) bool {
	for _, k := range r.keyBytes {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

// containsFold reports whether s contains the lower-case ASCII word w in any case.
func containsFold(s, w string) bool {
	n := len(w)
	for i := 0; i+n <= len(s); i++ {
		if s[i]|0x20 == w[0] && strings.EqualFold(s[i:i+n], w) {
			return true
		}
	}
	return false
}

// redactKeys returns s without key values; bearer-like words stay, since
// model text may discuss them.
func (r *redactor) redactKeys(s string) string {
	if r.keys != nil && r.contains(s) {
		return r.keys.Replace(s)
	}
	return s
}
