package orchestrator

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// TestAttemptLoop: for each kind of failure, counter state, maxRetries,
// maxConsecutiveFailures and fallback or none, the exact models tried by one
// call and the waits between the attempts. The primary model m1 always fails
// with the given error; the fallback m2 answers (unless fallbackFails).
// Backoff from retryDelay with jitter 0 waits base/2, base, 2·base, ….
func TestAttemptLoop(t *testing.T) {
	var (
		e503 = &providers.Error{Class: providers.ClassServerError, Status: 503, Err: errors.New("overloaded")}
		e429 = &providers.Error{Class: providers.ClassRateLimited, Status: 429, RetryAfter: 5 * time.Second, Err: errors.New("slow down")}
		e401 = &providers.Error{Class: providers.ClassKeyRefused, Status: 401, Err: errors.New("invalid api key")}
		e404 = &providers.Error{Class: providers.ClassModelUnavailable, Status: 404, Err: errors.New("no such model")}
		eCtx = &providers.Error{Class: providers.ClassPromptTooLong, Status: 400, Err: errors.New("maximum context length is 8192 tokens")}
		e400 = &providers.Error{Class: providers.ClassBadRequest, Status: 400, Err: errors.New("unknown field")}
		eTO  = &providers.Error{Class: providers.ClassTimeout, Err: errors.New("no answer within 2m0s")}
	)
	ms := time.Millisecond
	tests := []struct {
		name          string
		err           error
		before        int // the participant's failure counter before the call
		maxRetries    int
		maxFailures   int
		retryDelay    int // ms
		fallback      bool
		fallbackFails bool

		tried  []string
		waits  []time.Duration // before each attempt after the first
		failed bool            // the call ends in an error
		reason string          // of the switch, "" for none
	}{
		{name: "503 seed defaults", err: e503, maxRetries: 2, maxFailures: 2, retryDelay: 2000, fallback: true,
			tried: []string{"m1", "m1", "m2"}, waits: []time.Duration{1000 * ms, 0}, reason: "2 failed attempts, last 503"},
		{name: "503 counter already at 1", err: e503, before: 1, maxRetries: 2, maxFailures: 2, retryDelay: 2000, fallback: true,
			tried: []string{"m1", "m2"}, waits: []time.Duration{0}, reason: "2 failed attempts, last 503"},
		{name: "503 threshold 3", err: e503, maxRetries: 2, maxFailures: 3, retryDelay: 1000, fallback: true,
			tried: []string{"m1", "m1", "m1", "m2"}, waits: []time.Duration{500 * ms, 1000 * ms, 0}, reason: "3 failed attempts, last 503"},
		{name: "503 threshold 1", err: e503, maxRetries: 2, maxFailures: 1, retryDelay: 1000, fallback: true,
			tried: []string{"m1", "m2"}, waits: []time.Duration{0}, reason: "1 failed attempt, 503"},
		{name: "503 no retries, fallback in reserve", err: e503, maxRetries: 0, maxFailures: 2, retryDelay: 1000, fallback: true,
			tried: []string{"m1", "m1", "m2"}, waits: []time.Duration{500 * ms, 0}, reason: "2 failed attempts, last 503"},
		{name: "503 no fallback", err: e503, maxRetries: 2, maxFailures: 2, retryDelay: 1000,
			tried: []string{"m1", "m1", "m1"}, waits: []time.Duration{500 * ms, 1000 * ms}, failed: true},
		{name: "503 no fallback, counter at 1, threshold 1", err: e503, before: 1, maxRetries: 2, maxFailures: 1, retryDelay: 1000,
			tried: []string{"m1", "m1", "m1"}, waits: []time.Duration{500 * ms, 1000 * ms}, failed: true},
		{name: "503 no fallback, no retries", err: e503, maxRetries: 0, maxFailures: 2, retryDelay: 1000,
			tried: []string{"m1"}, failed: true},
		{name: "503 retryDelay 0 waits nothing", err: e503, maxRetries: 2, maxFailures: 2, retryDelay: 0,
			tried: []string{"m1", "m1", "m1"}, waits: []time.Duration{0, 0}, failed: true},
		{name: "503 fallback fails too", err: e503, maxRetries: 1, maxFailures: 2, retryDelay: 1000, fallback: true, fallbackFails: true,
			tried: []string{"m1", "m1", "m2", "m2"}, waits: []time.Duration{500 * ms, 0, 500 * ms}, failed: true, reason: "2 failed attempts, last 503"},
		{name: "timeout", err: eTO, maxRetries: 2, maxFailures: 2, retryDelay: 1000, fallback: true,
			tried: []string{"m1", "m1", "m2"}, waits: []time.Duration{500 * ms, 0}, reason: "2 failed attempts, last timeout"},
		{name: "429 honours Retry-After", err: e429, maxRetries: 2, maxFailures: 2, retryDelay: 1000, fallback: true,
			tried: []string{"m1", "m1", "m2"}, waits: []time.Duration{5 * time.Second, 0}, reason: "2 failed attempts, last 429"},
		{name: "429 Retry-After without fallback", err: e429, maxRetries: 1, maxFailures: 2, retryDelay: 0,
			tried: []string{"m1", "m1"}, waits: []time.Duration{5 * time.Second}, failed: true},
		{name: "401 switches at once", err: e401, maxRetries: 2, maxFailures: 2, retryDelay: 1000, fallback: true,
			tried: []string{"m1", "m2"}, waits: []time.Duration{0}, reason: "key refused (401)"},
		{name: "401 without fallback is not retried", err: e401, maxRetries: 2, maxFailures: 2, retryDelay: 1000,
			tried: []string{"m1"}, failed: true},
		{name: "404 switches at once", err: e404, maxRetries: 2, maxFailures: 3, retryDelay: 1000, fallback: true,
			tried: []string{"m1", "m2"}, waits: []time.Duration{0}, reason: "model not found or not allowed (404)"},
		{name: "404 without fallback is not retried", err: e404, before: 1, maxRetries: 2, maxFailures: 2, retryDelay: 1000,
			tried: []string{"m1"}, failed: true},
		{name: "context length switches at once", err: eCtx, maxRetries: 2, maxFailures: 2, retryDelay: 1000, fallback: true,
			tried: []string{"m1", "m2"}, waits: []time.Duration{0}, reason: "prompt too long for the model (400)"},
		{name: "other 400 fails the call", err: e400, maxRetries: 2, maxFailures: 2, retryDelay: 1000, fallback: true,
			tried: []string{"m1"}, failed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := testConfig(1, "t1")
				cfg.API.MaxRetries = &tt.maxRetries
				cfg.Fallback = configs.Fallback{MaxConsecutiveFailures: tt.maxFailures, RetryDelay: tt.retryDelay}
				p := configs.Participant{ID: "p", Model: "m1"}
				if tt.fallback {
					p.Fallback = "m2"
				}
				var (
					mu    sync.Mutex
					tried []string
					at    []time.Time
				)
				c := completer(func(_ context.Context, r providers.Request) (providers.Response, error) {
					mu.Lock()
					defer mu.Unlock()
					tried, at = append(tried, r.Model), append(at, time.Now())
					if r.Model == "m1" || tt.fallbackFails {
						return providers.Response{}, tt.err
					}
					return providers.Response{Text: "answer"}, nil
				})
				e := english(cfg, c, promptSet(t), Options{Jitter: func() float64 { return 0 }})
				r := e.newRoster("t1")
				m := r.add(p)
				m.failures = tt.before
				resp, model, err := r.call(t.Context(), call{node: "root", step: tree.StepPosition, who: m})

				if !slices.Equal(tried, tt.tried) {
					t.Errorf("tried %v, want %v", tried, tt.tried)
				}
				var waits []time.Duration
				for i := 1; i < len(at); i++ {
					waits = append(waits, at[i].Sub(at[i-1]))
				}
				if !slices.Equal(waits, tt.waits) {
					t.Errorf("waits %v, want %v", waits, tt.waits)
				}
				if (err != nil) != tt.failed {
					t.Errorf("err = %v, want failed %v", err, tt.failed)
				}
				if err != nil && !errors.Is(err, tt.err) {
					t.Errorf("err = %v, want the provider's failure %v", err, tt.err)
				}
				if err == nil && (resp.Text != "answer" || model != "m2") {
					t.Errorf("answer %q from %q, want the fallback's", resp.Text, model)
				}
				fbs := r.sortedFallbacks()
				switch {
				case tt.reason == "" && len(fbs) != 0:
					t.Errorf("fallbacks %+v, want none", fbs)
				case tt.reason != "" && (len(fbs) != 1 || !reflect.DeepEqual(inWords(fbs)[0], tree.Fallback{Participant: "p", From: "m1", To: "m2", Node: "root", Reason: tt.reason})):
					t.Errorf("fallbacks %+v, want one at root for %q", fbs, tt.reason)
				}
			})
		})
	}
}

