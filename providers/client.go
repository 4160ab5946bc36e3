package providers

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/redact"
	"github.com/debatehq/debate/internal/think"
	"github.com/debatehq/debate/providers/wire"
)

// Options tune a Client beyond what the config says.
type Options struct {
	// Concurrency is the global cap on calls in flight; 0 takes
	// params.concurrency from the config.
	Concurrency int
	// HTTPClient is the base HTTP client (tests pass a fake's); nil: pools
	// of connections of the client's own (see perPool). Per-call timeouts
	// come from contexts, not from it.
	HTTPClient *http.Client
	// Logger receives one record per attempt; nil discards them.
	Logger *slog.Logger
	// Record, when set, receives every request/response pair, keys redacted.
	// It is called from the calling goroutines and must be safe for
	// concurrent use.
	Record func(Exchange)
}

// Exchange is one HTTP attempt as sent and received, keys redacted outside
// the model text (see redact.Secrets.Body).
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
	conns  *pools
	global *semaphore.Weighted
	routes map[string]*route // by participant id
	def    *route            // for an unknown or empty participant
	learn  learner

	secrets  *redact.Secrets
	log      *slog.Logger
	record   func(Exchange)
	badUsage sync.Once // logs the first usage that could not be read
}

// endpoint is one distinct base URL and key, with its own caps.
type endpoint struct {
	chatURL string // the chat-completions URL, credentials included
	apiKey  string
	key     string              // identifies the endpoint within the run
	url     string              // base URL without credentials, for errors
	host    string              // its host
	sem     *semaphore.Weighted // nil: no cap of its own
	limiter *rate.Limiter       // nil: unlimited

	maxConcurrent int     // the tightest cap asked for; 0: none
	rpm           float64 // the tightest rate asked for; 0: none
}

// route is how one participant calls: its endpoint and its merged settings.
type route struct {
	ep             *endpoint
	timeout        time.Duration
	idle           time.Duration
	maxBody        int64
	stream         bool
	responseFormat string
	headers        map[string]string
	extra          map[string]json.RawMessage
	maxTokens      int
	temperature    *float64
	cacheControl   bool
	keyVar         string // the environment variable the key came from, "" if none
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
	c := &Client{
		conns:  newPools(concurrency),
		global: semaphore.NewWeighted(int64(concurrency)),
		routes: map[string]*route{},
		log:    cmp.Or(opt.Logger, slog.New(slog.DiscardHandler)),
		record: opt.Record,
	}
	if opt.HTTPClient != nil {
		c.conns.all = []http.RoundTripper{cmp.Or(opt.HTTPClient.Transport, http.DefaultTransport)}
	}

	apis := map[string]configs.API{"": cfg.Endpoint("")}
	sampling := map[string]configs.Participant{}
	for _, p := range cfg.Participants() {
		apis[p.ID] = cfg.Endpoint(p.ID)
		sampling[p.ID] = p
		c.conns.assign(p.Model)
	}
	for _, p := range cfg.Participants() {
		c.conns.assign(p.Fallback) // after every primary, which make most calls
	}
	c.secrets = redact.NewSecrets(cfg.Secrets())
	endpoints, err := c.endpoints(apis)
	if err != nil {
		return nil, err
	}
	for id, a := range apis {
		rt, err := newRoute(endpoints[endpointKey(a)], a, cfg.Params, sampling[id])
		if err != nil {
			return nil, fmt.Errorf("participant %q: %w", id, err)
		}
		rt.keyVar = cfg.KeyVariable(id)
		if id == "" {
			c.def = rt
		} else {
			c.routes[id] = rt
		}
	}
	return c, nil
}

func endpointKey(a configs.API) string { return a.BaseURL + "\x00" + a.APIKey }

