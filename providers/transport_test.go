package providers

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/debatehq/debate/internal/redact"
)

// roundTripFunc is an http.RoundTripper made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestRecordingRedactsSplitKeys: a key the server echoes reaches the
// recording redacted, however the body's reads cut it.
func TestRecordingRedactsSplitKeys(t *testing.T) {
	t.Parallel()
	body := sse(`{"model":"m","choices":[{"index":0,"delta":{"content":"An answer."}}],"x_debug":"auth Bearer `+testKey+`"}`,
		`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"note":"`+testKey+`"}`, "[DONE]")
	for _, size := range []int{1, 3, 7, 16, len(body)} {
		t.Run(fmt.Sprintf("pieces of %d", size), func(t *testing.T) {
			t.Parallel()
			transport := roundTripFunc(func(r *http.Request) (*http.Response, error) {
				return &http.Response{
					StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Request: r,
					Body: io.NopCloser(&pieceReader{b: []byte(body), n: size}),
				}, nil
			})
			var mu sync.Mutex
			var got []Exchange
			c, err := New(streamConfig(true, nil), Options{HTTPClient: &http.Client{Transport: transport}, Record: func(x Exchange) {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, x)
			}})
			if err != nil {
				t.Fatal(err)
			}
			resp, err := c.Complete(t.Context(), ask("a", "m", "q"))
			if err != nil || resp.Text != "An answer." {
				t.Fatalf("got %q, %v", resp.Text, err)
			}
			if len(got) != 1 {
				t.Fatalf("%d exchanges recorded, want 1", len(got))
			}
			rec := string(got[0].Response)
			if strings.Contains(rec, testKey) || strings.Count(rec, redact.SecretMask) != 2 || !strings.Contains(rec, "An answer.") {
				t.Errorf("read in pieces of %d, recorded %s", size, rec)
			}
		})
	}
}

// TestPools: a client's calls share one pool of connections up to perPool
// calls in flight; past it the models take pools of their own in turn,
// each model always the same one, and a model never assigned the first.
func TestPools(t *testing.T) {
	t.Parallel()
	tests := []struct {
		concurrency int
		pools       int // distinct pools for models m1…m5
	}{
		{1, 1}, {64, 1}, {perPool, 1}, {perPool + 1, 2}, {1024, 4},
	}
	for _, tt := range tests {
		p := newPools(tt.concurrency)
		seen := map[http.RoundTripper]bool{}
		for i := range 5 {
			p.assign("m" + strconv.Itoa(i+1))
		}
		for i := range 5 {
			model := "m" + strconv.Itoa(i+1)
			got := p.get(model)
			if p.get(model) != got {
				t.Errorf("concurrency %d: %s got two pools", tt.concurrency, model)
			}
			seen[got] = true
		}
		if p.get("unknown") != p.all[0] {
			t.Errorf("concurrency %d: an unknown model does not use the first pool", tt.concurrency)
		}
		if len(seen) != tt.pools {
			t.Errorf("concurrency %d: five models use %d pools, want %d", tt.concurrency, len(seen), tt.pools)
		}
	}
}