// TestAttemptLoopStopsWhenCanceled: a call waiting to retry returns as soon
// as its context ends, with the failure it was waiting to retry.
func TestAttemptLoopStopsWhenCanceled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(1, "t1")
		cfg.Fallback.RetryDelay = 600_000
		n := 0
		c := completer(func(context.Context, providers.Request) (providers.Response, error) {
			n++
			return providers.Response{}, unavailable
		})
		e := english(cfg, c, promptSet(t), Options{})
		r := e.newRoster("t1")
		m := r.add(configs.Participant{ID: "p", Model: "m1"})
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(time.Second, cancel)
		start := time.Now()
		_, _, err := r.call(ctx, call{node: "root", step: tree.StepPosition, who: m})
		if got := time.Since(start); got != time.Second || n != 1 || !errors.Is(err, unavailable) {
			t.Errorf("returned after %v and %d attempts with %v; want 1s, 1 attempt, the 503", got, n, err)
		}
	})
}

func TestBackoff(t *testing.T) {
	tests := []struct {
		name       string
		base       time.Duration
		n          int
		jitter     float64
		retryAfter time.Duration
		want       time.Duration
	}{
		{"first, no jitter", time.Second, 0, 0, 0, 500 * time.Millisecond},
		{"first, full jitter", time.Second, 0, 1, 0, time.Second},
		{"doubles", time.Second, 2, 0.5, 0, 3 * time.Second},
		{"capped", time.Second, 20, 1, 0, maxBackoff},
		{"capped, low jitter", time.Second, 20, 0, 0, maxBackoff / 2},
		{"zero base waits nothing", 0, 3, 1, 0, 0},
		{"zero base honours Retry-After", 0, 0, 1, 3 * time.Second, 3 * time.Second},
		{"retry-after is a floor", 100 * time.Millisecond, 0, 0, 5 * time.Second, 5 * time.Second},
		{"retry-after below backoff", 4 * time.Second, 0, 1, time.Second, 4 * time.Second},
	}
	for _, tt := range tests {
		if got := backoff(tt.base, tt.n, tt.jitter, tt.retryAfter); got != tt.want {
			t.Errorf("%s: backoff = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestAttemptLoopParallelCalls: once a participant with a fallback has
// failed, its parallel calls try the primary one at a time, so the switch
// comes after exactly maxConsecutiveFailures failed attempts, and every call
// is then answered by the fallback.
func TestAttemptLoopParallelCalls(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(1, "t1")
		cfg.Fallback = configs.Fallback{MaxConsecutiveFailures: 3, RetryDelay: 1000}
		var mu sync.Mutex
		primary := 0
		c := completer(func(_ context.Context, r providers.Request) (providers.Response, error) {
			if r.Model == "m1" {
				time.Sleep(200 * time.Millisecond)
				mu.Lock()
				primary++
				mu.Unlock()
				return providers.Response{}, unavailable
			}
			return providers.Response{Text: "answer"}, nil
		})
		e := english(cfg, c, promptSet(t), Options{Jitter: func() float64 { return 0 }})
		r := e.newRoster("t1")
		m := r.add(configs.Participant{ID: "p", Model: "m1", Fallback: "m2"})
		m.failures = 1
		models := make([]string, 5)
		each(len(models), true, func(i int) {
			_, models[i], _ = r.call(t.Context(), call{node: "root", step: tree.StepPosition, who: m})
		})
		if primary != 2 {
			t.Errorf("%d attempts on the primary, want 2 (the counter was at 1 of 3)", primary)
		}
		if !slices.Equal(models, []string{"m2", "m2", "m2", "m2", "m2"}) {
			t.Errorf("answered by %v, want the fallback for every call", models)
		}
		if fbs := r.sortedFallbacks(); len(fbs) != 1 || fbs[0].Reason != "3 failed attempts, last 503" {
			t.Errorf("fallbacks %+v", fbs)
		}
	})
}
