// Package scripted is a scripted model: a fake of the OpenAI
// chat-completions API that answers from a script, for the demo (package
// demo), the benchmarks and every package's tests. Replies per model, per matching message text or from a
// function of the request; status codes, Retry-After, malformed bodies,
// latency and cut connections; the answer shapes of real servers (reasoning
// in <think> blocks or in reasoning fields, draft and final JSON fences,
// answers cut at the token limit, content filters); and a log of what
// arrived (count, models, concurrency seen).
//
// A Server is an http.Handler, to serve on a listener of one's own, and an
// in-memory transport (Transport, HTTPClient). The in-memory form serves
// each request on a connection of its own whose goroutines end with it, so
// tests can run it under testing/synctest with virtual time. The package
// imports no testing code, so a program may link it.
package scripted

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"io"
	"maps"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/debatehq/debate/internal/ctxwait"
	"github.com/debatehq/debate/providers/wire"
)

// MemoryURL is a base URL to use with the in-memory transport; any host
// works, this one documents that no socket is involved.
const MemoryURL = "http://scripted.invalid/v1"

// Message is one chat message as received.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Call is one request as the fake received it.
type Call struct {
	Seq      int    // 1-based arrival order over the whole server
	Path     string // URL path, e.g. "/v1/chat/completions"
	Model    string
	Messages []Message
	// Authorized reports whether a non-empty "Authorization: Bearer" header
	// came with the request; the value itself is never kept.
	Authorized bool
	// Attempt is 1 for the first request with this model and these
	// messages, 2 for the next identical one (a retry), and so on.
	Attempt             int
	MaxTokens           int      // max_tokens, 0 if absent
	MaxCompletionTokens int      // max_completion_tokens, 0 if absent
	Temperature         *float64 // nil if absent
	ResponseFormat      string   // response_format.type, "" if absent
	Stream              bool     // "stream": true
	IncludeUsage        bool     // stream_options.include_usage
	Body                []byte   // the raw request body
}

// Contains reports whether any message contains s.
func (c Call) Contains(s string) bool {
	for _, m := range c.Messages {
		if strings.Contains(m.Content, s) {
			return true
		}
	}
	return false
}

// Last returns the content of the last message, "" if there is none.
func (c Call) Last() string {
	if len(c.Messages) == 0 {
		return ""
	}
	return c.Messages[len(c.Messages)-1].Content
}

// Reply is what the fake answers to one call. The zero Reply is a 200 with
// empty content (which a client should treat as an invalid response).
type Reply struct {
	Text         string
	Model        string // model reported in the response; "": the requested one
	FinishReason string // "": "stop"
	// ReasoningContent and Reasoning are sent beside the content as
	// message.reasoning_content (DeepSeek, Qwen, older vLLM) and
	// message.reasoning (OpenRouter, Ollama, recent vLLM) when not empty.
	ReasoningContent string
	Reasoning        string
	// Refusal is sent as message.refusal when not empty (OpenAI).
	Refusal string
	// Status is the HTTP status; 0 means 200. A status of 400 or more without
	// RawBody gets an OpenAI-style JSON error body whose message is Text (or
	// the status text) and whose code is Code.
	Status  int
	Code    string
	Headers http.Header // extra response headers, e.g. Retry-After
	// RawBody, when set, is sent verbatim instead of a generated body
	// (malformed JSON, an HTML error page, an empty choices list...).
	RawBody string
	// Delay holds the reply back; it ends early when the client goes away.
	Delay time.Duration
	// CutConnection closes the connection without any response.
	CutConnection bool
	// PromptTokens and CompletionTokens are reported as usage; 0 derives
	// them from the text lengths (one token per four bytes, rounded up).
	PromptTokens     int
	CompletionTokens int
	// EchoAuthorization appends the request's Authorization header to the
	// body; it exists to test that clients redact keys.
	EchoAuthorization bool

	// Streamed answers (see stream.go). A streamed request gets its headers
	// at once, then KeepAlives SSE comments (": OPENROUTER PROCESSING"),
	// then, after Delay, the answer in chunks of ChunkBytes (0: 16) with
	// ChunkDelay between them, and a usage chunk when asked for.
	KeepAlives int
	ChunkBytes int
	ChunkDelay time.Duration
	// IgnoreStream answers a streamed request with one JSON body, as some
	// servers do.
	IgnoreStream bool
	// NoUsage sends no usage, streamed or not.
	NoUsage bool
	// CachedTokens, ReasoningTokens and Cost are reported in the usage
	// (prompt_tokens_details, completion_tokens_details, OpenRouter's cost).
	CachedTokens    int
	ReasoningTokens int
	Cost            float64
	// TotalTokens is reported as usage.total_tokens; 0: prompt and
	// completion tokens together. More than those is reasoning billed
	// outside the completion, as xAI and Gemini report it.
	TotalTokens int
	// StreamError ends a streamed answer with OpenRouter's mid-stream error:
	// an "error" object after the text so far, with FinishReason, or
	// "error" when it is "".
	StreamError string
	// NoFinish ends a streamed answer without a finish_reason, its usage
	// chunk and [DONE] still sent (Snowflake Cortex).
	NoFinish bool
	// Endless sends a body that never ends: an answer (status 200, streamed
	// or not) or an error body (status 400 or more).
	Endless bool
	// ToolCall, when set, is the name of a tool the model calls after its
	// text, finish_reason "tool_calls" unless FinishReason says otherwise.
	ToolCall string
}