// endpoints builds one endpoint for each distinct base URL and key of apis
// (by participant id). Participants that share one share its caps; when
// they ask for different caps, the tightest one holds.
func (c *Client) endpoints(apis map[string]configs.API) (map[string]*endpoint, error) {
	out := map[string]*endpoint{}
	for _, id := range slices.Sorted(maps.Keys(apis)) {
		a := apis[id]
		if a.Timeout <= 0 {
			return nil, fmt.Errorf("participant %q: api.timeout: must be greater than 0 milliseconds (got %d)", id, a.Timeout)
		}
		ep := out[endpointKey(a)]
		if ep == nil {
			var err error
			if ep, err = c.newEndpoint(a); err != nil {
				return nil, fmt.Errorf("participant %q: %w", id, err)
			}
			ep.key = fmt.Sprint(len(out))
			out[endpointKey(a)] = ep
		}
		ep.maxConcurrent = tighter(ep.maxConcurrent, a.MaxConcurrent)
		ep.rpm = tighter(ep.rpm, a.RequestsPerMinute)
	}
	for _, ep := range out {
		if ep.maxConcurrent > 0 {
			ep.sem = semaphore.NewWeighted(int64(ep.maxConcurrent))
		}
		if ep.rpm > 0 {
			ep.limiter = rate.NewLimiter(rate.Limit(ep.rpm/60), 1)
		}
	}
	return out, nil
}

// newRoute merges the endpoint settings with the participant's own sampling
// over params.
func newRoute(ep *endpoint, a configs.API, params configs.Params, p configs.Participant) (*route, error) {
	rt := &route{
		ep:             ep,
		timeout:        time.Duration(a.Timeout) * time.Millisecond,
		idle:           time.Duration(a.IdleTimeout) * time.Millisecond,
		maxBody:        cmp.Or(a.MaxResponseBytes, configs.DefaultMaxResponseBytes),
		stream:         a.Streams(),
		responseFormat: a.ResponseFormat,
		headers:        a.Headers,
		maxTokens:      cmp.Or(p.MaxTokens, params.MaxTokensPerResponse),
		temperature:    cmp.Or(p.Temperature, params.Temperature),
		cacheControl:   a.CacheControl != nil && *a.CacheControl,
	}
	for k, v := range a.ExtraBody {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("api.extraBody[%q]: %w", k, err)
		}
		if rt.extra == nil {
			rt.extra = map[string]json.RawMessage{}
		}
		rt.extra[k] = b
	}
	return rt, nil
}

func (c *Client) newEndpoint(a configs.API) (*endpoint, error) {
	base := cmp.Or(a.BaseURL, defaultBaseURL)
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("api.baseURL: not an absolute URL: %q", c.secrets.Text(base))
	}
	chat := u.JoinPath("chat/completions").String()
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return &endpoint{chatURL: chat, apiKey: a.APIKey, url: c.secrets.Text(u.String()), host: u.Host}, nil
}

// defaultBaseURL is OpenAI's, for an endpoint that names none.
const defaultBaseURL = "https://api.openai.com/v1"

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

// Adaptations returns the changes made so far to the requests of a model at
// an endpoint after the server refused a parameter, in a stable order.
func (c *Client) Adaptations() []Adaptation { return c.learn.adaptations() }

// maxAdaptations bounds the refusals one call adapts to: one per parameter
// the client sets.
const maxAdaptations = 6

