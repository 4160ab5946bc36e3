package providers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
)

// streamedOrNot runs f with api.stream on and off.
func streamedOrNot(t *testing.T, f func(t *testing.T, stream bool)) {
	for _, stream := range []bool{true, false} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			t.Parallel()
			f(t, stream)
		})
	}
}

func streamConfig(stream bool, edit func(*configs.Config)) *configs.Config {
	return testConfig(func(c *configs.Config) {
		c.API.Stream = &stream
		c.API.IdleTimeout = 60_000
		if edit != nil {
			edit(c)
		}
	})
}

// longAnswer comes in about a thousand of the fake's 16-byte chunks, each
// event followed by the blank line that ends it.
var longAnswer = strings.Repeat("One more word. ", 1067)

func TestAnswersStreamedAsNot(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		reply scripted.Reply
		want  Response
	}{
		{"text", scripted.Reply{Text: "A plain answer, long enough to come in several chunks.", PromptTokens: 7, CompletionTokens: 12},
			Response{Text: "A plain answer, long enough to come in several chunks.", FinishReason: "stop", Usage: Usage{PromptTokens: 7, CompletionTokens: 12}}},
		{"reasoning_content (DeepSeek)", scripted.Reply{Text: "Answer.", ReasoningContent: "Weighing both sides first.", PromptTokens: 5, CompletionTokens: 9, ReasoningTokens: 6},
			Response{Text: "Answer.", Reasoning: "Weighing both sides first.", FinishReason: "stop", Usage: Usage{PromptTokens: 5, CompletionTokens: 9, ReasoningTokens: 6}}},
		{"reasoning (OpenRouter) with cost and cache", scripted.Reply{Text: "Answer.", Reasoning: "Thinking aloud.", PromptTokens: 100, CompletionTokens: 9, CachedTokens: 64, Cost: 0.00042},
			Response{Text: "Answer.", Reasoning: "Thinking aloud.", FinishReason: "stop", Usage: Usage{PromptTokens: 100, CompletionTokens: 9, CachedPromptTokens: 64, Cost: 0.00042}}},
		{"think block split across chunks", scripted.Reply{Text: "<think>\nlong thought\n</think>\n\nThe answer.", PromptTokens: 3, CompletionTokens: 4},
			Response{Text: "The answer.", Reasoning: "long thought", FinishReason: "stop", Usage: Usage{PromptTokens: 3, CompletionTokens: 4}}},
		{"cut at the limit", scripted.Reply{Text: "The start of", FinishReason: "length", PromptTokens: 3, CompletionTokens: 4},
			Response{Text: "The start of", FinishReason: "length", Usage: Usage{PromptTokens: 3, CompletionTokens: 4}}},
		{"no usage is estimated", scripted.Reply{Text: "12345678", NoUsage: true},
			Response{Text: "12345678", FinishReason: "stop", Usage: Usage{PromptTokens: 2, CompletionTokens: 2, Estimated: true}}},
		{"keep-alive comments past go-openai's empty-message limit", scripted.Reply{Text: "Late answer.", KeepAlives: 400, PromptTokens: 1, CompletionTokens: 3},
			Response{Text: "Late answer.", FinishReason: "stop", Usage: Usage{PromptTokens: 1, CompletionTokens: 3}}},
		{"a long answer in a thousand chunks", scripted.Reply{Text: longAnswer, PromptTokens: 1, CompletionTokens: 4000},
			Response{Text: longAnswer, FinishReason: "stop", Usage: Usage{PromptTokens: 1, CompletionTokens: 4000}}},
		{"a server that ignores stream", scripted.Reply{Text: "One piece.", IgnoreStream: true, PromptTokens: 1, CompletionTokens: 3},
			Response{Text: "One piece.", FinishReason: "stop", Usage: Usage{PromptTokens: 1, CompletionTokens: 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			streamedOrNot(t, func(t *testing.T, stream bool) {
				synctest.Test(t, func(t *testing.T) {
					srv := providertest.New(t)
					srv.ReplyTo("m", tt.reply)
					c := newTestClient(t, srv, streamConfig(stream, nil), Options{})
					resp, err := c.Complete(t.Context(), ask("a", "m", "12345678"))
					if err != nil {
						t.Fatal(err)
					}
					resp.Latency = 0
					want := tt.want
					want.Model = "m"
					if resp != want {
						t.Errorf("got  %+v\nwant %+v", resp, want)
					}
					if call := srv.Calls()[0]; call.Stream != stream || call.IncludeUsage != stream {
						t.Errorf("stream %v, include_usage %v; want %v", call.Stream, call.IncludeUsage, stream)
					}
				})
			})
		})
	}
}

func TestFailedAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		reply    scripted.Reply
		kind     Class
		contains string
	}{
		{"finish_reason error", scripted.Reply{Text: "Half an ans", FinishReason: "error"}, ClassErrorInAnswer, `finish_reason "error"`},
		{"content filter", scripted.ContentFilter(), ClassContentRefused, "content filter"},
		{"empty", scripted.Reply{}, ClassEmpty, "empty answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			streamedOrNot(t, func(t *testing.T, stream bool) {
				srv := providertest.New(t)
				srv.ReplyTo("m", tt.reply)
				c := newTestClient(t, srv, streamConfig(stream, nil), Options{})
				_, err := c.Complete(t.Context(), ask("a", "m", "q"))
				e := asError(t, err)
				if e.Class != tt.kind || !strings.Contains(e.Error(), tt.contains) {
					t.Errorf("got %v (%s), want kind %v containing %q", e, e.Class, tt.kind, tt.contains)
				}
			})
		})
	}
}

func TestMidStreamError(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	srv.ReplyTo("m", scripted.Reply{Text: "Partial text that must not be used", StreamError: "Provider returned error"})
	c := newTestClient(t, srv, streamConfig(true, nil), Options{})
	resp, err := c.Complete(t.Context(), ask("a", "m", "q"))
	e := asError(t, err)
	if e.Class != ClassErrorInAnswer || !e.Class.Transient() || !strings.Contains(e.Error(), "Provider returned error") || resp.Text != "" {
		t.Errorf("got %q, %v (%s); want a transient aborted answer naming the provider's error, no text", resp.Text, e, e.Class)
	}
}

func TestIdleTimeout(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		reply scripted.Reply
		ok    bool
	}{
		// Silent for two minutes after the headers: cut after one.
		{"silent stream is cut", scripted.Reply{Text: "late", Delay: 2 * time.Minute}, false},
		// A comment every 30 s for four minutes keeps it alive.
		{"comments keep a stream alive", scripted.Reply{Text: "late", KeepAlives: 8, ChunkDelay: 30 * time.Second}, true},
		// Chunks 50 s apart: never silent for a minute, slow overall.
		{"slow chunks are not cut", scripted.Reply{Text: "a slow answer", ChunkBytes: 4, ChunkDelay: 50 * time.Second}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				srv := providertest.New(t)
				srv.ReplyTo("m", tt.reply)
				c := newTestClient(t, srv, streamConfig(true, func(c *configs.Config) { c.API.Timeout = 600_000 }), Options{})
				start := time.Now()
				_, err := c.Complete(t.Context(), ask("a", "m", "q"))
				if tt.ok {
					if err != nil {
						t.Fatal(err)
					}
					return
				}
				e := asError(t, err)
				if e.Class != ClassTimeout || !strings.Contains(e.Error(), "api.idleTimeout") || time.Since(start) != time.Minute {
					t.Errorf("got %v after %v; want an idle timeout after 1m", e, time.Since(start))
				}
			})
		})
	}
}

