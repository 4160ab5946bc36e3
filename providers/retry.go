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
	return min(askedWait(h, now), maxRetryAfter)
}

func askedWait(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0)
	}
	return 0
}