// Complete makes one attempt of r at the endpoint of r.Participant and
// returns the answer. MaxTokens and Temperature default to the
// participant's own, then the config's params; reasoning models get
// max_completion_tokens and no temperature. A 400 refusing a parameter is
// not a failed attempt: the same request is sent again without it (or with
// its replacement), and every later call for that model at that endpoint
// is sent that way. It waits for the global and endpoint caps and the rate
// limit, all ending when ctx does. A failure is an *Error whose Class
// classifies it; RetryAfter carries the wait the server asked for.
func (c *Client) Complete(ctx context.Context, r Request) (Response, error) {
	rt := c.route(r.Participant)
	s, release, err := c.learn.enter(ctx, rt.ep, r.Model)
	if err != nil {
		return Response{}, &Error{Class: ClassCanceled, Model: r.Model, Endpoint: rt.ep.url, Err: err}
	}
	defer release()
	for range maxAdaptations {
		req := c.chatRequest(r, rt, s)
		resp, e := c.try(ctx, rt, r, req, release)
		if e == nil {
			return resp, nil
		}
		a, change, ok := refused(e, r, req, s, slices.Sorted(maps.Keys(rt.extra)))
		if !ok {
			if e.Class == ClassNoSystem && !s.noSystem {
				// Nothing to take out: the model cannot answer this prompt.
				e.Class = ClassBadRequest
			}
			c.log.Debug("model call failed", "participant", r.Participant, "model", r.Model,
				"attempt", max(r.Attempt, 1), "err", c.secrets.Text(e.Error()))
			return Response{}, e
		}
		a.Endpoint, a.Model = rt.ep.url, r.Model
		a.Reason = c.secrets.Text(a.Reason)
		change(&s)
		if r.OnAdapt != nil {
			r.OnAdapt(a)
		}
		if c.learn.learn(rt.ep, r.Model, a, change) {
			c.log.Warn("adapted to the server", "model", r.Model, "endpoint", rt.ep.url,
				"param", a.Param, "change", a.Change, "reason", a.Reason)
		}
	}
	return Response{}, &Error{Class: ClassBadRequest, Model: r.Model, Endpoint: rt.ep.url,
		Err: fmt.Errorf("the server kept refusing parameters after %d changes", maxAdaptations)}
}

// exchange is what one attempt left behind: the status, the wait the
// server asked for and, when recording, the bodies.
type exchange struct {
	status     int
	retryAfter time.Duration
	request    []byte
	response   []byte
}

// try makes the attempt under the global and endpoint limits. release is
// called once the server's status is known, unless it is a 400.
func (c *Client) try(ctx context.Context, rt *route, r Request, req *wire.Request, release func()) (Response, *Error) {
	if err := c.wait(ctx, rt); err != nil {
		e := Classify(err) // the caller's cancellation, or its deadline
		e.Model, e.Endpoint = r.Model, rt.ep.url
		return Response{}, e
	}
	defer c.global.Release(1)
	if rt.ep.sem != nil {
		defer rt.ep.sem.Release(1)
	}
	if r.OnSent != nil {
		r.OnSent()
	}
	if r.OnDone != nil {
		defer r.OnDone() // before the slot is released: in flight never exceeds the caps
	}
	tctx, cancel := context.WithTimeout(ctx, rt.timeout)
	defer cancel()
	actx, cancelIdle := context.WithCancelCause(tctx)
	defer cancelIdle(nil)
	x := &exchange{}
	b := &bounds{
		base: c.conns.get(r.Model), stream: req.Stream, idle: rt.idle, cancel: cancelIdle, maxBody: rt.maxBody,
		onStatus: func(status int) {
			if status != http.StatusBadRequest {
				release()
			}
		},
	}
	if c.record != nil {
		b.rec = &x.response
	}
	started := time.Now()
	body, err := req.Encode()
	x.request = body
	var ans *answer
	if err == nil {
		ans, err = c.send(actx, rt, body, req.Stream, b, x, r.OnText)
	}
	latency := time.Since(started)
	var resp Response
	if err == nil {
		resp, err = c.judge(ans, r)
		resp.Latency = latency
	}
	var e *Error
	if err != nil {
		e = c.classify(ctx, actx, err, x, rt)
		e.Model, e.Endpoint = r.Model, rt.ep.url
		e.traceKey(rt.keyVar, rt.ep.apiKey == "")
	}
	c.log.Debug("model call", "participant", r.Participant, "model", r.Model, "stream", req.Stream,
		"attempt", max(r.Attempt, 1), "status", x.status, "latency", latency, "ok", e == nil)
	if c.record != nil {
		c.recordExchange(r, x, e, started, latency)
	}
	return resp, e
}

