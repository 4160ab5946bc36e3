package providers

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxRetryAfter caps the wait a server may ask for with Retry-After.
const maxRetryAfter = 2 * time.Minute

// retryAfter reads the wait a response asks for: "Retry-After" in seconds
// or as an HTTP date, or the "retry-after-ms" some OpenAI-compatible servers
// send, capped at two minutes. It returns 0 when there is none or it cannot
// be read.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return min(time.Duration(ms*float64(time.Millisecond)), maxRetryAfter)
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
		return min(time.Duration(s*float64(time.Second)), maxRetryAfter)
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(t.Sub(now), 0), maxRetryAfter)
	}
	return 0
}
