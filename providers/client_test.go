package providers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/redact"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
)

const testKey = "sk-test-7f3a9c0e5b21d84f"

func ptr[T any](v T) *T { return &v }

// testConfig is a two-debater config on the fake's in-memory URL.
func testConfig(edit func(*configs.Config)) *configs.Config {
	cfg := &configs.Config{
		API: configs.API{BaseURL: scripted.MemoryURL, APIKey: testKey, MaxRetries: ptr(2), Timeout: 10_000},
		Debaters: []configs.Participant{
			{ID: "a", Model: "gpt-4o"},
			{ID: "b", Model: "kimi-k2"},
		},
		Reviewer: &configs.Participant{ID: "judge", Model: "qwen-plus"},
		Params:   configs.Params{MaxTokensPerResponse: 500, Concurrency: 8},
		Fallback: configs.Fallback{RetryDelay: 100},
	}
	if edit != nil {
		edit(cfg)
	}
	return cfg
}

func newTestClient(t testing.TB, srv *providertest.Server, cfg *configs.Config, opt Options) *Client {
	t.Helper()
	if opt.HTTPClient == nil {
		opt.HTTPClient = srv.HTTPClient()
	}
	c, err := New(cfg, opt)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

func ask(participant, model, text string) Request {
	return Request{Participant: participant, Model: model, Messages: []Message{{Role: "user", Content: text}}}
}

func asError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *Error", err, err)
	}
	return e
}

func TestCompleteReturnsAnswer(t *testing.T) {
	srv := providertest.New(t)
	srv.ReplyTo("gpt-4o", scripted.Reply{Text: "hello", Model: "gpt-4o-2024-08-06", PromptTokens: 12, CompletionTokens: 3})
	c := newTestClient(t, srv, testConfig(nil), Options{})
	resp, err := c.Complete(t.Context(), ask("a", "gpt-4o", "hi"))
	if err != nil {
		t.Fatal(err)
	}
	want := Response{Text: "hello", FinishReason: "stop", Model: "gpt-4o-2024-08-06", Usage: Usage{PromptTokens: 12, CompletionTokens: 3}}
	resp.Latency = 0
	if resp != want {
		t.Errorf("got %+v, want %+v", resp, want)
	}
	calls := srv.Calls()
	if len(calls) != 1 || !calls[0].Authorized || calls[0].Path != "/v1/chat/completions" {
		t.Errorf("calls = %+v, want one authorized call on /v1/chat/completions", calls)
	}
}