// wait takes an endpoint slot, a turn of the rate limit and a call slot;
// on success the caller releases both slots.
func (c *Client) wait(ctx context.Context, rt *route) error {
	if rt.ep.sem != nil {
		if err := rt.ep.sem.Acquire(ctx, 1); err != nil {
			return fmt.Errorf("waiting for an endpoint slot: %w", err)
		}
	}
	fail := func(err error) error {
		if rt.ep.sem != nil {
			rt.ep.sem.Release(1)
		}
		return err
	}
	if rt.ep.limiter != nil {
		if err := rt.ep.limiter.Wait(ctx); err != nil {
			if ctx.Err() == nil {
				err = fmt.Errorf("%w: %v", context.DeadlineExceeded, err)
			}
			return fail(fmt.Errorf("waiting for the rate limit: %w", err))
		}
	}
	if err := c.global.Acquire(ctx, 1); err != nil {
		return fail(fmt.Errorf("waiting for a call slot: %w", err))
	}
	return nil
}

// recordExchange hands the attempt to Options.Record, keys redacted. The
// bodies are redacted whole, so a key split across two reads of the body
// is found as well.
func (c *Client) recordExchange(r Request, x *exchange, e *Error, started time.Time, latency time.Duration) {
	rec := Exchange{
		Participant: r.Participant, Model: r.Model, Attempt: max(r.Attempt, 1), Origin: r.Origin,
		Request:  c.secrets.Body(x.request),
		Response: c.secrets.Body(x.response),
		Status:   x.status, Started: started, Latency: latency,
	}
	if e != nil {
		rec.Err = c.secrets.Text(e.Error())
	}
	c.record(rec)
}

// send makes the HTTP request, streamed or not, and reads the answer. A
// server that ignores "stream" and answers in one piece is read as a
// non-streamed answer.
func (c *Client) send(ctx context.Context, rt *route, body []byte, stream bool, b *bounds, x *exchange, onText func(int)) (*answer, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, rt.ep.chatURL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Authorization", "Bearer "+rt.ep.apiKey)
	if stream {
		hreq.Header.Set("Accept", "text/event-stream")
		hreq.Header.Set("Cache-Control", "no-cache")
	}
	for k, v := range rt.headers {
		hreq.Header.Set(k, v)
	}
	res, err := (&http.Client{Transport: b}).Do(hreq)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	x.status, x.retryAfter = res.StatusCode, retryAfter(res.Header, time.Now())
	if res.StatusCode < 200 || res.StatusCode >= 300 {
		raw, err := io.ReadAll(res.Body)
		if err != nil {
			return nil, err
		}
		return nil, newStatusError(res.StatusCode, raw, stream, c.secrets.Text)
	}
	br := readers.Get().(*bufio.Reader)
	br.Reset(res.Body)
	defer func() { br.Reset(nil); readers.Put(br) }() // the answer keeps copies
	if stream && !onePiece(res.Header, br) {
		return readStream(br, onText)
	}
	raw, err := io.ReadAll(br)
	if err != nil {
		return nil, err
	}
	return decodeCompletion(raw)
}

// readers are the buffers bodies are read through, one per answer at a
// time: a call that allocated its own spent 4 KiB on it.
var readers = sync.Pool{New: func() any { return bufio.NewReader(nil) }}

