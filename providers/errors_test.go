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
		name   string
		err    error
		kind   Kind
		class  Class
		status int
	}{
		{"429", &openai.APIError{HTTPStatusCode: 429, Message: "slow down"}, KindRateLimit, Transient, 429},
		{"500", &openai.APIError{HTTPStatusCode: 500}, KindServer, Transient, 500},
		{"503", &openai.APIError{HTTPStatusCode: 503}, KindServer, Transient, 503},
		{"408", &openai.APIError{HTTPStatusCode: 408}, KindTimeout, Transient, 408},
		{"409", &openai.APIError{HTTPStatusCode: 409}, KindConflict, Transient, 409},
		{"401", &openai.APIError{HTTPStatusCode: 401}, KindAuth, Unusable, 401},
		{"403", &openai.APIError{HTTPStatusCode: 403}, KindAuth, Unusable, 403},
		{"404", &openai.APIError{HTTPStatusCode: 404}, KindNotFound, Unusable, 404},
		{"400", &openai.APIError{HTTPStatusCode: 400, Message: "unknown field"}, KindBadRequest, Permanent, 400},
		{"422", &openai.APIError{HTTPStatusCode: 422}, KindBadRequest, Permanent, 422},
		{"400 context code", &openai.APIError{HTTPStatusCode: 400, Code: code}, KindContextLength, Unusable, 400},
		{"400 context message", &openai.APIError{HTTPStatusCode: 400, Message: "This model's maximum context length is 8192 tokens"}, KindContextLength, Unusable, 400},
		{"non-JSON 502", &openai.RequestError{HTTPStatusCode: 502, Body: []byte("<html>")}, KindServer, Transient, 502},
		{"non-JSON 400 context", &openai.RequestError{HTTPStatusCode: 400, Body: []byte("prompt is too long")}, KindContextLength, Unusable, 400},
		{"wrapped", fmt.Errorf("calling: %w", &openai.APIError{HTTPStatusCode: 429}), KindRateLimit, Transient, 429},
		{"canceled", fmt.Errorf("x: %w", context.Canceled), KindCanceled, Permanent, 0},
		{"deadline", &url.Error{Op: "Post", URL: "u", Err: context.DeadlineExceeded}, KindTimeout, Transient, 0},
		{"net timeout", &net.OpError{Op: "dial", Err: os.ErrDeadlineExceeded}, KindTimeout, Transient, 0},
		{"reset", &url.Error{Op: "Post", URL: "u", Err: &net.OpError{Op: "read", Err: os.NewSyscallError("read", syscall.ECONNRESET)}}, KindNetwork, Transient, 0},
		{"refused", &net.OpError{Op: "dial", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}, KindNetwork, Transient, 0},
		{"eof", &url.Error{Op: "Post", URL: "u", Err: io.EOF}, KindNetwork, Transient, 0},
		{"dns", &url.Error{Op: "Post", URL: "u", Err: &net.DNSError{Err: "no such host", Name: "x"}}, KindNetwork, Transient, 0},
		{"syntax", &json.SyntaxError{Offset: 3}, KindInvalidResponse, Transient, 0},
		{"empty", fmt.Errorf("%w: no choices", errInvalidResponse), KindInvalidResponse, Transient, 0},
		{"refused client-side", openai.ErrReasoningModelMaxTokensDeprecated, KindBadRequest, Permanent, 0},
		{"unknown", errors.New("strange"), KindOther, Permanent, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := Classify(tt.err)
			if e.Kind != tt.kind || e.Kind.Class() != tt.class || e.Status != tt.status {
				t.Errorf("Classify(%v) = kind %v class %v status %d; want %v %v %d",
					tt.err, e.Kind, e.Kind.Class(), e.Status, tt.kind, tt.class, tt.status)
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

func TestBodyPatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		patch *bodyPatch
		in    string
		want  string
	}{
		{"nil keeps the bytes", nil, `{"model":"m", "x":1}`, `{"model":"m", "x":1}`},
		{"zero temperature added", &bodyPatch{zeroTemperature: true}, `{"model":"m"}`, `{"model":"m","temperature":0}`},
		{"set temperature kept", &bodyPatch{zeroTemperature: true}, `{"temperature":0.5}`, `{"temperature":0.5}`},
		{"extra merged, own fields kept", &bodyPatch{extra: map[string]json.RawMessage{
			"reasoning_effort": json.RawMessage(`"high"`), "model": json.RawMessage(`"other"`), "stream": json.RawMessage(`false`),
		}}, `{"model":"m","stream":true}`, `{"model":"m","reasoning_effort":"high","stream":true}`},
		{"dropped after merging", &bodyPatch{extra: map[string]json.RawMessage{"think": json.RawMessage(`true`)}, drop: []string{"think", "max_tokens"}},
			`{"max_tokens":5,"model":"m"}`, `{"model":"m"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.patch.apply([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("apply(%s) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
	if _, err := (&bodyPatch{zeroTemperature: true}).apply([]byte(`[]`)); err == nil {
		t.Error("patching a list: no error")
	}
}