func TestRequestMapping(t *testing.T) {
	tests := []struct {
		name       string
		params     configs.Params
		format     string
		req        Request
		wantFields map[string]any // JSON fields that must be present with these values
		wantAbsent []string
	}{
		{
			name:       "params apply",
			params:     configs.Params{MaxTokensPerResponse: 400, Temperature: ptr(0.7)},
			req:        ask("a", "gpt-4o", "x"),
			wantFields: map[string]any{"max_tokens": 400.0, "temperature": 0.7},
			wantAbsent: []string{"max_completion_tokens", "response_format"},
		},
		{
			name:       "request overrides params",
			params:     configs.Params{MaxTokensPerResponse: 400, Temperature: ptr(0.7)},
			req:        Request{Participant: "a", Model: "gpt-4o", MaxTokens: ptr(50), Temperature: ptr(1.2)},
			wantFields: map[string]any{"max_tokens": 50.0, "temperature": 1.2},
		},
		{
			name:       "explicit zero temperature is sent",
			req:        Request{Participant: "a", Model: "gpt-4o", Temperature: ptr(0.0)},
			wantFields: map[string]any{"temperature": 0.0},
		},
		{
			name:       "zero temperature from params is sent",
			params:     configs.Params{Temperature: ptr(0.0)},
			req:        ask("a", "gpt-4o", "x"),
			wantFields: map[string]any{"temperature": 0.0},
		},
		{
			name:       "unset temperature is not sent",
			req:        ask("a", "gpt-4o", "x"),
			wantAbsent: []string{"temperature", "max_tokens"},
		},
		{
			name:       "reasoning model",
			params:     configs.Params{MaxTokensPerResponse: 400, Temperature: ptr(0.7)},
			req:        ask("a", "o3-mini", "x"),
			wantFields: map[string]any{"max_completion_tokens": 400.0},
			wantAbsent: []string{"max_tokens", "temperature"},
		},
		{
			name:       "reasoning model ignores explicit zero temperature",
			req:        Request{Participant: "a", Model: "gpt-5.2", Temperature: ptr(0.0)},
			wantAbsent: []string{"temperature"},
		},
		{
			name:       "json object",
			format:     "json_object",
			req:        Request{Participant: "a", Model: "gpt-4o", JSON: true},
			wantFields: map[string]any{"response_format": map[string]any{"type": "json_object"}},
		},
		{
			name:       "json schema",
			format:     "json_schema",
			req:        Request{Participant: "a", Model: "gpt-4o", JSON: true, Schema: json.RawMessage(`{"type":"object"}`)},
			wantFields: map[string]any{"response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "answer", "schema": map[string]any{"type": "object"}, "strict": true}}},
		},
		{
			name:       "json schema endpoint without a schema asks for an object",
			format:     "json_schema",
			req:        Request{Participant: "a", Model: "gpt-4o", JSON: true},
			wantFields: map[string]any{"response_format": map[string]any{"type": "json_object"}},
		},
		{
			name:       "json without endpoint support",
			req:        Request{Participant: "a", Model: "gpt-4o", JSON: true},
			wantAbsent: []string{"response_format"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(t, scripted.WithDefault(scripted.Text("ok")))
			cfg := testConfig(func(c *configs.Config) {
				c.Params = tt.params
				c.Params.Concurrency = 1
				c.API.ResponseFormat = tt.format
			})
			c := newTestClient(t, srv, cfg, Options{})
			if _, err := c.Complete(t.Context(), tt.req); err != nil {
				t.Fatal(err)
			}
			var body map[string]any
			if err := json.Unmarshal(srv.Calls()[0].Body, &body); err != nil {
				t.Fatal(err)
			}
			for k, want := range tt.wantFields {
				got, ok := body[k]
				if !ok {
					t.Errorf("field %q missing from %s", k, srv.Calls()[0].Body)
					continue
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s = %v, want %v", k, got, want)
				}
			}
			for _, k := range tt.wantAbsent {
				if v, ok := body[k]; ok {
					t.Errorf("field %q = %v, want absent", k, v)
				}
			}
		})
	}
}

func TestEndpointOverride(t *testing.T) {
	srv := providertest.New(t)
	cfg := testConfig(func(c *configs.Config) {
		c.Debaters[1].API = &configs.API{BaseURL: "http://other.invalid/b/v1", APIKey: "sk-other-key-000", MaxRetries: ptr(0)}
	})
	c := newTestClient(t, srv, cfg, Options{})
	srv.Enqueue("kimi-k2", scripted.Status(500, "down"))
	if _, err := c.Complete(t.Context(), ask("b", "kimi-k2", "x")); err == nil {
		t.Fatal("want an error: participant b allows no retry")
	}
	if _, err := c.Complete(t.Context(), ask("a", "gpt-4o", "x")); err != nil {
		t.Fatal(err)
	}
	calls := srv.Calls()
	if len(calls) != 2 || calls[0].Path != "/b/v1/chat/completions" || calls[1].Path != "/v1/chat/completions" {
		t.Errorf("paths = %v, want b's override then the default", calls)
	}
	if c.routes["b"].timeout != 10*time.Second {
		t.Errorf("b's timeout = %v, want the default's 10s kept", c.routes["b"].timeout)
	}
}

// TestOneAttemptClassified: Complete makes exactly one request whatever the
// outcome, and classifies a failure so that the caller's attempt loop knows
// what to do: retry (transient), switch to a fallback (unusable) or stop
// (permanent), with the server's Retry-After.
func TestOneAttemptClassified(t *testing.T) {
	tests := []struct {
		name       string
		reply      scripted.Reply
		kind       Class
		way        way
		status     int
		retryAfter time.Duration
	}{
		{"401", scripted.Status(401, "invalid api key"), ClassKeyRefused, fallBack, 401, 0},
		{"403", scripted.Status(403, "forbidden"), ClassKeyRefused, fallBack, 403, 0},
		{"404", scripted.Status(404, "model not found"), ClassModelUnavailable, fallBack, 404, 0},
		{"context length", scripted.ContextLengthExceeded(), ClassPromptTooLong, fallBack, 400, 0},
		{"400", scripted.Status(400, "bad field"), ClassBadRequest, final, 400, 0},
		{"500", scripted.Status(500, "boom"), ClassServerError, retry, 500, 0},
		{"503", scripted.Status(503, "busy"), ClassServerError, retry, 503, 0},
		{"409", scripted.Status(409, "conflict"), ClassConflict, retry, 409, 0},
		{"429 seconds", scripted.RateLimited("3"), ClassRateLimited, retry, 429, 3 * time.Second},
		{"429 capped", scripted.RateLimited("86400"), ClassRateLimited, retry, 429, 2 * time.Minute},
		{"non-JSON 502", scripted.Raw(502, "<html>bad gateway</html>"), ClassServerError, retry, 502, 0},
		{"empty content", scripted.Text(""), ClassEmpty, retry, 200, 0},
		{"cut before any answer", scripted.Reply{Text: "<think>long", FinishReason: "length"}, ClassCut, final, 200, 0},
		{"content filter", scripted.ContentFilter(), ClassContentRefused, final, 200, 0},
		{"no choices", scripted.Raw(200, `{"id":"x","model":"gpt-4o","choices":[]}`), ClassInvalidResponse, retry, 200, 0},
		{"malformed", scripted.Raw(200, `{"id":"x","choices":[{"mess`), ClassInvalidResponse, retry, 200, 0},
		{"empty body", scripted.Raw(200, " "), ClassInvalidResponse, retry, 200, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(t, scripted.WithDefault(tt.reply))
			c := newTestClient(t, srv, testConfig(nil), Options{})
			_, err := c.Complete(t.Context(), ask("a", "gpt-4o", "x"))
			e := asError(t, err)
			if e.Class != tt.kind || wayOf(e.Class) != tt.way || e.Status != tt.status || e.RetryAfter != tt.retryAfter {
				t.Errorf("got class %v way %v status %d retry-after %v; want %v %v %d %v",
					e.Class, wayOf(e.Class), e.Status, e.RetryAfter, tt.kind, tt.way, tt.status, tt.retryAfter)
			}
			if srv.Count() != 1 {
				t.Errorf("requests = %d, want exactly 1", srv.Count())
			}
			if e.Model != "gpt-4o" || e.Endpoint != scripted.MemoryURL {
				t.Errorf("model %q endpoint %q", e.Model, e.Endpoint)
			}
		})
	}
}

