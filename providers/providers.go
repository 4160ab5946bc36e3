// Package providers makes every call to a model at an endpoint:
// OpenAI-compatible chat completions, one client per endpoint, in the
// format of package wire (go-openai's types where they carry it). Bounds
// on what is read, the cut of a silent stream and raw recording are the
// attempt's http.RoundTripper. Each call is one attempt whose failure gets
// its Class by what it means, from one table (meaning.go), and with it its
// Consequence (retry with the server's Retry-After, fall back at once,
// adapt); the attempt loop and the fallback policy belong to the caller.
// It also takes reasoning apart from the answer (package think) and
// applies concurrency caps, rate limits and key redaction. Coding agents
// are run by package providers/agents, whose failures take the same
// classes.
package providers

import (
	"encoding/json"
	"time"

	"github.com/debatehq/debate/providers/wire"
)

// Message is one chat message.
type Message struct {
	Role    string // "system", "user" or "assistant"
	Content string
	// Breaks are the byte offsets in Content where a stable part of the
	// prompt ends; with api.cacheControl each gets a cache_control
	// breakpoint.
	Breaks []int
}

// Request is a provider-neutral chat-completion request.
type Request struct {
	// Participant is the id of the debater or judge making the call; it picks
	// the endpoint (the participant's api override merged over the default).
	Participant string
	Model       string
	Messages    []Message
	MaxTokens   *int     // nil: the endpoint default
	Temperature *float64 // nil: unset, distinct from 0
	// JSON asks for structured output when the endpoint is configured for it.
	JSON bool
	// Schema is the JSON schema of the expected answer, sent when JSON is set
	// and the endpoint's responseFormat is "json_schema"; without it such an
	// endpoint is asked for "json_object".
	Schema json.RawMessage
	// SchemaName names the schema for the API; "": "answer".
	SchemaName string
	// Attempt numbers the tries of one call from 1; it is recorded with the
	// exchange and shapes nothing that is sent.
	Attempt int `json:"-"`
	// Call identifies the call an attempt belongs to, so that a wrapper such
	// as a journal can tell a retry from a new call; 0: unknown.
	Call uint64 `json:"-"`
	// Origin says what the call is for; it names the call's raw records and
	// shapes no answer (a journal's key leaves it out).
	Origin Origin `json:"-"`
	// OnText, when set, learns how many bytes of answer and reasoning each
	// event of a streamed answer brought, as they arrive, from the calling
	// goroutine.
	OnText func(bytes int) `json:"-"`
	// OnAdapt, when set, learns each change this call makes to its request
	// after the server refused a parameter, from the calling goroutine.
	OnAdapt func(Adaptation) `json:"-"`
	// OnSent, when set, learns that the attempt took its slot (past the
	// caps and rate limits) and its request leaves; OnDone that the
	// exchange is over, before the slot is released. Both are called from
	// the calling goroutine, once per attempt that got a slot.
	OnSent, OnDone func() `json:"-"`
}

// Origin places a call in a run: topic, node and step, as the caller names
// them. Providers only pass it on to Exchange.
type Origin struct {
	Topic string
	Node  string
	Step  string
}

// Usage is the token count of one call.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
	// CachedPromptTokens are the prompt tokens the provider served from its
	// cache; ReasoningTokens the completion tokens spent on reasoning.
	CachedPromptTokens int
	ReasoningTokens    int
	// Cost is what the provider said the call cost (OpenRouter's
	// usage.cost), 0 if it did not say.
	Cost float64
	// Estimated is true when the provider reported no usage and the counts
	// were estimated from the text.
	Estimated bool
}

// Implausible says what in u no call can have — a token count below 0 or
// past wire.MaxCallTokens, a cost below 0, past wire.MaxCallCost or not a
// number — and "" when nothing.
func (u Usage) Implausible() string {
	return wire.Implausible(u.Cost, u.PromptTokens, u.CompletionTokens, u.CachedPromptTokens, u.ReasoningTokens)
}

// Response is a provider-neutral chat-completion response.
type Response struct {
	// Text is the answer alone, as the model wrote it, reasoning taken out.
	Text string
	// Reasoning is what the model gave as its reasoning (a reasoning field,
	// or <think> blocks taken out of the content); "" if none.
	Reasoning    string
	FinishReason string
	Model        string // the model that actually answered
	Usage        Usage
	Latency      time.Duration // wall time of the attempt, waits for a slot excluded
}

// Cut reports whether the answer stopped at the token limit
// (finish_reason "length"): what Text holds is the start of an answer.
func (r Response) Cut() bool { return r.FinishReason == wire.FinishLength }