// Text returns a 200 reply with the given content.
func Text(s string) Reply { return Reply{Text: s} }

// JSON returns a 200 reply whose content is v encoded as JSON; it panics if
// v cannot be encoded.
func JSON(v any) Reply {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("scripted: encoding reply: %v", err))
	}
	return Reply{Text: string(b)}
}

// Fenced returns a 200 reply whose content is v as JSON in a ```json fence,
// with prose around it, the way chat models usually answer.
func Fenced(v any) Reply {
	r := JSON(v)
	r.Text = "Here is my assessment.\n\n```json\n" + r.Text + "\n```\n"
	return r
}

// Think returns a 200 reply whose content is a <think> block holding
// reasoning, then the answer, as reasoning models served without a
// reasoning parser write it.
func Think(reasoning, answer string) Reply {
	return Reply{Text: "<think>\n" + reasoning + "\n</think>\n\n" + answer}
}

// Reasoned returns a 200 reply with the answer as content and the reasoning
// in message.reasoning_content.
func Reasoned(reasoning, answer string) Reply {
	return Reply{Text: answer, ReasoningContent: reasoning}
}

// Drafted returns a 200 reply in which a judge writes a draft JSON fence,
// thinks again, and writes its final JSON fence; it panics if either value
// cannot be encoded.
func Drafted(draft, final any) Reply {
	d, f := JSON(draft), JSON(final)
	return Reply{Text: "Draft:\n\n```json\n" + d.Text + "\n```\n\nOn reflection the draft misses a point. Final answer:\n\n```json\n" + f.Text + "\n```\n"}
}

// CutOff returns a 200 reply whose text stopped at the token limit
// (finish_reason "length").
func CutOff(text string) Reply { return Reply{Text: text, FinishReason: "length"} }

// ContentFilter returns a 200 reply withheld by the provider's content
// filter: no content, finish_reason "content_filter".
func ContentFilter() Reply { return Reply{FinishReason: "content_filter"} }

// Status returns an error reply with an OpenAI-style JSON body.
func Status(code int, message string) Reply { return Reply{Status: code, Text: message} }

// RateLimited returns a 429 reply with the given Retry-After value (seconds
// or an HTTP date; "" for none).
func RateLimited(retryAfter string) Reply {
	r := Reply{Status: http.StatusTooManyRequests, Text: "rate limit reached", Code: "rate_limit_exceeded"}
	if retryAfter != "" {
		r.Headers = http.Header{"Retry-After": {retryAfter}}
	}
	return r
}