func TestTimeoutIsTransient(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := providertest.New(t)
		srv.Enqueue("gpt-4o", scripted.Reply{Text: "late", Delay: time.Minute})
		cfg := testConfig(func(c *configs.Config) { c.API.Timeout = 2000 })
		var xs []Exchange
		c := newTestClient(t, srv, cfg, Options{Record: func(x Exchange) { xs = append(xs, x) }})
		start := time.Now()
		r := ask("a", "gpt-4o", "x")
		r.Attempt = 3
		_, err := c.Complete(t.Context(), r)
		e := asError(t, err)
		if e.Class != ClassTimeout || !e.Class.Transient() || srv.Count() != 1 {
			t.Errorf("kind %v after %d requests, want one transient timeout", e.Class, srv.Count())
		}
		if elapsed := time.Since(start); elapsed != 2*time.Second {
			t.Errorf("took %v, want the 2s timeout", elapsed)
		}
		if len(xs) != 1 || !strings.Contains(xs[0].Err, "timeout") || xs[0].Attempt != 3 {
			t.Errorf("exchanges = %+v, want one timeout recorded as attempt 3", xs)
		}
	})
}

func TestNonJSONErrorBodyIsQuotedBriefly(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue("gpt-4o", scripted.Raw(502, "<html><body><h1>502 Bad Gateway</h1>"+strings.Repeat("x", 2000)+"</body></html>"))
	c := newTestClient(t, srv, testConfig(nil), Options{})
	_, err := c.Complete(t.Context(), ask("a", "gpt-4o", "x"))
	e := asError(t, err)
	if msg := e.Error(); !strings.Contains(msg, "502 Bad Gateway") || len(msg) > 600 {
		t.Errorf("message %q should quote the start of the body, briefly", msg)
	}
}

