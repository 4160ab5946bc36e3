package providers

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"

	"github.com/debatehq/debate/configs"
)

// Options tune a Client beyond what the config says.
type Options struct {
	// Concurrency is the global cap on calls in flight; 0 takes
	// params.concurrency from the config.
	Concurrency int
	// HTTPClient is the base HTTP client (tests pass a fake's); nil: a
	// default one. Per-call timeouts come from contexts, not from it.
	HTTPClient *http.Client
	// Logger receives one record per attempt; nil discards them.
	Logger *slog.Logger
	// Record, when set, receives every request/response pair, keys redacted.
	// It is called from the calling goroutines and must be safe for
	// concurrent use.
	Record func(Exchange)
}

// Exchange is one HTTP attempt as sent and received, keys redacted outside
// the model text (see redactBody).
type Exchange struct {
	Origin      Origin // the request's
	Participant string
	Model       string
	Attempt     int // the request's Attempt: 1 for the first try of a call
	Request     []byte
	Response    []byte
	Status      int    // 0 if no response arrived
	Err         string // "" on success
	Started     time.Time
	Latency     time.Duration
}

// Client makes chat-completion calls for every participant of a config, one
// attempt each: trying again, and falling back to another model, is the
// caller's policy. It is safe for concurrent use.
type Client struct {
	maxTokens   int
	temperature *float64

	global *semaphore.Weighted
	routes map[string]*route // by participant id
	def    *route            // for an unknown or empty participant

	redactor *redactor
	log      *slog.Logger
	record   func(Exchange)
}

// endpoint is one distinct base URL and key: one go-openai client with its
// own caps.
type endpoint struct {
	client  *openai.Client
	url     string              // base URL without credentials, for errors
	sem     *semaphore.Weighted // nil: no cap of its own
	limiter *rate.Limiter       // nil: unlimited
}

// route is how one participant calls: its endpoint and its merged settings.
type route struct {
	ep             *endpoint
	timeout        time.Duration
	responseFormat string
}

// New builds the clients of every distinct endpoint in cfg, which must carry
// its defaults (configs.Load applies them): New adds none of its own.
func New(cfg *configs.Config, opt Options) (*Client, error) {
	if cfg == nil {
		return nil, errors.New("providers: nil config")
	}
	concurrency := cmp.Or(opt.Concurrency, cfg.Params.Concurrency)
	if concurrency <= 0 {
		return nil, fmt.Errorf("params.concurrency: must be at least 1 (got %d)", concurrency)
	}
	httpClient := opt.HTTPClient
	if httpClient == nil {
		httpClient = defaultHTTPClient()
	}
	c := &Client{
		maxTokens:   cfg.Params.MaxTokensPerResponse,
		temperature: cfg.Params.Temperature,
		global:      semaphore.NewWeighted(int64(concurrency)),
		routes:      map[string]*route{},
		log:         opt.Logger,
		record:      opt.Record,
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}

	apis := map[string]configs.API{"": cfg.Endpoint("")}
	for _, p := range cfg.Participants() {
		apis[p.ID] = cfg.Endpoint(p.ID)
	}
	c.redactor = newRedactor(cfg.Secrets())

	// Participants that share a base URL and key share one endpoint; when
	// they ask for different caps, the tightest one holds.
	type limits struct {
		maxConcurrent int
		rpm           float64
	}
	endpointKey := func(a configs.API) string { return a.BaseURL + "\x00" + a.APIKey }
	lim := map[string]limits{}
	for _, a := range apis {
		k := endpointKey(a)
		l := lim[k]
		l.maxConcurrent = tighter(l.maxConcurrent, a.MaxConcurrent)
		l.rpm = tighter(l.rpm, a.RequestsPerMinute)
		lim[k] = l
	}
	endpoints := map[string]*endpoint{}
	for id, a := range apis {
		if a.Timeout <= 0 {
			return nil, fmt.Errorf("participant %q: api.timeout: must be greater than 0 milliseconds (got %d)", id, a.Timeout)
		}
		k := endpointKey(a)
		ep := endpoints[k]
		if ep == nil {
			var err error
			ep, err = c.newEndpoint(a, httpClient)
			if err != nil {
				return nil, fmt.Errorf("participant %q: %w", id, err)
			}
			if l := lim[k]; l.maxConcurrent > 0 {
				ep.sem = semaphore.NewWeighted(int64(l.maxConcurrent))
			}
			if l := lim[k]; l.rpm > 0 {
				ep.limiter = rate.NewLimiter(rate.Limit(l.rpm/60), 1)
			}
			endpoints[k] = ep
		}
		rt := &route{
			ep:             ep,
			timeout:        time.Duration(a.Timeout) * time.Millisecond,
			responseFormat: a.ResponseFormat,
		}
		if id == "" {
			c.def = rt
		} else {
			c.routes[id] = rt
		}
	}
	return c, nil
}