// ContextLengthExceeded returns the 400 a model sends when the prompt is too long.
func ContextLengthExceeded() Reply {
	return Reply{
		Status: http.StatusBadRequest,
		Code:   "context_length_exceeded",
		Text:   "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
	}
}

// ToolCalls returns a 200 whose answer is a call of the tool named, and no
// text.
func ToolCalls(name string) Reply { return Reply{ToolCall: name, FinishReason: "tool_calls"} }

// GatewayPage returns the HTML error page a gateway in front of the API
// sends with status: "cloudflare" in the shape Cloudflare documents for
// its 5xx errors, else nginx's.
func GatewayPage(status int, gateway string) Reply {
	title := fmt.Sprintf("%d %s", status, http.StatusText(status))
	body := "<html>\r\n<head><title>" + title + "</title></head>\r\n<body>\r\n<center><h1>" + title +
		"</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
	if gateway == "cloudflare" {
		title = fmt.Sprintf("%d: %s", status, http.StatusText(status))
		body = `<!DOCTYPE html><html class="no-js" lang="en-US"><head><title>api.example.com | ` + title + `</title>` +
			`<meta charset="UTF-8" /><link rel="stylesheet" id="cf_styles-css" href="/cdn-cgi/styles/main.css" /></head>` +
			`<body><div id="cf-error-details"><h1>` + title + `</h1><p>Cloudflare Ray ID: 8a1b2c3d4e5f6a7b</p></div></body></html>`
	}
	return Reply{Status: status, RawBody: body, Headers: http.Header{"Content-Type": {"text/html; charset=UTF-8"}}}
}

// Raw returns a reply that sends body verbatim with the given status.
func Raw(status int, body string) Reply { return Reply{Status: status, RawBody: body} }

// Cut returns a reply that closes the connection without answering.
func Cut() Reply { return Reply{CutConnection: true} }

// Option configures a Server.
type Option func(*Server)

// WithLatency delays every reply by d on top of its own Delay.
func WithLatency(d time.Duration) Option { return func(s *Server) { s.latency = d } }

// WithDefault answers with r every call nothing else matched: a script
// that always says r.
func WithDefault(r Reply) Option { return WithScript(func(Call) Reply { return r }) }

// WithScript sets the function that answers calls nothing else matched.
func WithScript(f func(Call) Reply) Option { return func(s *Server) { s.script = f } }

// WithoutLog keeps no log of the calls (Calls returns none); the counters
// still count. For long runs such as debate bench, whose memory it would
// otherwise fill.
func WithoutLog() Option { return func(s *Server) { s.nolog = true } }

type rule struct {
	match func(Call) bool
	reply func(Call) Reply
}

// Server is the fake. Its methods are safe for concurrent use.
type Server struct {
	latency time.Duration
	nolog   bool

	gateway time.Duration

	mu       sync.Mutex
	refusals map[string][]Refusal
	script   func(Call) Reply
	queues   map[string][]Reply // by model; "" for any model
	rules    []rule
	calls    []Call
	attempts map[uint64]int // by hash of model and messages
	counts   map[scope]*counter
}

// scope is what a counter counts: every call (the zero scope), or those
// of one model or one URL path.
type scope struct{ of, name string }

// scopes are the counters a call counts in.
func scopes(c Call) [3]scope { return [3]scope{{}, {"model", c.Model}, {"path", c.Path}} }

type counter struct{ now, max, total int }

func (c *counter) enter() {
	c.now++
	c.total++
	c.max = max(c.max, c.now)
}

