package providers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

func TestClassify(t *testing.T) {
	code := "context_length_exceeded"
	tests := []struct {
		name      string
		err       error
		kind      Kind
		retryable bool
		status    int
	}{
		{"429", &openai.APIError{HTTPStatusCode: 429, Message: "slow down"}, KindRateLimit, true, 429},
		{"500", &openai.APIError{HTTPStatusCode: 500}, KindServer, true, 500},
		{"503", &openai.APIError{HTTPStatusCode: 503}, KindServer, true, 503},
		{"408", &openai.APIError{HTTPStatusCode: 408}, KindTimeout, true, 408},
		{"409", &openai.APIError{HTTPStatusCode: 409}, KindConflict, true, 409},
		{"401", &openai.APIError{HTTPStatusCode: 401}, KindAuth, false, 401},
		{"403", &openai.APIError{HTTPStatusCode: 403}, KindAuth, false, 403},
		{"404", &openai.APIError{HTTPStatusCode: 404}, KindNotFound, false, 404},
		{"400", &openai.APIError{HTTPStatusCode: 400, Message: "unknown field"}, KindBadRequest, false, 400},
		{"422", &openai.APIError{HTTPStatusCode: 422}, KindBadRequest, false, 422},
		{"400 context code", &openai.APIError{HTTPStatusCode: 400, Code: code}, KindContextLength, false, 400},
		{"400 context message", &openai.APIError{HTTPStatusCode: 400, Message: "This model's maximum context length is 8192 tokens"}, KindContextLength, false, 400},
		{"non-JSON 502", &openai.RequestError{HTTPStatusCode: 502, Body: []byte("<html>")}, KindServer, true, 502},
		{"non-JSON 400 context", &openai.RequestError{HTTPStatusCode: 400, Body: []byte("prompt is too long")}, KindContextLength, false, 400},
		{"wrapped", fmt.Errorf("calling: %w", &openai.APIError{HTTPStatusCode: 429}), KindRateLimit, true, 429},
		{"canceled", fmt.Errorf("x: %w", context.Canceled), KindCanceled, false, 0},
		{"deadline", &url.Error{Op: "Post", URL: "u", Err: context.DeadlineExceeded}, KindTimeout, true, 0},
		{"net timeout", &net.OpError{Op: "dial", Err: os.ErrDeadlineExceeded}, KindTimeout, true, 0},
		{"reset", &url.Error{Op: "Post", URL: "u", Err: &net.OpError{Op: "read", Err: os.NewSyscallError("read", syscall.ECONNRESET)}}, KindNetwork, true, 0},
		{"refused", &net.OpError{Op: "dial", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}, KindNetwork, true, 0},
		{"eof", &url.Error{Op: "Post", URL: "u", Err: io.EOF}, KindNetwork, true, 0},
		{"dns", &url.Error{Op: "Post", URL: "u", Err: &net.DNSError{Err: "no such host", Name: "x"}}, KindNetwork, true, 0},
		{"syntax", &json.SyntaxError{Offset: 3}, KindInvalidResponse, true, 0},
		{"empty", fmt.Errorf("%w: no choices", errInvalidResponse), KindInvalidResponse, true, 0},
		{"refused client-side", openai.ErrReasoningModelMaxTokensDeprecated, KindBadRequest, false, 0},
		{"unknown", errors.New("strange"), KindOther, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := Classify(tt.err)
			if e.Kind != tt.kind || e.Retryable != tt.retryable || e.Status != tt.status {
				t.Errorf("Classify(%v) = kind %v retryable %v status %d; want %v %v %d",
					tt.err, e.Kind, e.Retryable, e.Status, tt.kind, tt.retryable, tt.status)
			}
			if !errors.Is(e, tt.err) {
				t.Errorf("the cause is not kept: %v", e)
			}
		})
	}
	if Classify(nil) != nil {
		t.Error("Classify(nil) != nil")
	}
	e := &Error{Kind: KindAuth}
	if Classify(fmt.Errorf("w: %w", e)) != e {
		t.Error("an *Error in the chain is not returned as is")
	}
}

func TestErrorText(t *testing.T) {
	e := &Error{Kind: KindRateLimit, Model: "gpt-4o", Endpoint: "https://api.example/v1", Status: 429, Err: errors.New("slow down")}
	want := "rate limit error from model gpt-4o at https://api.example/v1 (status 429): slow down"
	if e.Error() != want {
		t.Errorf("got %q, want %q", e.Error(), want)
	}
}

