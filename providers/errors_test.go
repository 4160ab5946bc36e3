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

	"github.com/debatehq/debate/internal/redact"
)

func TestClassify(t *testing.T) {
	code := "context_length_exceeded"
	tests := []struct {
		name   string
		err    error
		kind   Class
		way    way
		status int
	}{
		{"429", status(429, `{"error":{"message":"slow down"}}`), ClassRateLimited, retry, 429},
		{"500", status(500, ``), ClassServerError, retry, 500},
		{"503", status(503, `{"error":{"message":"overloaded"}}`), ClassServerError, retry, 503},
		{"408", status(408, ``), ClassTimeout, retry, 408},
		{"409", status(409, ``), ClassConflict, retry, 409},
		{"401", status(401, `{"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}}`), ClassKeyRefused, fallBack, 401},
		{"403", status(403, ``), ClassKeyRefused, fallBack, 403},
		{"404", status(404, `{"error":{"message":"The model does not exist","code":"model_not_found"}}`), ClassModelUnavailable, fallBack, 404},
		{"400", status(400, `{"error":{"message":"unknown field"}}`), ClassBadRequest, final, 400},
		{"422", status(422, ``), ClassBadRequest, final, 422},
		{"400 context code", status(400, `{"error":{"message":"too long","code":"`+code+`"}}`), ClassPromptTooLong, fallBack, 400},
		{"400 context message", status(400, `{"error":{"message":"This model's maximum context length is 8192 tokens"}}`), ClassPromptTooLong, fallBack, 400},
		{"413 context", status(413, `{"error":{"message":"prompt is too long"}}`), ClassPromptTooLong, fallBack, 413},
		{"400 no system message", status(400, `{"error":{"message":"Unsupported value: 'messages[0].role' does not support 'system' with this model.","code":"unsupported_value"}}`), ClassNoSystem, fallBack, 400},
		{"429 upstream, nested", status(429, `{"error":{"code":429,"message":"Provider returned error","metadata":{"provider_name":"G","raw":"g/m is temporarily rate-limited upstream"}}}`), ClassRateLimited, retry, 429},
		{"non-JSON 502", status(502, "<html>"), ClassServerError, retry, 502},
		{"non-JSON 400 context", status(400, "prompt is too long"), ClassPromptTooLong, fallBack, 400},
		{"wrapped", fmt.Errorf("calling: %w", status(429, ``)), ClassRateLimited, retry, 429},
		{"canceled", fmt.Errorf("x: %w", context.Canceled), ClassCanceled, final, 0},
		{"deadline", &url.Error{Op: "Post", URL: "u", Err: context.DeadlineExceeded}, ClassTimeout, retry, 0},
		{"net timeout", &net.OpError{Op: "dial", Err: os.ErrDeadlineExceeded}, ClassTimeout, retry, 0},
		{"reset", &url.Error{Op: "Post", URL: "u", Err: &net.OpError{Op: "read", Err: os.NewSyscallError("read", syscall.ECONNRESET)}}, ClassNetwork, retry, 0},
		{"refused", &net.OpError{Op: "dial", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}, ClassNetwork, retry, 0},
		{"eof", &url.Error{Op: "Post", URL: "u", Err: io.EOF}, ClassNetwork, retry, 0},
		{"dns", &url.Error{Op: "Post", URL: "u", Err: &net.DNSError{Err: "no such host", Name: "x"}}, ClassNetwork, retry, 0},
		{"syntax", &json.SyntaxError{Offset: 3}, ClassInvalidResponse, retry, 0},
		{"empty", fmt.Errorf("%w: no choices", errInvalidResponse), ClassInvalidResponse, retry, 0},
		{"unknown", errors.New("strange"), ClassOther, final, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := Classify(tt.err)
			if e.Class != tt.kind || wayOf(e.Class) != tt.way || e.Status != tt.status {
				t.Errorf("Classify(%v) = class %v way %v status %d; want %v %v %d",
					tt.err, e.Class, wayOf(e.Class), e.Status, tt.kind, tt.way, tt.status)
			}
			if !errors.Is(e, tt.err) {
				t.Errorf("the cause is not kept: %v", e)
			}
		})
	}
	if Classify(nil) != nil {
		t.Error("Classify(nil) != nil")
	}
	e := &Error{Class: ClassKeyRefused}
	if Classify(fmt.Errorf("w: %w", e)) != e {
		t.Error("an *Error in the chain is not returned as is")
	}
}