// classify turns the error of one attempt into an *Error that is safe to
// return, telling the caller's cancellation from the attempt's timeout and
// its idle timeout.
func (c *Client) classify(ctx, actx context.Context, err error, x *exchange, rt *route) *Error {
	err = sanitize(err, c.secrets.Text)
	var tooLarge *tooLargeError
	switch cause := context.Cause(actx); {
	case ctx.Err() != nil:
		e := Classify(ctx.Err()) // canceled, or the caller's deadline
		e.Err = err
		return e
	case errors.Is(cause, errIdle):
		return &Error{Class: ClassTimeout, Status: x.status, Err: cause}
	case errors.Is(actx.Err(), context.DeadlineExceeded):
		return &Error{
			Class: ClassTimeout, Status: x.status,
			Err: fmt.Errorf("no answer within %v (api.timeout): %w", rt.timeout, context.DeadlineExceeded),
		}
	case errors.As(err, &tooLarge):
		return &Error{Class: ClassAnswerTooLarge, Status: x.status, Err: tooLarge}
	}
	e := Classify(err)
	if e.Status == 0 {
		e.Status = x.status
	}
	var answer *answerError
	if x.status >= 200 && x.status < 300 && !errors.As(err, &answer) && (e.Class == ClassNetwork || !e.Class.Transient()) {
		// A 200 whose body could not be read as a completion.
		e.Class = ClassInvalidResponse
	}
	e.RetryAfter = x.retryAfter
	return e
}

// judge decides whether an answer is one a run can use, and why not: the
// one judgment of every answer, which debate check meets through Complete
// as a run does. It checks and converts the answer. The answer is split from its
// reasoning (think.Split). Usage the server did not report, or reported in
// counts that are none, is estimated from the text. An answer that cannot
// be used is an *answerError in the provider's words: an error in the body
// or finish_reason "error", withheld by a filter or refused, cut before
// any answer, or empty. An error saying the token limit was reached is a
// cut answer.
func (c *Client) judge(ans *answer, r Request) (Response, error) {
	said := "" // the provider's error that said the token limit was reached
	if ans.err != nil && (ans.finish == wire.FinishLength || tokenLimit(ans.err.Reason())) {
		said = c.secrets.Text(ans.err.Reason())
		ans.err, ans.finish = nil, wire.FinishLength
	}
	if ans.err != nil || ans.finish == wire.FinishError {
		reason := "no reason given"
		if ans.err != nil {
			reason = c.secrets.Text(ans.err.Reason())
		}
		return Response{}, &answerError{class: ClassErrorInAnswer, msg: fmt.Sprintf(
			"the provider reported an error in the answer (finish_reason %q): %s", ans.finish, reason)}
	}
	if !ans.choices {
		return Response{}, fmt.Errorf("%w: no choices", errInvalidResponse)
	}
	content, refusal, thought := ans.content.String(), ans.refusal.String(), ans.reasoning.String()
	text, reasoning := think.Split(content, thought)
	text, reasoning = c.secrets.ModelText(text), c.secrets.ModelText(reasoning)
	resp := Response{Text: text, Reasoning: reasoning, FinishReason: ans.finish, Model: cmp.Or(ans.model, r.Model)}
	if ans.usage.Reported() {
		resp.Usage = usage(ans.usage)
	} else {
		resp.Usage = Estimate(r.Messages, content, thought)
	}
	if ans.usage != nil && ans.usage.Unusable {
		c.badUsage.Do(func() {
			c.log.Warn("a provider reported usage no call can have (a count or a cost that is negative, past the bounds of one call or not a number); estimated from the text instead (logged once)",
				"model", r.Model)
		})
	}
	empty := strings.TrimSpace(text) == ""
	switch {
	case resp.FinishReason == wire.FinishFilter:
		return Response{}, &answerError{class: ClassContentRefused, msg: filtered(resp.FinishReason, ans.filter, refusal, content)}
	case empty && refusal != "":
		return Response{}, &answerError{class: ClassContentRefused, msg: fmt.Sprintf("the model refused: %q", refusal)}
	case empty && resp.Cut():
		return Response{}, &answerError{class: ClassCut, msg: fmt.Sprintf(
			"cut at the token limit before any answer (finish_reason %q, %d completion tokens%s%s): raise params.maxTokensPerResponse",
			resp.FinishReason, resp.Usage.CompletionTokens, reasoningNote(reasoning), saidNote(said))}
	case empty:
		return Response{}, &answerError{class: ClassEmpty, msg: fmt.Sprintf(
			"empty answer (finish_reason %q%s%s)", resp.FinishReason, reasoningNote(reasoning), toolCallsNote(ans.toolCalls))}
	}
	return resp, nil
}