func (c *Client) newEndpoint(a configs.API, httpClient *http.Client) (*endpoint, error) {
	oc := openai.DefaultConfig(a.APIKey)
	if a.BaseURL != "" {
		oc.BaseURL = a.BaseURL
	}
	u, err := url.Parse(oc.BaseURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("api.baseURL: not an absolute URL: %q", c.redactor.redact(oc.BaseURL))
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	oc.HTTPClient = &doer{base: httpClient}
	return &endpoint{client: openai.NewClientWithConfig(oc), url: c.redactor.redact(u.String())}, nil
}

// tighter returns the smaller of two limits where 0 means none.
func tighter[T int | float64](a, b T) T {
	switch {
	case a <= 0:
		return max(b, 0)
	case b <= 0:
		return a
	}
	return min(a, b)
}

func (c *Client) route(participant string) *route {
	if rt, ok := c.routes[participant]; ok {
		return rt
	}
	return c.def
}

// Redact returns s without any configured API key value or bearer token.
func (c *Client) Redact(s string) string { return c.redactor.redact(s) }

// Complete makes one attempt of r at the endpoint of r.Participant and
// returns the answer. MaxTokens and Temperature default to the config's
// params; reasoning models get max_completion_tokens and no temperature. It
// waits for the global and endpoint caps and the rate limit, all ending when
// ctx does. A failure is an *Error whose Kind classifies it; RetryAfter
// carries the wait the server asked for.
func (c *Client) Complete(ctx context.Context, r Request) (Response, error) {
	rt := c.route(r.Participant)
	req, zeroTemp := c.chatRequest(r, rt)
	resp, e := c.try(ctx, rt, r, req, zeroTemp)
	if e != nil {
		c.log.Debug("model call failed", "participant", r.Participant, "model", r.Model,
			"attempt", max(r.Attempt, 1), "err", c.redactor.redact(e.Error()))
		return Response{}, e
	}
	return resp, nil
}

// try makes the attempt under the global and endpoint limits.
func (c *Client) try(ctx context.Context, rt *route, r Request, req openai.ChatCompletionRequest, zeroTemp bool) (Response, *Error) {
	fail := func(err error) *Error {
		e := &Error{Kind: KindCanceled, Model: r.Model, Endpoint: rt.ep.url, Err: err}
		if errors.Is(err, context.DeadlineExceeded) {
			e.Kind = KindTimeout
		}
		return e
	}
	if rt.ep.sem != nil {
		if err := rt.ep.sem.Acquire(ctx, 1); err != nil {
			return Response{}, fail(fmt.Errorf("waiting for an endpoint slot: %w", err))
		}
		defer rt.ep.sem.Release(1)
	}
	if rt.ep.limiter != nil {
		if err := rt.ep.limiter.Wait(ctx); err != nil {
			if ctx.Err() == nil {
				err = fmt.Errorf("%w: %v", context.DeadlineExceeded, err)
			}
			return Response{}, fail(fmt.Errorf("waiting for the rate limit: %w", err))
		}
	}
	if err := c.global.Acquire(ctx, 1); err != nil {
		return Response{}, fail(fmt.Errorf("waiting for a call slot: %w", err))
	}
	defer c.global.Release(1)

	a := &attempt{zeroTemperature: zeroTemp, record: c.record != nil}
	actx, cancel := context.WithTimeout(withAttempt(ctx, a), rt.timeout)
	defer cancel()
	started := time.Now()
	out, err := rt.ep.client.CreateChatCompletion(actx, req)
	latency := time.Since(started)

	var resp Response
	if err == nil {
		resp, err = c.response(out, r.Model, a.response)
		resp.Latency = latency
	}
	var e *Error
	if err != nil {
		e = c.classify(ctx, actx, err, a, rt)
		e.Model = r.Model
		e.Endpoint = rt.ep.url
	}
	c.log.Debug("model call", "participant", r.Participant, "model", r.Model,
		"attempt", max(r.Attempt, 1), "status", a.status, "latency", latency, "ok", e == nil)
	if c.record != nil {
		x := Exchange{
			Participant: r.Participant, Model: r.Model, Attempt: max(r.Attempt, 1), Origin: r.Origin,
			Request:  c.redactor.redactBody(a.request),
			Response: c.redactor.redactBody(a.response),
			Status:   a.status, Started: started, Latency: latency,
		}
		if e != nil {
			x.Err = c.redactor.redact(e.Error())
		}
		c.record(x)
	}
	return resp, e
}

// classify turns the error of one attempt into an *Error that is safe to
// return, telling the caller's cancellation from the attempt's timeout.
func (c *Client) classify(ctx, actx context.Context, err error, a *attempt, rt *route) *Error {
	safe := sanitize(err, c.redactor.redact)
	err = &safeError{msg: c.redactor.redact(safe.Error()), cause: safe}
	switch {
	case ctx.Err() != nil:
		e := &Error{Kind: KindCanceled, Err: err}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			e.Kind = KindTimeout
		}
		return e
	case errors.Is(actx.Err(), context.DeadlineExceeded):
		return &Error{
			Kind: KindTimeout,
			Err:  fmt.Errorf("no answer within %v: %w", rt.timeout, context.DeadlineExceeded),
		}
	}
	e := Classify(err)
	if e.Status == 0 {
		e.Status = a.status
	}
	if a.status >= 200 && a.status < 300 && !e.Kind.Transient() && !answerKind(e.Kind) {
		// A 200 whose body could not be read as a completion.
		e.Kind = KindInvalidResponse
	} else if a.status >= 200 && a.status < 300 && e.Kind == KindNetwork {
		e.Kind = KindInvalidResponse
	}
	e.RetryAfter = a.retryAfter
	return e
}

