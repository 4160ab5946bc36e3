package providers

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Class is what a failed attempt means, whichever provider said it and in
// whatever words: the key was refused, the prompt is too long for the
// model, the quota is spent. Its Consequence says what the attempt loop
// does next. The classes, how each is recognised and what follows from it
// are the table in docs/PROVIDERS.md; classes (below) and signs are that
// table in code.
type Class int

// The classes of failure. Their order is their number: add new ones at
// the end.
const (
	ClassOther            Class = iota // recognised as none of the others
	ClassNetwork                       // connection refused, reset or cut
	ClassTimeout                       // the attempt's timeout, or a 408
	ClassRateLimited                   // too many requests for now
	ClassServerError                   // the server failed (5xx), or a gateway in front of it
	ClassConflict                      // 409
	ClassPromptTooLong                 // the prompt does not fit the model's context
	ClassKeyRefused                    // the key is wrong, expired or missing
	ClassModelUnavailable              // the model does not exist, or this key may not use it
	ClassBadRequest                    // the server refused the request as it was sent
	ClassCanceled                      // the caller's context ended
	ClassInvalidResponse               // a 200 whose body is no answer: malformed, no choices, unfinished
	ClassEmpty                         // a 200 whose answer is empty, or reasoning alone, or only tool calls
	ClassCut                           // cut at the token limit before any answer
	ClassContentRefused                // withheld by a content filter, flagged by moderation, or refused by the model
	ClassAnswerTooLarge                // an answer longer than api.maxResponseBytes
	ClassErrorInAnswer                 // a 200 whose answer ended in an error (finish_reason "error", an error event)
	ClassNoSystem                      // the model takes no system message
	ClassRequestTooLarge               // the request is larger than this endpoint ever takes
	ClassQuotaExhausted                // the account's credit, balance or quota is spent
	ClassAgentLimit                    // a coding agent stopped at its turn or budget limit, or hung twice
	ClassAgentMissing                  // a coding agent's program is not installed
)

// Consequence is what a failure of some class asks of the attempt loop.
// A failure with none of them ends the call.
type Consequence struct {
	// Retry: the same model may answer when asked again, after the wait the
	// server asked for (Retry-After) or a backoff; the participant's
	// fallback takes over after fallback.maxConsecutiveFailures of them.
	Retry bool
	// FallBack: this model cannot answer this call however long one waits;
	// the participant's fallback takes the call at once.
	FallBack bool
	// Adapt: the client changes the request and sends it again (a refused
	// parameter left out or replaced, the system message sent as a user
	// message) before the failure reaches the attempt loop.
	Adapt bool
}

// classes names each class and gives its consequence; a new class is one
// line here and one in the table of docs/PROVIDERS.md.
var classes = [...]struct {
	code, title string
	then        Consequence
}{
	ClassOther:            {"other", "unrecognised failure", Consequence{}},
	ClassNetwork:          {"network", "network error", Consequence{Retry: true}},
	ClassTimeout:          {"timeout", "timeout", Consequence{Retry: true}},
	ClassRateLimited:      {"rate-limited", "rate limited", Consequence{Retry: true}},
	ClassServerError:      {"server-error", "server error", Consequence{Retry: true}},
	ClassConflict:         {"conflict", "conflict", Consequence{Retry: true}},
	ClassPromptTooLong:    {"prompt-too-long", "prompt too long for the model", Consequence{FallBack: true}},
	ClassKeyRefused:       {"key-refused", "key refused", Consequence{FallBack: true}},
	ClassModelUnavailable: {"model-unavailable", "model not found or not allowed", Consequence{FallBack: true}},
	ClassBadRequest:       {"bad-request", "bad request", Consequence{Adapt: true}},
	ClassCanceled:         {"canceled", "canceled", Consequence{}},
	ClassInvalidResponse:  {"invalid-response", "invalid response", Consequence{Retry: true}},
	ClassEmpty:            {"empty-answer", "empty answer", Consequence{Retry: true}},
	ClassCut:              {"cut-at-limit", "cut at the token limit", Consequence{}},
	ClassContentRefused:   {"content-refused", "content refused", Consequence{}},
	ClassAnswerTooLarge:   {"answer-too-large", "answer too large", Consequence{Retry: true}},
	ClassErrorInAnswer:    {"error-in-answer", "error in the answer", Consequence{Retry: true}},
	ClassNoSystem:         {"no-system-message", "no system message", Consequence{Adapt: true, FallBack: true}},
	ClassRequestTooLarge:  {"request-too-large", "request too large", Consequence{FallBack: true}},
	ClassQuotaExhausted:   {"quota-exhausted", "quota exhausted", Consequence{FallBack: true}},
	ClassAgentLimit:       {"agent-limit", "agent stopped at its limit", Consequence{FallBack: true}},
	ClassAgentMissing:     {"agent-missing", "agent not installed", Consequence{FallBack: true}},
}