// Estimate counts the tokens of a call from its text, when the server
// reported none or none that can be trusted: four bytes a token.
func Estimate(msgs []Message, content, reasoning string) Usage {
	n := 0
	for _, m := range msgs {
		n += len(m.Content)
	}
	return Usage{PromptTokens: EstimateTokens(n), CompletionTokens: EstimateTokens(len(content) + len(reasoning)), Estimated: true}
}

// filtered describes a choice that a content filter stopped: the finish
// reason, the filter's categories that fired, and whatever text came back.
func filtered(finish string, results *openai.ContentFilterResults, refusal, content string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "the provider's content filter withheld the answer (finish_reason %q)", finish)
	var f openai.ContentFilterResults
	if results != nil {
		f = *results
	}
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
	if refusal != "" {
		fmt.Fprintf(&b, ": %q", refusal)
	} else if t := strings.TrimSpace(content); t != "" {
		fmt.Fprintf(&b, ": %q", t)
	}
	return b.String()
}

// saidNote quotes what the provider said when it stopped the answer.
func saidNote(said string) string {
	if said == "" {
		return ""
	}
	return fmt.Sprintf(", the provider said %q", said)
}

// toolCallsNote says that tool calls came back instead of an answer: the
// program offers no tools, so a model that calls one has not answered.
func toolCallsNote(called bool) string {
	if !called {
		return ""
	}
	return ", tool calls came back instead of an answer"
}

// reasoningNote says that reasoning came back without an answer.
func reasoningNote(reasoning string) string {
	if reasoning == "" {
		return ""
	}
	// A comma, not a semicolon: reports split reasons at "; ".
	return fmt.Sprintf(", %d bytes of reasoning came back alone", len(reasoning))
}

// chatRequest maps r to the request sent, shaped as the server accepts it
// (s).
func (c *Client) chatRequest(r Request, rt *route, s shape) *wire.Request {
	out := &wire.Request{
		Model:    r.Model,
		Messages: messages(r.Messages, rt.cacheControl, s.noSystem),
		Stream:   rt.stream && !s.noStream,
		Extra:    rt.extra,
	}
	if len(s.drop) > 0 {
		out.Extra = maps.Clone(rt.extra)
		for _, k := range s.drop {
			delete(out.Extra, k)
		}
	}
	if out.Stream && !s.noStreamOptions {
		out.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	}
	maxTokens := max(rt.maxTokens, 0)
	if r.MaxTokens != nil {
		maxTokens = max(*r.MaxTokens, 0)
	}
	if ReasoningModel(r.Model) || s.maxCompletion {
		out.MaxCompletionTokens = maxTokens
	} else {
		out.MaxTokens = maxTokens
	}
	temperature := cmp.Or(r.Temperature, rt.temperature)
	if temperature != nil && !ReasoningModel(r.Model) && !s.noTemperature {
		// Reasoning models take no sampling fields.
		out.Temperature = temperature
	}
	if r.JSON {
		out.ResponseFormat = responseFormat(cmp.Or(s.format, rt.responseFormat), r)
	}
	return out
}

// responseFormat is the response_format asked of a judge: none, a JSON
// object, or the answer's schema in strict mode.
func responseFormat(format string, r Request) *openai.ChatCompletionResponseFormat {
	switch {
	case format == "json_object", format == "json_schema" && len(r.Schema) == 0:
		return &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	case format == "json_schema":
		return &openai.ChatCompletionResponseFormat{
			Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{
				Name: cmp.Or(r.SchemaName, "answer"), Schema: r.Schema, Strict: true,
			},
		}
	}
	return nil
}