// finishLength and finishFilter are the finish reasons of an answer stopped
// at the token limit and of one withheld by a content filter.
const (
	finishLength = string(openai.FinishReasonLength)
	finishFilter = string(openai.FinishReasonContentFilter)
)

// response checks and converts a completion; body is the raw response,
// read for the reasoning fields that go-openai does not decode. The answer
// is split from its reasoning (Normalize). An answer that cannot be used is
// an *answerError in the provider's words: withheld by a filter or refused,
// cut before any answer, or empty.
func (c *Client) response(out openai.ChatCompletionResponse, model string, body []byte) (Response, error) {
	if len(out.Choices) == 0 {
		return Response{}, fmt.Errorf("%w: no choices", errInvalidResponse)
	}
	ch := out.Choices[0]
	text, reasoning := Normalize(ch.Message.Content, ch.Message.ReasoningContent, reasoningField(body))
	text, reasoning = c.redactor.echoed(text), c.redactor.echoed(reasoning)
	resp := Response{
		Text:         text,
		Reasoning:    reasoning,
		FinishReason: string(ch.FinishReason),
		Model:        cmp.Or(out.Model, model),
		Usage:        Usage{PromptTokens: out.Usage.PromptTokens, CompletionTokens: out.Usage.CompletionTokens},
	}
	empty := strings.TrimSpace(text) == ""
	switch {
	case resp.FinishReason == finishFilter:
		return Response{}, &answerError{kind: KindFiltered, msg: filtered(ch)}
	case empty && ch.Message.Refusal != "":
		return Response{}, &answerError{kind: KindFiltered, msg: fmt.Sprintf("the model refused: %q", ch.Message.Refusal)}
	case empty && resp.Cut():
		return Response{}, &answerError{kind: KindCut, msg: fmt.Sprintf(
			"cut at the token limit before any answer (finish_reason %q, %d completion tokens%s): raise params.maxTokensPerResponse",
			resp.FinishReason, resp.Usage.CompletionTokens, reasoningNote(reasoning))}
	case empty:
		return Response{}, &answerError{kind: KindEmpty, msg: fmt.Sprintf(
			"empty answer (finish_reason %q%s)", resp.FinishReason, reasoningNote(reasoning))}
	}
	return resp, nil
}