// Classes returns every class, in order.
func Classes() []Class {
	out := make([]Class, len(classes))
	for i := range out {
		out[i] = Class(i)
	}
	return out
}

// String returns the class's stable code, e.g. "quota-exhausted".
func (c Class) String() string {
	if c.known() {
		return classes[c].code
	}
	return fmt.Sprintf("class(%d)", int(c))
}

// Title returns the class in words, e.g. "quota exhausted".
func (c Class) Title() string {
	if c.known() {
		return classes[c].title
	}
	return c.String()
}

// MarshalText encodes the class as its code.
func (c Class) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a class by its code, as MarshalText writes it.
func (c *Class) UnmarshalText(b []byte) error {
	for i, class := range classes {
		if class.code == string(b) {
			*c = Class(i)
			return nil
		}
	}
	return fmt.Errorf("no such class of failure: %q", b)
}

// Consequence returns what a failure of this class asks of the attempt
// loop; an unknown class ends the call.
func (c Class) Consequence() Consequence {
	if c.known() {
		return classes[c].then
	}
	return Consequence{}
}

// Transient reports whether a failure of this class may pass when the same
// model is asked again.
func (c Class) Transient() bool { return c.Consequence().Retry }

func (c Class) known() bool { return c >= 0 && int(c) < len(classes) }

// sign is one way providers say what went wrong: an error response with a
// status from..to whose code, type or status field is one of codes, or
// whose message (nested provider detail included) means what words
// matches, unless it also matches unless. A sign with neither codes nor
// words matches the status alone.
type sign struct {
	class    Class
	from, to int
	codes    []string
	words    *regexp.Regexp
	unless   *regexp.Regexp
}

