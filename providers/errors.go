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
	"strings"
	"syscall"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Kind is what went wrong in one failed attempt. Its Class tells the caller's
// attempt loop what to do next.
type Kind int

// The kinds of failure.
const (
	KindOther           Kind = iota // unrecognised
	KindNetwork                     // connection refused, reset or cut
	KindTimeout                     // the attempt's timeout or a 408
	KindRateLimit                   // 429
	KindServer                      // 5xx
	KindConflict                    // 409
	KindContextLength               // a 400 saying the prompt is too long
	KindAuth                        // 401, 403
	KindNotFound                    // 404 (unknown model or path)
	KindBadRequest                  // other 4xx, or refused before sending
	KindCanceled                    // the caller's context ended
	KindInvalidResponse             // 200 with a malformed body or no choices
	KindEmpty                       // 200 whose answer is empty (reasoning alone counts as empty)
	KindCut                         // 200 cut at the token limit before any answer
	KindFiltered                    // 200 withheld by a content filter, or a refusal
	KindTooLarge                    // an answer longer than api.maxResponseBytes
	KindAborted                     // 200 whose answer ended in an error (finish_reason "error" or unknown)
)

// Class is what a failure of some kind asks of the attempt loop.
type Class int

// The classes of failure.
const (
	// Permanent failures end the call: trying again, or another model,
	// would be refused the same way.
	Permanent Class = iota
	// Transient failures may pass: the same model is tried again.
	Transient
	// Unusable failures say that this model cannot answer this participant
	// at all (key refused, model unknown, prompt too long for it): the
	// participant's fallback takes over at once, without a retry.
	Unusable
)

// kinds names each kind and gives its class; a new kind is one line here.
var kinds = [...]struct {
	name  string
	class Class
}{
	KindOther:           {"other", Permanent},
	KindNetwork:         {"network", Transient},
	KindTimeout:         {"timeout", Transient},
	KindRateLimit:       {"rate limit", Transient},
	KindServer:          {"server", Transient},
	KindConflict:        {"conflict", Transient},
	KindContextLength:   {"context length", Unusable},
	KindAuth:            {"auth", Unusable},
	KindNotFound:        {"not found", Unusable},
	KindBadRequest:      {"bad request", Permanent},
	KindCanceled:        {"canceled", Permanent},
	KindInvalidResponse: {"invalid response", Transient},
	KindEmpty:           {"empty answer", Transient},
	KindCut:             {"token limit", Permanent},
	KindFiltered:        {"content filter", Permanent},
	KindTooLarge:        {"answer too large", Transient},
	KindAborted:         {"aborted answer", Transient},
}

// String returns the kind's name, e.g. "rate limit".
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kinds) {
		return kinds[k].name
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// MarshalText encodes the kind as its name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Class returns what a failure of this kind asks of the attempt loop; an
// unknown kind is permanent.
func (k Kind) Class() Class {
	if k >= 0 && int(k) < len(kinds) {
		return kinds[k].class
	}
	return Permanent
}

// Transient reports whether a failure of this kind may pass when the same
// model is tried again.
func (k Kind) Transient() bool { return k.Class() == Transient }

// Error is a failed model call. Its text never contains an API key.
type Error struct {
	Kind     Kind
	Model    string
	Endpoint string // base URL, without credentials
	Status   int    // HTTP status, 0 if none arrived
	// RetryAfter is the wait the server asked for, 0 if it did not.
	RetryAfter time.Duration
	Err        error
}

// Error describes the failure: kind, model, endpoint, status and cause.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Kind.String())
	b.WriteString(" error")
	if e.Model != "" {
		b.WriteString(" from model ")
		b.WriteString(e.Model)
	}
	if e.Endpoint != "" {
		b.WriteString(" at ")
		b.WriteString(e.Endpoint)
	}
	if e.Status != 0 {
		fmt.Fprintf(&b, " (status %d)", e.Status)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// errInvalidResponse marks a 200 that carries no usable answer.
var errInvalidResponse = errors.New("invalid response")

// answerKind reports the kinds of a 200 whose answer cannot be used.
func answerKind(k Kind) bool {
	return k == KindEmpty || k == KindCut || k == KindFiltered || k == KindAborted
}

// answerError is a 200 whose answer cannot be used, in the provider's words.
type answerError struct {
	kind Kind
	msg  string
}

func (a *answerError) Error() string { return a.msg }

// maxBody bounds how much of an error body an error message quotes.
const maxBody = 300

// Classify sorts err into a Kind, whose Class says what may help. It
// understands go-openai's *APIError and *RequestError, context errors,
// network errors and decoding errors. An *Error is returned as is; nil gives
// nil. Model and Endpoint are left for the caller to fill in.
func Classify(err error) *Error {
	if err == nil {
		return nil
	}
	var pe *Error
	if errors.As(err, &pe) {
		return pe
	}
	e := &Error{Err: err}
	var (
		answer  *answerError
		apiErr  *openai.APIError
		reqErr  *openai.RequestError
		netErr  net.Error
		urlErr  *url.Error
		syntax  *json.SyntaxError
		typeErr *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &answer):
		e.Kind = answer.kind
	case errors.Is(err, context.Canceled):
		e.Kind = KindCanceled
	case errors.Is(err, context.DeadlineExceeded):
		e.Kind = KindTimeout
	case errors.As(err, &apiErr) && apiErr.HTTPStatusCode != 0:
		e.Status = apiErr.HTTPStatusCode
		e.Kind = statusKind(e.Status, apiErr.Message, fmt.Sprint(apiErr.Code))
	case errors.As(err, &reqErr):
		e.Status = reqErr.HTTPStatusCode
		e.Kind = statusKind(e.Status, string(reqErr.Body), "")
	case errors.Is(err, errInvalidResponse), errors.As(err, &syntax), errors.As(err, &typeErr):
		e.Kind = KindInvalidResponse
	case errors.As(err, &netErr) && netErr.Timeout():
		e.Kind = KindTimeout
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.EPIPE), errors.Is(err, net.ErrClosed):
		e.Kind = KindNetwork
	case errors.As(err, &urlErr), errors.As(err, &netErr):
		e.Kind = KindNetwork
	case refusedBeforeSending(err):
		e.Kind = KindBadRequest
	default:
		e.Kind = KindOther
	}
	return e
}

