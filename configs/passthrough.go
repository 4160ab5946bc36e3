package configs

import (
	"maps"
	"slices"
	"strings"
)

// ownFields are the request fields the program sets itself, which
// api.extraBody may not replace in any case.
var ownFields = []string{"model", "messages", "stream"}

// validateStreaming checks the streaming, response-size and passthrough
// fields of the endpoint at path; top is as for validateAPI.
func (c *Config) validateStreaming(r *reporter, path string, a *API, top bool) {
	set := func(name string, zero bool) bool {
		return top || !zero || c.src.written(joinPath(path, name))
	}
	if set("idleTimeout", a.IdleTimeout == 0) && a.IdleTimeout <= 0 {
		r.at(joinPath(path, "idleTimeout"), "must be greater than 0 milliseconds (got %d)", a.IdleTimeout)
	}
	r.atMost(joinPath(path, "idleTimeout"), int64(a.IdleTimeout), MaxTimeout, "one hour in milliseconds")
	if set("maxResponseBytes", a.MaxResponseBytes == 0) && a.MaxResponseBytes < 1024 {
		r.at(joinPath(path, "maxResponseBytes"), "must be at least 1024 bytes (got %d)", a.MaxResponseBytes)
	}
	r.atMost(joinPath(path, "maxResponseBytes"), a.MaxResponseBytes, MaxResponseBytes, "1 GiB")
	for _, k := range slices.Sorted(maps.Keys(a.ExtraBody)) {
		// Servers read JSON keys as Go does, whatever their case.
		if slices.ContainsFunc(ownFields, func(f string) bool { return strings.EqualFold(f, k) }) {
			r.at(keyPath(joinPath(path, "extraBody"), k),
				"%q is set by the program and cannot be replaced; remove it (to turn streaming off, set %s.stream to false)", k, path)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(a.Headers)) {
		if k == "" || strings.ContainsFunc(k, func(r rune) bool { return r <= ' ' || r >= 0x7f || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) }) {
			r.at(keyPath(joinPath(path, "headers"), k), "%q is not a valid HTTP header name; use letters, digits and '-'", k)
		}
		if strings.ContainsAny(a.Headers[k], "\r\n") {
			r.at(keyPath(joinPath(path, "headers"), k), "the value holds a line break; remove it")
		}
	}
}

// validateSampling checks a participant's own maxTokens and temperature.
func validateSampling(r *reporter, path string, p *Participant) {
	if p.MaxTokens < 0 {
		r.at(joinPath(path, "maxTokens"), "must be at least 1, or left out to use params.maxTokensPerResponse (got %d)", p.MaxTokens)
	}
	r.atMost(joinPath(path, "maxTokens"), int64(p.MaxTokens), MaxTokensPerResponse, "tokens of one answer")
	if t := p.Temperature; t != nil && (*t < 0 || *t > 2) {
		r.at(joinPath(path, "temperature"), "must be between 0 and 2 (got %g)", *t)
	}
}
