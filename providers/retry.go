package providers

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

const (
	defaultRetryDelay = time.Second
	// maxBackoff caps one exponential backoff wait.
	maxBackoff = 30 * time.Second
	// maxRetryAfter caps the wait a server may ask for with Retry-After.
	maxRetryAfter = 2 * time.Minute
)

// backoff returns the wait before retry number n (0 for the first retry):
// base·2ⁿ capped at maxBackoff, of which the upper half is jittered by
// jitter ∈ [0,1). A server's Retry-After, capped at maxRetryAfter, is a floor.
func backoff(base time.Duration, n int, jitter float64, retryAfter time.Duration) time.Duration {
	if base <= 0 {
		base = defaultRetryDelay
	}
	d := base
	for i := 0; i < n && d < maxBackoff; i++ {
		d *= 2
	}
	d = min(d, maxBackoff)
	jitter = min(max(jitter, 0), 1)
	d = d/2 + time.Duration(jitter*float64(d/2))
	return max(d, min(retryAfter, maxRetryAfter))
}

// retryAfter reads the wait a response asks for: "Retry-After" in seconds
// or as an HTTP date, or the "retry-after-ms" some OpenAI-compatible servers
// send. It returns 0 when there is none or it cannot be read.
func retryAfter(h http.Header, now time.Time) time.Duration {
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