// statusKind maps an HTTP status (and, for 400, the error text) to a Kind.
func statusKind(status int, msg, code string) Kind {
	switch {
	case status == http.StatusRequestTimeout:
		return KindTimeout
	case status == http.StatusConflict:
		return KindConflict
	case status == http.StatusTooManyRequests:
		return KindRateLimit
	case status == http.StatusUnauthorized, status == http.StatusForbidden:
		return KindAuth
	case status == http.StatusNotFound:
		return KindNotFound
	case status == http.StatusBadRequest, status == http.StatusRequestEntityTooLarge:
		if contextLength(msg, code) {
			return KindContextLength
		}
		return KindBadRequest
	case status >= 500:
		return KindServer
	case status >= 400:
		return KindBadRequest
	case status >= 200 && status < 300:
		return KindInvalidResponse
	}
	return KindOther
}

// contextLength recognises the "prompt too long" errors of the common
// OpenAI-compatible servers.
func contextLength(msg, code string) bool {
	if code == "context_length_exceeded" || code == "string_above_max_length" {
		return true
	}
	m := strings.ToLower(msg)
	for _, s := range []string{
		"context_length_exceeded", "maximum context length", "context length",
		"context window", "prompt is too long", "too many tokens", "input is too long",
	} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// refusedBeforeSending reports go-openai's client-side request checks.
func refusedBeforeSending(err error) bool {
	for _, target := range []error{
		openai.ErrReasoningModelMaxTokensDeprecated, openai.ErrReasoningModelLimitationsOther,
		openai.ErrReasoningModelLimitationsLogprobs, openai.ErrReasoningSamplingUnsupported,
		openai.ErrReasoningEffortUnsupported, openai.ErrReasoningToolsRequireResponses,
		openai.ErrChatCompletionInvalidModel, openai.ErrChatCompletionStreamNotSupported,
		openai.ErrContentFieldsMisused,
	} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

// sanitize returns a copy of err that is safe to return: API key values and
// bearer tokens are removed from server-provided text, and long bodies are
// shortened. Errors without server text are returned unchanged.
func sanitize(err error, redact func(string) string) error {
	// An error body go-openai could not decode as its error shape (LM
	// Studio's {"error": "text"}) is a RequestError that may wrap an empty
	// APIError without a status: the body says more.
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) && apiErr.HTTPStatusCode != 0 {
		c := *apiErr
		c.Message = redact(c.Message)
		c.InnerError = nil
		return &apiMessage{c: &c}
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		c := *reqErr
		body := redact(string(c.Body))
		if len(body) > maxBody {
			body = body[:maxBody] + "…"
		}
		c.Body = []byte(body)
		return &bodyError{c: &c}
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		c := *urlErr
		c.URL = redact(c.URL)
		return &c
	}
	return err
}

// apiMessage presents a JSON error response by the server's message alone:
// the status is already part of the *Error that wraps it.
type apiMessage struct{ c *openai.APIError }

func (a *apiMessage) Error() string {
	if msg := strings.Join(strings.Fields(a.c.Message), " "); msg != "" {
		return msg
	}
	return "no message"
}

func (a *apiMessage) Unwrap() error { return a.c }

// bodyError presents a non-JSON error response briefly: status and the start
// of the body, which often names the failing proxy.
type bodyError struct{ c *openai.RequestError }

func (b *bodyError) Error() string {
	body := strings.Join(strings.Fields(string(b.c.Body)), " ")
	if body == "" {
		return "empty body"
	}
	return "non-JSON body: " + body
}

func (b *bodyError) Unwrap() error { return b.c }