// New returns a fake. Serve it (it is an http.Handler) on a listener of
// one's own, or use it in memory through Transport or HTTPClient.
func New(opts ...Option) *Server {
	s := &Server{
		queues:   map[string][]Reply{},
		refusals: map[string][]Refusal{},
		attempts: map[uint64]int{},
		counts:   map[scope]*counter{},
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Transport returns an in-memory http.RoundTripper that serves every request
// with the fake, whatever its host: each request gets a connection of its
// own (net.Pipe) served by net/http, and every goroutine it starts ends with
// the request. Use it with MemoryURL under testing/synctest.
func (s *Server) Transport() http.RoundTripper {
	dial := func(context.Context, string, string) (net.Conn, error) {
		client, server := net.Pipe()
		go (&http.Server{Handler: s}).Serve(&pipeListener{conn: server})
		return client, nil
	}
	// An https URL is served as plainly as an http one: the connection
	// counts as past its TLS handshake.
	return &http.Transport{DisableKeepAlives: true, DialContext: dial, DialTLSContext: dial}
}

// HTTPClient returns an http.Client on the in-memory transport.
func (s *Server) HTTPClient() *http.Client { return &http.Client{Transport: s.Transport()} }

// Script sets the function that answers calls no queued reply or rule
// matched, replacing the default reply.
func (s *Server) Script(f func(Call) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = f
}

// Enqueue adds one-shot replies for model ("" for any model), used in order
// before anything else; a model's own queue comes before the "" queue.
func (s *Server) Enqueue(model string, replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queues[model] = append(s.queues[model], replies...)
}

// ReplyTo answers every call for model with r, unless a queued reply or an
// earlier rule applies.
func (s *Server) ReplyTo(model string, r Reply) {
	s.On(func(c Call) bool { return c.Model == model }, func(Call) Reply { return r })
}

// When answers every call whose messages contain text with r, unless a
// queued reply or an earlier rule applies.
func (s *Server) When(text string, r Reply) {
	s.On(func(c Call) bool { return c.Contains(text) }, func(Call) Reply { return r })
}

// On adds a rule: calls for which match is true are answered by reply.
// Rules are tried in the order they were added.
func (s *Server) On(match func(Call) bool, reply func(Call) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rules = append(s.rules, rule{match, reply})
}

// Calls returns a copy of the request log in arrival order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// Count returns the number of requests received.
func (s *Server) Count() int { return s.count(scope{}).total }

// CountModel returns the number of requests received for model.
func (s *Server) CountModel(model string) int { return s.count(scope{"model", model}).total }

// MaxInFlight returns the most requests that were being served at once.
func (s *Server) MaxInFlight() int { return s.count(scope{}).max }

// MaxInFlightPath returns the most requests on one URL path (for example
// "/a/v1/chat/completions") served at once.
func (s *Server) MaxInFlightPath(path string) int { return s.count(scope{"path", path}).max }

// count returns a copy of the counter of k.
func (s *Server) count(k scope) counter {
	s.mu.Lock()
	defer s.mu.Unlock()
	return *s.counter(k)
}

// readCall reads a request as the call it makes.
func readCall(r *http.Request) (Call, error) {
	// Read in one piece when the length is known, as a client sends it
	// (up to 64 MiB: the length is the client's word).
	var buf bytes.Buffer
	buf.Grow(int(min(max(r.ContentLength, 0), 64<<20)) + bytes.MinRead)
	if _, err := buf.ReadFrom(r.Body); err != nil {
		return Call{}, fmt.Errorf("reading body: %w", err)
	}
	body := buf.Bytes()
	var wr wire.Request
	if err := json.Unmarshal(body, &wr); err != nil {
		return Call{}, fmt.Errorf("decoding body: %w", err)
	}
	token, bearer := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	call := Call{
		Path: r.URL.Path, Model: wr.Model, Body: body,
		Authorized: bearer && strings.TrimSpace(token) != "",
		MaxTokens:  wr.MaxTokens, MaxCompletionTokens: wr.MaxCompletionTokens, Temperature: wr.Temperature,
		Stream: wr.Stream, IncludeUsage: wr.StreamOptions != nil && wr.StreamOptions.IncludeUsage,
	}
	for _, m := range wr.Messages {
		call.Messages = append(call.Messages, Message{Role: m.Role, Content: m.Content.Text})
	}
	if wr.ResponseFormat != nil {
		call.ResponseFormat = string(wr.ResponseFormat.Type)
	}
	return call, nil
}

// ServeHTTP serves POST .../chat/completions.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		writeError(w, http.StatusNotFound, "not_found", "scripted: no route for "+r.Method+" "+r.URL.Path)
		return
	}
	call, err := readCall(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	reply := s.enter(&call)
	if reply.EchoAuthorization {
		echo := " (authorization: " + r.Header.Get("Authorization") + ")"
		if reply.RawBody != "" {
			reply.RawBody += echo
		} else {
			reply.Text += echo
		}
	}
	// The call leaves the count before its last bytes are written: a
	// client may finish as soon as it has them.
	leave := sync.OnceFunc(func() { s.leave(call) })
	defer leave()
	maps.Copy(w.Header(), reply.Headers.Clone())

	streamed := call.Stream && !reply.IgnoreStream && !reply.CutConnection && reply.RawBody == "" && cmp.Or(reply.Status, 200) < 400
	d := s.latency + reply.Delay
	if streamed {
		s.writeStream(w, r, call, reply, d, leave)
		return
	}
	if s.gateway > 0 && d >= s.gateway {
		// The gateway in front gives up on a response not started in time.
		if ctxwait.Sleep(r.Context(), s.gateway) != nil {
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=UTF-8")
		w.WriteHeader(StatusGatewayTimeout)
		io.WriteString(w, "error code: 524")
		return
	}
	if ctxwait.Sleep(r.Context(), d) != nil {
		return
	}
	if reply.Endless {
		writeEndless(w, reply, false)
		return
	}
	if reply.CutConnection {
		cut(w)
		return
	}
	status := cmp.Or(reply.Status, http.StatusOK)
	leave()
	switch {
	case reply.RawBody != "":
		if w.Header().Get("Content-Type") == "" && json.Valid([]byte(reply.RawBody)) {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		io.WriteString(w, reply.RawBody)
	case status >= 400:
		writeError(w, status, reply.Code, cmp.Or(reply.Text, http.StatusText(status)))
	default:
		writeCompletion(w, call, reply)
	}
}

// enter logs the call, updates the counters and picks the reply.
func (s *Server) enter(c *Call) Reply {
	key := attemptKey(c)
	s.mu.Lock()
	s.attempts[key]++
	c.Attempt = s.attempts[key]
	for _, k := range scopes(*c) {
		s.counter(k).enter()
	}
	c.Seq = s.counts[scope{}].total
	if !s.nolog {
		s.calls = append(s.calls, *c)
	}
	reply := s.pick(*c)
	s.mu.Unlock()
	// The reply function runs unlocked so that it may call the Server.
	return reply(*c)
}

// pick returns what answers c, the first that applies: a refusal, a queued
// reply, a rule, the script, or the default reply; s.mu is held.
func (s *Server) pick(c Call) func(Call) Reply {
	for _, ref := range s.refusals[c.Model] {
		if r, ok := ref(c); ok {
			return func(Call) Reply { return r }
		}
	}
	if r := s.dequeue(c.Model); r != nil {
		return r
	}
	for _, rl := range s.rules {
		if rl.match(c) {
			return rl.reply
		}
	}
	if s.script != nil {
		return s.script
	}
	return defaultReply
}

// dequeue takes the next queued reply for model, or for any model; s.mu is
// held.
func (s *Server) dequeue(model string) func(Call) Reply {
	for _, m := range []string{model, ""} {
		if q := s.queues[m]; len(q) > 0 {
			r := q[0]
			s.queues[m] = q[1:]
			return func(Call) Reply { return r }
		}
	}
	return nil
}

func (s *Server) leave(c Call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range scopes(c) {
		s.counts[k].now--
	}
}

// counter returns the counter of k, made on first use; s.mu is held.
func (s *Server) counter(k scope) *counter {
	c := s.counts[k]
	if c == nil {
		c = &counter{}
		s.counts[k] = c
	}
	return c
}

func defaultReply(c Call) Reply {
	last := c.Last()
	if len(last) > 40 {
		last = last[:40]
	}
	return Reply{Text: fmt.Sprintf("answer from %s to %q", c.Model, last)}
}

// attemptKey is a hash of the call's model and messages, written into the
// hash piece by piece: a maphash.Hash takes strings without a copy.
func attemptKey(c *Call) uint64 {
	var h maphash.Hash
	h.SetSeed(attemptSeed)
	h.WriteString(c.Model)
	for _, m := range c.Messages {
		for _, s := range []string{"\x00", m.Role, "\x00", m.Content} {
			h.WriteString(s)
		}
	}
	return h.Sum64()
}

// attemptSeed seeds attemptKey.
var attemptSeed = maphash.MakeSeed()

func tokens(n int) int { return (n + 3) / 4 }

func writeCompletion(w http.ResponseWriter, c Call, r Reply) {
	resp := wire.Completion{
		ID:      fmt.Sprintf("chatcmpl-%d", c.Seq),
		Object:  "chat.completion",
		Created: time.Now().Unix(),
		Model:   cmp.Or(r.Model, c.Model),
		Choices: []wire.Choice{{
			Message: &wire.Delta{
				Role: "assistant", Content: wire.Content{Text: r.Text},
				ReasoningContent: r.ReasoningContent, Reasoning: r.Reasoning, Refusal: r.Refusal,
				ToolCalls: toolCalls(r.ToolCall),
			},
			FinishReason: wire.Finished(cmp.Or(r.FinishReason, "stop")),
		}},
		Usage: usage(c, r),
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

// toolCalls is the tool_calls of a message that calls name, none for "".
func toolCalls(name string) []json.RawMessage {
	if name == "" {
		return nil
	}
	call, _ := json.Marshal(map[string]any{"index": 0, "id": "call_0", "type": "function",
		"function": map[string]string{"name": name, "arguments": "{}"}})
	return []json.RawMessage{call}
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	body := struct {
		Error wire.ErrorDetail `json:"error"`
	}{wire.ErrorDetail{Message: msg, Type: errorType(status), Code: code}}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}

func errorType(status int) string {
	types := map[int]string{http.StatusTooManyRequests: "rate_limit_error", http.StatusUnauthorized: "authentication_error"}
	if status >= 500 {
		return "server_error"
	}
	return cmp.Or(types[status], "invalid_request_error")
}

// usage is the usage a reply reports, nil for none.
func usage(c Call, r Reply) *wire.Usage {
	if r.NoUsage {
		return nil
	}
	prompt := r.PromptTokens
	if prompt == 0 {
		n := 0
		for _, m := range c.Messages {
			n += len(m.Content)
		}
		prompt = tokens(n)
	}
	completion := cmp.Or(r.CompletionTokens, tokens(len(r.Text)+len(r.ReasoningContent)+len(r.Reasoning)))
	u := &wire.Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: cmp.Or(r.TotalTokens, prompt+completion)}
	if r.CachedTokens > 0 {
		u.PromptTokensDetails = &wire.PromptDetails{CachedTokens: r.CachedTokens}
	}
	if r.ReasoningTokens > 0 {
		u.CompletionTokensDetails = &wire.CompletionDetails{ReasoningTokens: r.ReasoningTokens}
	}
	if r.Cost > 0 {
		u.Cost = &r.Cost
	}
	return u
}

// cut drops the connection.
func cut(w http.ResponseWriter) {
	if h, ok := w.(http.Hijacker); ok {
		if conn, _, err := h.Hijack(); err == nil {
			conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

// pipeListener accepts one in-memory connection, then reports itself
// closed, which ends the server's accept loop at once.
type pipeListener struct{ conn net.Conn }

func (l *pipeListener) Accept() (net.Conn, error) {
	c := l.conn
	if c == nil {
		return nil, net.ErrClosed
	}
	l.conn = nil
	return c, nil
}

// Close leaves the connection to the server that accepted it.
func (l *pipeListener) Close() error { return nil }

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "scripted" }