func TestSanitizeShortensAndRedacts(t *testing.T) {
	r := newRedactor([]string{"sk-secret"})
	body := "<html>sk-secret " + strings.Repeat("y", 5000)
	err := sanitize(&openai.RequestError{HTTPStatus: "502 Bad Gateway", HTTPStatusCode: 502, Body: []byte(body)}, r.redact)
	msg := err.Error()
	if strings.Contains(msg, "sk-secret") || len(msg) > maxBody+100 || !strings.HasPrefix(msg, "non-JSON body: <html>") {
		t.Errorf("sanitized message %q", msg)
	}
	var reqErr *openai.RequestError
	if !errors.As(err, &reqErr) || reqErr.HTTPStatusCode != 502 {
		t.Error("the request error is not reachable after sanitizing")
	}
	api := sanitize(&openai.APIError{HTTPStatusCode: 401, Message: "key sk-secret is wrong"}, r.redact)
	if api.Error() != "key [REDACTED] is wrong" {
		t.Errorf("api error not redacted: %v", api)
	}
}

func TestReasoningModel(t *testing.T) {
	tests := []struct {
		model string
		want  bool
	}{
		{"o1", true},
		{"o1-mini", true},
		{"o3-mini", true},
		{"o4-mini-high", true},
		{"gpt-5", true},
		{"gpt-5.2", true},
		{"gpt-5-mini", true},
		{"GPT-5.1", true},
		{"gpt-6-sol", true},
		{"openai/o3", true},
		{"openrouter/openai/gpt-5", true},
		{"gpt-4o", false},
		{"gpt-4.1", false},
		{"kimi-k2.5", false},
		{"qwen3.5-plus", false},
		{"claude-sonnet-4-6", false},
		{"omni-moderation", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := reasoningModel(tt.model); got != tt.want {
			t.Errorf("reasoningModel(%q) = %v, want %v", tt.model, got, tt.want)
		}
	}
}

// The rule must cover every model go-openai refuses max_tokens for, or the
// request never leaves the client.
func TestReasoningRuleCoversClientChecks(t *testing.T) {
	for _, m := range []string{"o1-preview", "o3", "o4-mini", "gpt-5-nano", openai.GPT6Sol, "o1x"} {
		req := openai.ChatCompletionRequest{Model: m, MaxTokens: 10}
		if err := openai.NewReasoningValidator().Validate(req); err != nil && !reasoningModel(m) {
			t.Errorf("go-openai refuses max_tokens for %q but the rule does not treat it as reasoning", m)
		}
	}
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
		{"default base", 0, 0, 1, 0, defaultRetryDelay},
		{"retry-after is a floor", 100 * time.Millisecond, 0, 0, 5 * time.Second, 5 * time.Second},
		{"retry-after below backoff", 4 * time.Second, 0, 1, time.Second, 4 * time.Second},
		{"retry-after capped", time.Second, 0, 0, time.Hour, maxRetryAfter},
	}
	for _, tt := range tests {
		if got := backoff(tt.base, tt.n, tt.jitter, tt.retryAfter); got != tt.want {
			t.Errorf("%s: backoff = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestRetryAfterHeader(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name string
		h    http.Header
		want time.Duration
	}{
		{"none", http.Header{}, 0},
		{"seconds", http.Header{"Retry-After": {"7"}}, 7 * time.Second},
		{"fraction", http.Header{"Retry-After": {"1.5"}}, 1500 * time.Millisecond},
		{"date", http.Header{"Retry-After": {now.Add(20 * time.Second).Format(http.TimeFormat)}}, 20 * time.Second},
		{"past date", http.Header{"Retry-After": {now.Add(-time.Minute).Format(http.TimeFormat)}}, 0},
		{"milliseconds first", http.Header{"Retry-After": {"9"}, "Retry-After-Ms": {"250"}}, 250 * time.Millisecond},
		{"garbage", http.Header{"Retry-After": {"soon"}}, 0},
		{"negative", http.Header{"Retry-After": {"-3"}}, 0},
	}
	for _, tt := range tests {
		if got := retryAfter(tt.h, now); got != tt.want {
			t.Errorf("%s: retryAfter = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestWithZeroTemperature(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"model":"m"}`, `{"temperature":0,"model":"m"}`},
		{`{}`, `{"temperature":0}`},
		{`{"temperature":0.5}`, `{"temperature":0.5}`},
		{`[]`, `[]`},
	}
	for _, tt := range tests {
		got := string(withZeroTemperature([]byte(tt.in)))
		if got != tt.want {
			t.Errorf("withZeroTemperature(%s) = %s, want %s", tt.in, got, tt.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("invalid JSON %s", got)
		}
	}
}