// TestBoundedBodies serves bodies that never end and checks that the
// attempt fails saying so, having allocated a bounded amount of memory —
// everything the client and the in-process fake allocated during the call,
// so a bound on the peak heap too: with the default 4 MiB cap, under
// 128 MiB for an answer (about 40 MiB measured, 70 MiB under -race) and
// 4 MiB for an error body (0.5 MiB measured). Not parallel: it measures the process's allocations.
func TestBoundedBodies(t *testing.T) {
	tests := []struct {
		name     string
		stream   bool
		reply    scripted.Reply
		kind     Class
		contains string
		maxAlloc uint64
	}{
		{"endless streamed 200", true, scripted.Reply{Endless: true}, ClassAnswerTooLarge, "longer than 4 MiB (api.maxResponseBytes)", 128 << 20},
		{"endless 200", false, scripted.Reply{Endless: true}, ClassAnswerTooLarge, "longer than 4 MiB", 128 << 20},
		{"endless 503", true, scripted.Reply{Endless: true, Status: 503}, ClassServerError, "status 503", 4 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(t)
			srv.ReplyTo("m", tt.reply)
			cfg := streamConfig(tt.stream, func(c *configs.Config) {
				c.API.BaseURL = srv.URL()
				c.API.MaxResponseBytes = configs.DefaultMaxResponseBytes
			})
			c, err := New(cfg, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err = c.Complete(t.Context(), ask("a", "m", "q"))
			runtime.ReadMemStats(&after)
			e := asError(t, err)
			if e.Class != tt.kind || !strings.Contains(e.Error(), tt.contains) {
				t.Errorf("got %v (%s), want kind %v containing %q", e, e.Class, tt.kind, tt.contains)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("allocated %.1f MiB", float64(alloc)/(1<<20))
			if alloc > tt.maxAlloc {
				t.Errorf("allocated %d bytes, want at most %d", alloc, tt.maxAlloc)
			}
		})
	}
}

// TestGateway524 is a model that answers after 3 s behind a gateway that
// answers 524 to a response not started within 1 s (scaled down tenfold):
// streamed, the headers start the response at once and the answer arrives;
// not streamed, the 524 is reported by its number with the hint to stream.
func TestGateway524(t *testing.T) {
	t.Parallel()
	streamedOrNot(t, func(t *testing.T, stream bool) {
		srv := providertest.New(t, scripted.WithGateway(100*time.Millisecond))
		srv.ReplyTo("m", scripted.Reply{Text: "a considered answer", Delay: 300 * time.Millisecond})
		cfg := streamConfig(stream, func(c *configs.Config) { c.API.BaseURL = srv.URL() })
		c, err := New(cfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Complete(t.Context(), ask("a", "m", "q"))
		if stream {
			if err != nil || resp.Text != "a considered answer" {
				t.Errorf("streamed: %q, %v; want the answer", resp.Text, err)
			}
			return
		}
		e := asError(t, err)
		if e.Status != 524 || e.Class != ClassServerError || !strings.Contains(e.Error(), "error code: 524") ||
			!strings.Contains(e.Error(), "set api.stream: true") {
			t.Errorf("not streamed: %v, want the gateway's 524", e)
		}
	})
}

func TestAdaptations(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		refusals  []scripted.Refusal
		json      bool
		format    string
		schema    bool
		wantParam []string
		check     func(t *testing.T, last scripted.Call)
	}{
		{"reasoning model under an alias", []scripted.Refusal{scripted.RefuseMaxTokens(), scripted.RefuseTemperature()}, false, "", false,
			[]string{"max_tokens", "temperature"}, func(t *testing.T, c scripted.Call) {
				if c.MaxTokens != 0 || c.MaxCompletionTokens != 500 || c.Temperature != nil {
					t.Errorf("last call: max_tokens %d, max_completion_tokens %d, temperature %v", c.MaxTokens, c.MaxCompletionTokens, c.Temperature)
				}
			}},
		{"LM Studio refuses json_object, takes the schema", []scripted.Refusal{scripted.RefuseJSONObject()}, true, "json_object", true,
			[]string{"response_format"}, func(t *testing.T, c scripted.Call) {
				if c.ResponseFormat != "json_schema" {
					t.Errorf("last response_format %q, want json_schema", c.ResponseFormat)
				}
			}},
		{"LM Studio refuses json_object, no schema", []scripted.Refusal{scripted.RefuseJSONObject()}, true, "json_object", false,
			[]string{"response_format"}, func(t *testing.T, c scripted.Call) {
				if c.ResponseFormat != "" {
					t.Errorf("last response_format %q, want none", c.ResponseFormat)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			streamedOrNot(t, func(t *testing.T, stream bool) {
				srv := providertest.New(t)
				srv.Refuse("my-o3", tt.refusals...)
				var logs bytes.Buffer
				c := newTestClient(t, srv, streamConfig(stream, func(c *configs.Config) {
					c.Params.Temperature = ptr(0.7)
					c.API.ResponseFormat = tt.format
				}), Options{Logger: newLogger(&logs)})
				const calls = 6
				var wg sync.WaitGroup
				errs := make([]error, calls)
				for i := range calls {
					wg.Go(func() {
						r := ask("a", "my-o3", fmt.Sprint("question ", i))
						r.JSON = tt.json
						if tt.schema {
							r.Schema = []byte(`{"type":"object"}`)
						}
						_, errs[i] = c.Complete(t.Context(), r)
					})
				}
				wg.Wait()
				if err := errors.Join(errs...); err != nil {
					t.Fatal(err)
				}
				refused := srv.Count() - calls
				if refused != len(tt.wantParam) {
					t.Errorf("%d refused requests, want %d (one per parameter)", refused, len(tt.wantParam))
				}
				var params []string
				for _, a := range c.Adaptations() {
					params = append(params, a.Param)
					if a.Model != "my-o3" || a.Endpoint != scripted.MemoryURL || a.Reason == "" {
						t.Errorf("adaptation %+v", a)
					}
				}
				if fmt.Sprint(params) != fmt.Sprint(tt.wantParam) {
					t.Errorf("adaptations %v, want %v", params, tt.wantParam)
				}
				if n := strings.Count(logs.String(), "adapted to the server"); n != len(tt.wantParam) {
					t.Errorf("logged %d adaptations, want each once:\n%s", n, logs.String())
				}
				all := srv.Calls()
				tt.check(t, all[len(all)-1])
			})
		})
	}
}

func TestStreamRefused(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	srv.Refuse("o3-pro", scripted.RefuseStream())
	c := newTestClient(t, srv, streamConfig(true, nil), Options{})
	for i := range 3 {
		if _, err := c.Complete(t.Context(), ask("a", "o3-pro", fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	if got := srv.Count(); got != 4 {
		t.Errorf("%d requests, want 4: one refused, three without streaming", got)
	}
	if a := c.Adaptations(); len(a) != 1 || a[0].Param != "stream" || a[0].Change != "no streaming" {
		t.Errorf("adaptations %+v, want stream → no streaming", a)
	}
}

func TestPassthrough(t *testing.T) {
	t.Parallel()
	streamedOrNot(t, func(t *testing.T, stream bool) {
		srv := providertest.New(t)
		c := newTestClient(t, srv, streamConfig(stream, func(c *configs.Config) {
			c.API.ExtraBody = map[string]any{"reasoning_effort": "high", "provider": map[string]any{"order": []any{"deepinfra"}}}
			c.API.Headers = map[string]string{"HTTP-Referer": "https://example.org", "X-Title": "debate"}
			c.Debaters[0].MaxTokens = 900
			c.Debaters[0].Temperature = ptr(0.0)
			c.Params.Temperature = ptr(0.7)
		}), Options{})
		for _, p := range []string{"a", "b"} {
			if _, err := c.Complete(t.Context(), ask(p, "m", "q")); err != nil {
				t.Fatal(err)
			}
		}
		calls := srv.Calls()
		for _, call := range calls {
			if !bytes.Contains(call.Body, []byte(`"reasoning_effort":"high"`)) || !bytes.Contains(call.Body, []byte(`"provider":{"order":["deepinfra"]}`)) {
				t.Errorf("extraBody missing from %s", call.Body)
			}
		}
		if a := calls[0]; a.MaxTokens != 900 || a.Temperature == nil || *a.Temperature != 0 {
			t.Errorf("participant a: max_tokens %d, temperature %v; want its own 900 and 0", a.MaxTokens, a.Temperature)
		}
		if b := calls[1]; b.MaxTokens != 500 || b.Temperature == nil || *b.Temperature != 0.7 {
			t.Errorf("participant b: max_tokens %d, temperature %v; want params' 500 and 0.7", b.MaxTokens, b.Temperature)
		}
	})
}

func TestHeadersSent(t *testing.T) {
	t.Parallel()
	var got []string
	var mu sync.Mutex
	srv := providertest.New(t)
	rec := &headerRecorder{next: srv.Transport(), seen: func(h string) { mu.Lock(); got = append(got, h); mu.Unlock() }}
	c := newTestClient(t, srv, streamConfig(true, func(c *configs.Config) {
		c.API.Headers = map[string]string{"X-Title": "debate"}
	}), Options{HTTPClient: &http.Client{Transport: rec}})
	if _, err := c.Complete(t.Context(), ask("a", "m", "q")); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "debate" {
		t.Errorf("X-Title sent: %v", got)
	}
}

// TestBaseURLQuery: a base URL's query (Azure's api-version, a gateway's
// token) goes with every request after the path, and its values never
// reach an error.
func TestBaseURLQuery(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var seen []string
	srv := providertest.New(t)
	rec := &urlRecorder{next: srv.Transport(), seen: func(u string) { mu.Lock(); seen = append(seen, u); mu.Unlock() }}
	c := newTestClient(t, srv, streamConfig(true, func(c *configs.Config) {
		c.API.BaseURL += "?api-version=2024-10-21&token=SECRETQ"
	}), Options{HTTPClient: &http.Client{Transport: rec}})
	if _, err := c.Complete(t.Context(), ask("a", "m", "q")); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 || !strings.HasSuffix(strings.SplitN(seen[0], "?", 2)[0], "/chat/completions") ||
		!strings.Contains(seen[0], "api-version=2024-10-21") || !strings.Contains(seen[0], "token=SECRETQ") {
		t.Errorf("requests went to %v, want the path then the base URL's query", seen)
	}

	down := newTestClient(t, srv, streamConfig(true, func(c *configs.Config) {
		c.API.BaseURL = "http://127.0.0.1:1/v1?token=SECRETQ"
	}), Options{HTTPClient: &http.Client{}})
	_, err := down.Complete(t.Context(), ask("a", "m", "q"))
	if err == nil || strings.Contains(err.Error(), "SECRETQ") {
		t.Errorf("error %v: want a failure that names no query value", err)
	}
}

type urlRecorder struct {
	next http.RoundTripper
	seen func(string)
}

func (u *urlRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	u.seen(r.URL.String())
	return u.next.RoundTrip(r)
}

type headerRecorder struct {
	next http.RoundTripper
	seen func(string)
}

func (h *headerRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	h.seen(r.Header.Get("X-Title"))
	return h.next.RoundTrip(r)
}

func newLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// pieceReader reads b at most n bytes at a time.
type pieceReader struct {
	b []byte
	n int
}

func (p *pieceReader) Read(out []byte) (int, error) {
	if len(p.b) == 0 {
		return 0, io.EOF
	}
	k := copy(out[:min(len(out), p.n)], p.b)
	p.b = p.b[k:]
	return k, nil
}

// TestRefusedReadsOnlyRefusals: a 400 adapts only when it refuses a
// parameter the request sent; an out-of-range value or another fault is
// the caller's failure.
func TestRefusedReadsOnlyRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		reply scripted.Reply
		param string // "" for no adaptation
	}{
		{"OpenAI max_tokens", scripted.Reply{Status: 400, Text: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."}, "max_tokens"},
		{"OpenAI temperature", scripted.Reply{Status: 400, Text: "Unsupported value: 'temperature' does not support 0.7 with this model. Only the default (1) value is supported."}, "temperature"},
		{"vLLM extra field", scripted.Reply{Status: 400, Text: "[{'type': 'extra_forbidden', 'loc': ('body', 'think'), 'msg': 'Extra inputs are not permitted'}]"}, "think"},
		{"max_tokens out of range", scripted.Reply{Status: 400, Text: "Invalid 'max_tokens': integer above maximum value. Expected a value <= 4096, but got 50000 instead."}, ""},
		{"a bad message", scripted.Reply{Status: 400, Text: "Invalid value for 'messages[0].role': 'robot' is not one of 'system', 'user'."}, ""},
		{"not a 400", scripted.Reply{Status: 422, Text: "Unsupported parameter: 'max_tokens'"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := providertest.New(t)
			srv.Enqueue("m", tt.reply)
			c := newTestClient(t, srv, streamConfig(true, func(c *configs.Config) {
				c.Params.Temperature = ptr(0.7)
				c.API.ExtraBody = map[string]any{"think": true}
			}), Options{})
			_, err := c.Complete(t.Context(), ask("a", "m", "q"))
			got := ""
			if a := c.Adaptations(); len(a) == 1 {
				got = a[0].Param
			}
			if got != tt.param || (tt.param == "") != (err != nil) {
				t.Errorf("adapted %q (err %v), want %q", got, err, tt.param)
			}
		})
	}
}

// TestFirstCallGate: while the first call for a model has no status yet,
// the others wait for it, but not longer than gateWait: a non-streamed
// answer brings its status only at its end.
func TestFirstCallGate(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := providertest.New(t)
		srv.ReplyTo("m", scripted.Reply{Text: "slow", Delay: time.Minute})
		c := newTestClient(t, srv, streamConfig(false, func(c *configs.Config) { c.API.Timeout = 600_000 }), Options{})
		start := time.Now()
		runParallel(t, c, 3, func(i int) Request { return ask("a", "m", fmt.Sprint(i)) })
		if got, want := time.Since(start), time.Minute+gateWait; got != want {
			t.Errorf("three one-minute calls took %v, want %v: the first alone for %v, then all at once", got, want, gateWait)
		}
	})
}