func TestCutConnectionOverSocketIsTransient(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue("gpt-4o", scripted.Cut())
	cfg := testConfig(func(c *configs.Config) { c.API.BaseURL = srv.URL() })
	c := newTestClient(t, srv, cfg, Options{HTTPClient: &http.Client{}})
	_, err := c.Complete(t.Context(), ask("a", "gpt-4o", "x"))
	if e := asError(t, err); !e.Class.Transient() || srv.Count() != 1 {
		t.Errorf("kind %v after %d requests, want one transient failure", e.Class, srv.Count())
	}
	if resp, err := c.Complete(t.Context(), ask("a", "gpt-4o", "x")); err != nil || resp.Text == "" {
		t.Errorf("next attempt: %q, %v", resp.Text, err)
	}
}

func TestCancelStopsCallInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := providertest.New(t, scripted.WithLatency(time.Hour))
		c := newTestClient(t, srv, testConfig(nil), Options{})
		ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
		defer cancel()
		_, err := c.Complete(ctx, ask("a", "gpt-4o", "x"))
		e := asError(t, err)
		if e.Class != ClassTimeout || srv.Count() != 1 || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("got %v after %d requests, want the caller's deadline after one request", err, srv.Count())
		}
	})
}

// runParallel makes n calls at once and waits for them all.
func runParallel(t *testing.T, c *Client, n int, req func(i int) Request) {
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			_, errs[i] = c.Complete(t.Context(), req(i))
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

func TestGlobalConcurrencyCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := providertest.New(t, scripted.WithLatency(100*time.Millisecond))
		c := newTestClient(t, srv, testConfig(nil), Options{Concurrency: 4})
		start := time.Now()
		runParallel(t, c, 50, func(i int) Request {
			return ask([]string{"a", "b", "judge"}[i%3], "m", fmt.Sprint(i))
		})
		if got := srv.MaxInFlight(); got != 4 {
			t.Errorf("max in flight = %d, want exactly the cap of 4", got)
		}
		// 50 calls of 100ms, 4 at a time: 13 waves. The first call for
		// the model goes alone only until its streamed headers arrive.
		if elapsed := time.Since(start); elapsed != 1300*time.Millisecond {
			t.Errorf("took %v, want 1.3s", elapsed)
		}
	})
}

func TestConcurrencyFromConfig(t *testing.T) {
	tests := []struct {
		opt, param, want int
	}{
		{0, 3, 3},
		{5, 3, 5},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.opt, tt.param), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := providertest.New(t, scripted.WithLatency(time.Second))
				cfg := testConfig(func(c *configs.Config) { c.Params.Concurrency = tt.param })
				c := newTestClient(t, srv, cfg, Options{Concurrency: tt.opt})
				runParallel(t, c, 20, func(i int) Request { return ask("a", "m", fmt.Sprint(i)) })
				if got := srv.MaxInFlight(); got != tt.want {
					t.Errorf("max in flight = %d, want %d", got, tt.want)
				}
			})
		})
	}
}

func TestEndpointConcurrencyCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := providertest.New(t, scripted.WithLatency(100*time.Millisecond))
		cfg := testConfig(func(c *configs.Config) {
			c.Debaters[1].API = &configs.API{BaseURL: "http://slow.invalid/slow/v1", MaxConcurrent: 2}
		})
		c := newTestClient(t, srv, cfg, Options{Concurrency: 8})
		runParallel(t, c, 40, func(i int) Request {
			return ask([]string{"a", "b"}[i%2], "m", fmt.Sprint(i))
		})
		if got := srv.MaxInFlightPath("/slow/v1/chat/completions"); got != 2 {
			t.Errorf("capped endpoint saw %d in flight, want 2", got)
		}
		if got := srv.MaxInFlightPath("/v1/chat/completions"); got <= 2 {
			t.Errorf("uncapped endpoint saw %d in flight, want more than 2", got)
		}
	})
}

func TestRateLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := providertest.New(t)
		cfg := testConfig(func(c *configs.Config) { c.API.RequestsPerMinute = 30 })
		c := newTestClient(t, srv, cfg, Options{})
		start := time.Now()
		runParallel(t, c, 5, func(i int) Request { return ask("a", "m", fmt.Sprint(i)) })
		// 30 per minute is one every 2s: the 5th starts at 8s.
		if elapsed := time.Since(start); elapsed != 8*time.Second {
			t.Errorf("5 calls took %v, want 8s", elapsed)
		}
	})
}

func TestSecretsNeverLeak(t *testing.T) {
	echo := func(r scripted.Reply) scripted.Reply { r.EchoAuthorization = true; return r }
	replies := []scripted.Reply{
		echo(scripted.Status(401, "bad key")),
		echo(scripted.Status(500, "trace")),
		echo(scripted.Raw(502, "<html>gateway")),
		echo(scripted.Raw(200, "not json")),
		echo(scripted.RateLimited("0")),
	}
	for i, reply := range replies {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := providertest.New(t, scripted.WithDefault(reply))
				var logs bytes.Buffer
				var mu sync.Mutex
				var xs []Exchange
				c := newTestClient(t, srv, testConfig(nil), Options{
					Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
					Record: func(x Exchange) { mu.Lock(); xs = append(xs, x); mu.Unlock() },
				})
				_, err := c.Complete(t.Context(), ask("a", "gpt-4o", "x"))
				if err == nil {
					t.Fatal("want an error")
				}
				var seen []string
				for e := error(err); e != nil; e = errors.Unwrap(e) {
					seen = append(seen, "error: "+e.Error(), fmt.Sprintf("error %%+v: %+v", e))
				}
				seen = append(seen, "log: "+logs.String())
				for _, x := range xs {
					seen = append(seen, "exchange: "+fmt.Sprintf("%+v", x)+string(x.Request)+string(x.Response))
				}
				if len(xs) == 0 || !strings.Contains(string(xs[0].Response), "Bearer "+redact.SecretMask) {
					t.Errorf("the fake's echo should be recorded, redacted: %+v", xs)
				}
				for _, s := range seen {
					if strings.Contains(s, testKey) {
						t.Errorf("key leaked in %s", s)
					}
				}
			})
		})
	}
}

func TestRedact(t *testing.T) {
	cfg := testConfig(func(c *configs.Config) {
		c.Debaters[1].API = &configs.API{APIKey: "sk-other"}
	})
	c, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ in, want string }{
		{"key " + testKey + " here", "key [REDACTED] here"},
		{"sk-other and sk-other", "[REDACTED] and [REDACTED]"},
		{`{"authorization":"Bearer abc.def-ghi"}`, `{"authorization":"Bearer [REDACTED]"}`},
		{"authorization: bearer xyz", "authorization: Bearer [REDACTED]"},
		{"nothing secret", "nothing secret"},
	}
	for _, tt := range tests {
		if got := c.secrets.Text(tt.in); got != tt.want {
			t.Errorf("redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestNewRequiresLoadedConfig: the client adds no defaults of its own; a
// config that lacks them is refused, naming the field.
func TestNewRequiresLoadedConfig(t *testing.T) {
	tests := []struct {
		name string
		edit func(*configs.Config)
		want string
	}{
		{"no timeout", func(c *configs.Config) { c.API.Timeout = 0 }, "api.timeout: must be greater than 0"},
		{"no concurrency", func(c *configs.Config) { c.Params.Concurrency = 0 }, "params.concurrency: must be at least 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(testConfig(tt.edit), Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestNewRejectsBadBaseURL(t *testing.T) {
	cfg := testConfig(func(c *configs.Config) { c.API.BaseURL = "not a url/" + testKey })
	_, err := New(cfg, Options{})
	if err == nil || strings.Contains(err.Error(), testKey) {
		t.Errorf("err = %v, want an error without the key", err)
	}
}