// filtered describes a choice that a content filter stopped: the finish
// reason, the filter's categories that fired, and whatever text came back.
func filtered(ch openai.ChatCompletionChoice) string {
	var b strings.Builder
	fmt.Fprintf(&b, "the provider's content filter withheld the answer (finish_reason %q)", ch.FinishReason)
	f := ch.ContentFilterResults
	var cats []string
	for _, c := range []struct {
		name string
		on   bool
	}{
		{"hate", f.Hate.Filtered}, {"self_harm", f.SelfHarm.Filtered}, {"sexual", f.Sexual.Filtered},
		{"violence", f.Violence.Filtered}, {"jailbreak", f.JailBreak.Filtered}, {"profanity", f.Profanity.Filtered},
	} {
		if c.on {
			cats = append(cats, c.name)
		}
	}
	if len(cats) > 0 {
		fmt.Fprintf(&b, ", categories: %s", strings.Join(cats, ", "))
	}
	if ch.Message.Refusal != "" {
		fmt.Fprintf(&b, ": %q", ch.Message.Refusal)
	} else if t := strings.TrimSpace(ch.Message.Content); t != "" {
		fmt.Fprintf(&b, ": %q", t)
	}
	return b.String()
}

// reasoningNote says that reasoning came back without an answer.
func reasoningNote(reasoning string) string {
	if reasoning == "" {
		return ""
	}
	// A comma, not a semicolon: reports split reasons at "; ".
	return fmt.Sprintf(", %d bytes of reasoning came back alone", len(reasoning))
}

// reasoningField returns choices[0].message.reasoning from a raw response,
// the field OpenRouter, Ollama and recent vLLM use, or "".
func reasoningField(body []byte) string {
	if !bytes.Contains(body, []byte(`"reasoning"`)) {
		return ""
	}
	var r struct {
		Choices []struct {
			Message struct {
				Reasoning *string `json:"reasoning"`
			} `json:"message"`
		} `json:"choices"`
	}
	if json.Unmarshal(body, &r) != nil || len(r.Choices) == 0 || r.Choices[0].Message.Reasoning == nil {
		return ""
	}
	return *r.Choices[0].Message.Reasoning
}

// chatRequest maps r to go-openai's request. The second result asks the
// transport to send an explicit temperature of 0, which go-openai omits.
func (c *Client) chatRequest(r Request, rt *route) (openai.ChatCompletionRequest, bool) {
	out := openai.ChatCompletionRequest{
		Model:    r.Model,
		Messages: make([]openai.ChatCompletionMessage, len(r.Messages)),
	}
	for i, m := range r.Messages {
		out.Messages[i] = openai.ChatCompletionMessage{Role: m.Role, Content: m.Content}
	}
	maxTokens := c.maxTokens
	if r.MaxTokens != nil {
		maxTokens = *r.MaxTokens
	}
	temperature := c.temperature
	if r.Temperature != nil {
		temperature = r.Temperature
	}
	zeroTemp := false
	if reasoningModel(r.Model) {
		// Reasoning models take max_completion_tokens and no sampling fields.
		out.MaxCompletionTokens = max(maxTokens, 0)
	} else {
		out.MaxTokens = max(maxTokens, 0)
		if temperature != nil {
			out.Temperature = float32(*temperature)
			zeroTemp = *temperature == 0
		}
	}
	if r.JSON {
		switch rt.responseFormat {
		case "json_object":
			out.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
		case "json_schema":
			if len(r.Schema) > 0 {
				out.ResponseFormat = &openai.ChatCompletionResponseFormat{
					Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
					JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{
						Name: cmp.Or(r.SchemaName, "answer"), Schema: r.Schema,
					},
				}
			} else {
				out.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
			}
		}
	}
	return out, zeroTemp
}

// safeError carries a redacted message in front of a sanitized cause.
type safeError struct {
	msg   string
	cause error
}

func (s *safeError) Error() string { return s.msg }
func (s *safeError) Unwrap() error { return s.cause }