func TestErrorText(t *testing.T) {
	e := &Error{Class: ClassRateLimited, Model: "gpt-4o", Endpoint: "https://api.example/v1", Status: 429, Err: errors.New("slow down")}
	want := "rate limited from model gpt-4o at https://api.example/v1 (status 429): slow down"
	if e.Error() != want {
		t.Errorf("got %q, want %q", e.Error(), want)
	}
}

// status is an error response as the client reads it.
func status(code int, body string) error {
	return newStatusError(code, []byte(body), true, func(s string) string { return s })
}

// gatewayPage is an HTML error page in the shape Cloudflare documents for
// its 5xx errors: a long head of styles before the body's text.
const gatewayPage = `<!DOCTYPE html>
<!--[if lt IE 7]> <html class="no-js ie6 oldie" lang="en-US"> <![endif]-->
<head>
<title>api.example.com | 524: A timeout occurred</title>
<meta charset="UTF-8" />
<meta name="robots" content="noindex, nofollow" />
<link rel="stylesheet" id="cf_styles-css" href="/cdn-cgi/styles/main.css" />
<style>body{margin:0;padding:0}</style>
</head>
<body><h1>A timeout occurred</h1><p>The origin web server timed out responding to this request.</p></body>
</html>`

// TestStatusErrorText: the message is the provider's own reason, nested
// detail included, or an HTML page's title, keys redacted, a long body
// shortened; a gateway's timeout of an answer in one piece says to stream.
func TestStatusErrorText(t *testing.T) {
	t.Parallel()
	r := redact.NewSecrets([]string{"sk-secret-0123456789"})
	const hint = " (the gateway gave up waiting for an answer in one piece: set api.stream: true, and the answer starts at once)"
	tests := []struct {
		name   string
		status int
		stream bool
		body   string
		want   string
	}{
		{"a JSON error", 401, true, `{"error":{"message":"Incorrect API key provided: sk-secret-0123456789.","code":"invalid_api_key"}}`,
			"Incorrect API key provided: [REDACTED]. (code invalid_api_key)"},
		{"a gateway's upstream reason", 429, true, `{"error":{"code":429,"message":"Provider returned error","metadata":{"provider_name":"Google","raw":"g/m is rate-limited upstream; key sk-secret-0123456789"}}}`,
			"Provider returned error: upstream Google says: g/m is rate-limited upstream; key [REDACTED] (code 429)"},
		{"a body that is no JSON", 502, true, "<html>sk-secret-0123456789 " + strings.Repeat("y", 5000),
			"non-JSON body: <html>[REDACTED] " + strings.Repeat("y", maxBody-len("non-JSON body: <html>[REDACTED] ")) + "…"},
		{"an empty body", 502, true, "", "empty body"},
		{"an HTML page, streamed", 524, true, gatewayPage, "HTML page: api.example.com | 524: A timeout occurred"},
		{"an HTML page, in one piece", 524, false, gatewayPage, "HTML page: api.example.com | 524: A timeout occurred" + hint},
		{"a title with entities over lines", 504, false, "<html><head><TITLE>\n  Gateway &amp; proxy\n timeout</TITLE></head></html>",
			"HTML page: Gateway & proxy timeout" + hint},
		{"a gateway's plain text", 524, false, "error code: 524", "non-JSON body: error code: 524" + hint},
		{"another 5xx in one piece", 502, false, strings.ReplaceAll(gatewayPage, "524: A timeout occurred", "502: Bad gateway"),
			"HTML page: api.example.com | 502: Bad gateway"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := newStatusError(tt.status, []byte(tt.body), tt.stream, r.Text).Error(); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
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
		if got := ReasoningModel(tt.model); got != tt.want {
			t.Errorf("ReasoningModel(%q) = %v, want %v", tt.model, got, tt.want)
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

// way is what a failure asks of the attempt loop, as the tests name it.
type way int

const (
	final    way = iota // the call ends
	retry               // the same model again
	fallBack            // the fallback at once
)

func wayOf(c Class) way {
	switch then := c.Consequence(); {
	case then.FallBack:
		return fallBack
	case then.Retry:
		return retry
	}
	return final
}
