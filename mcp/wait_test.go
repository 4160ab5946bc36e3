package mcp

import (
	"testing"
	"time"
)

// TestWait: the wait a tool is given is bounded by MaxBlock, however many
// seconds are asked for, and none asked for is the default.
func TestWait(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		seconds float64
		want    time.Duration
	}{
		{0, 45 * time.Second},
		{-3, 45 * time.Second},
		{0.2, 200 * time.Millisecond},
		{30, 30 * time.Second},
		{50, MaxBlock},
		{600, MaxBlock},
		{1e10, MaxBlock},
		{1e300, MaxBlock},
	} {
		if got := wait(c.seconds, 45*time.Second); got != c.want {
			t.Errorf("wait(%g) = %s, want %s", c.seconds, got, c.want)
		}
	}
}