// words builds a case-insensitive pattern of alternatives.
func words(alternatives ...string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)(` + strings.Join(alternatives, `)|(`) + `)`)
}

// signs classify every error response; the first that matches decides.
// What a failure means comes before its status, since providers send one
// meaning under several statuses (a quota as 402, 429 or 400; a refused
// key as 400 or 401) and several meanings under one (a 429 that is a
// quota, a rate limit or a request too large for any minute). Where each
// wording comes from is in docs/PROVIDERS.md and the test rows of
// TestMeanings.
var signs = []sign{
	{class: ClassContentRefused, from: 400, to: 499,
		codes: []string{"content_filter", "content_policy_violation", "moderation_blocked", "responsibleaipolicyviolation"},
		words: words(`content (management |safety )?polic`, `input was flagged`, `flagged by (the )?moderation`, `requires moderation`, `rejected as a result of our safety system`)},
	{class: ClassNoSystem, from: 400, to: 400, words: words(
		`does not support 'system'`, `system (role|messages?) (is |are )?not supported`, `system role not supported`)},
	{class: ClassQuotaExhausted, from: 400, to: 499,
		codes: []string{"insufficient_quota", "credit_balance_exhausted", "organization_spend_limit_exceeded",
			"project_spend_limit_exceeded", "organization_usage_limit_exceeded", "billing_hard_limit_reached",
			"insufficient_balance", "billing_error", "payment_required"},
		words: words(`exceeded your current quota`, `credit balance is too low`, `insufficient (balance|credits?|funds|quota)`,
			`requires more credits`, `out of credits`, `quota (has been )?exhausted`, `spend(ing)? limit`),
		unless: words(`per ?minute`, `per ?min\b`, `retry in \d`, `try again in \d`)},
	{class: ClassQuotaExhausted, from: 402, to: 402},
	{class: ClassRequestTooLarge, from: 400, to: 499, codes: []string{"request_too_large", "payload_too_large"},
		words: words(`request (is )?too large`, `request entity too large`, `payload too large`, `length limit exceeded`,
			`exceeds the maximum allowed number of bytes`, `body (is )?too large`)},
	{class: ClassPromptTooLong, from: 400, to: 499,
		codes: []string{"context_length_exceeded", "string_above_max_length", "context_window_exceeded"},
		words: words(`context[ _-]?(length|window|size)`, `(prompt|input|messages?|conversation)( is| are)? too long`,
			`\b(prompt|input)\b[^.]{0,40}\b(is|are) too long`,
			`length of (all )?(the )?(messages|prompt|input)\b.{0,40}too long`, `too many (input |prompt )?tokens`,
			`(input|prompt) token count.{0,40}exceeds`, `maximum (prompt|input) length`,
			`prompt_tokens.{0,40}must be less than`, `tokens \+ .?max_new_tokens.? must be`)},
	{class: ClassRequestTooLarge, from: 413, to: 413},
	{class: ClassModelUnavailable, from: 400, to: 404,
		codes: []string{"model_not_found", "deploymentnotfound", "invalid_model", "model_not_available", "key_model_access_denied"},
		words: words(`\bmodels?\b\W.{0,80}(does not exist|not found|is not a valid model|is not available for this (api )?key)`,
			`\b(invalid|unknown|no such) model\b`, `not a valid model`,
			`(key|token|project)\b.{0,40}(not allowed to access|only access|can only use|may only use|does not have access to)\b.{0,40}models?`,
			`not allowed to (access|use) (this |the )?model`)},
	{class: ClassKeyRefused, from: 400, to: 403,
		codes: []string{"invalid_api_key", "authentication_error", "api_key_invalid", "invalid_authentication", "unauthenticated"},
		words: words(`api[ _-]?key (is )?(not valid|invalid|expired|revoked|disabled)`,
			`(invalid|incorrect|missing|expired|revoked|disabled) (api[ _-]?key|x-api-key|bearer token)`,
			`no (cookie )?auth credentials`, `authentication (fail|error)`)},
	{class: ClassKeyRefused, from: 401, to: 401},
	{class: ClassModelUnavailable, from: 404, to: 404},
	{class: ClassKeyRefused, from: 403, to: 403},
	{class: ClassRateLimited, from: 400, to: 499, codes: []string{"rate_limit_exceeded", "rate_limit_error", "resource_exhausted"}},
	{class: ClassRateLimited, from: 429, to: 429},
	{class: ClassTimeout, from: 408, to: 408},
	{class: ClassConflict, from: 409, to: 409},
	{class: ClassBadRequest, from: 400, to: 499},
	{class: ClassServerError, from: 500, to: 599},
	{class: ClassInvalidResponse, from: 200, to: 299},
}

// Meaning classifies an error response by its status and the text of its
// message alone: what a coding agent relays of its API's failure.
func Meaning(status int, message string) Class { return meaning(status, nil, message) }

// MeaningOfWords classifies a message alone by the words of the signs,
// whatever its status: what a coding agent prints of a failure without
// one. ok is false when no sign's words match.
func MeaningOfWords(message string) (c Class, ok bool) {
	for _, s := range signs {
		if s.says(message) {
			return s.class, true
		}
	}
	return ClassOther, false
}

// says reports whether text means what s's words match.
func (s sign) says(text string) bool {
	return s.words != nil && s.words.MatchString(text) && (s.unless == nil || !s.unless.MatchString(text))
}

// meaning classifies an error response by its status, its codes (the
// error's code, type and status fields) and the text of its message.
func meaning(status int, codes []string, text string) Class {
	for i := range codes {
		codes[i] = strings.ToLower(strings.TrimSpace(codes[i]))
	}
	for _, s := range signs {
		if status < s.from || status > s.to {
			continue
		}
		said := s.says(text)
		coded := slices.ContainsFunc(s.codes, func(c string) bool { return slices.Contains(codes, c) })
		if s.codes == nil && s.words == nil || said || coded {
			return s.class
		}
	}
	return ClassOther
}
