package providers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/debatehq/debate/providers/wire"
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
	KindAborted                     // 200 whose answer ended in an error (finish_reason "error" or an error chunk)
	KindNoSystem                    // a 400 saying the model takes no system message
	KindLimit                       // a coding agent stopped at its turn or budget limit
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
	KindNoSystem:        {"no system message", Unusable},
	KindLimit:           {"agent limit", Unusable},
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
	s := e.Kind.String() + " error"
	if e.Model != "" {
		s += " from model " + e.Model
	}
	if e.Endpoint != "" {
		s += " at " + e.Endpoint
	}
	if e.Status != 0 {
		s += fmt.Sprintf(" (status %d)", e.Status)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// traceKey adds to a refused key the environment variable it came from, by
// name, so that the user knows what to fix; empty says the variable was
// set to nothing.
func (e *Error) traceKey(variable string, empty bool) {
	if e.Kind != KindAuth || variable == "" {
		return
	}
	if empty {
		e.Err = fmt.Errorf("%w (the key comes from ${%s}, which is empty: export the key in it)", e.Err, variable)
		return
	}
	e.Err = fmt.Errorf("%w (the key comes from ${%s}: check that it holds a current key for this endpoint)", e.Err, variable)
}

// errInvalidResponse marks a 200 that carries no usable answer.
var errInvalidResponse = errors.New("invalid response")

// answerError is a 200 whose answer cannot be used, in the provider's words.
type answerError struct {
	kind Kind
	msg  string
}

func (a *answerError) Error() string { return a.msg }

// maxBody bounds how much of an error body an error message quotes.
const maxBody = 500

// Classify sorts err into a Kind, whose Class says what may help. It
// understands error responses, context errors, network errors and
// decoding errors. An *Error is returned as is; nil gives nil. Model and
// Endpoint are left for the caller to fill in.
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
		status  *statusError
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
	case errors.As(err, &status):
		e.Status = status.status
		e.Kind = status.kind()
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
	default:
		e.Kind = KindOther
	}
	return e
}

// rule classifies an error response: statuses from..to, and, when codes or
// texts are given, one of them in the error's code or message (any case).
type rule struct {
	from, to int
	codes    []string
	texts    []string
	kind     Kind
}

// rules classify every error response, the first that matches deciding;
// the kind's class (kinds) then says what the attempt loop does: retried
// (Transient), sent to the fallback at once (Unusable) or final
// (Permanent). A 400 that refuses a parameter the client can do without,
// or a system message, is adapted first (refused, adapt.go); a system
// message refused again goes to the fallback at once.
var rules = []rule{
	{from: 408, to: 408, kind: KindTimeout},
	{from: 409, to: 409, kind: KindConflict},
	{from: 429, to: 429, kind: KindRateLimit},
	{from: 401, to: 401, kind: KindAuth},
	{from: 403, to: 403, kind: KindAuth},
	{from: 404, to: 404, kind: KindNotFound},
	{from: 400, to: 400, kind: KindContextLength, codes: contextCodes, texts: contextTexts},
	{from: 413, to: 413, kind: KindContextLength, codes: contextCodes, texts: contextTexts},
	{from: 400, to: 400, kind: KindNoSystem, texts: []string{
		"does not support 'system'", "system role is not supported", "system messages are not supported",
		"system message is not supported", "system role not supported",
	}},
	{from: 400, to: 499, kind: KindBadRequest},
	{from: 500, to: 599, kind: KindServer},
	{from: 200, to: 299, kind: KindInvalidResponse},
}

// contextCodes and contextTexts are how the common servers say that the
// prompt is too long.
var (
	contextCodes = []string{"context_length_exceeded", "string_above_max_length"}
	contextTexts = []string{
		"context_length_exceeded", "maximum context length", "context length",
		"context window", "prompt is too long", "too many tokens", "input is too long",
	}
)

// tokenLimitTexts are how an error in a 200 says that the answer reached
// the token limit: a cut answer, not a failure.
var tokenLimitTexts = []string{"token limit reached", "max_tokens reached", "maximum tokens reached", "length limit reached"}

func tokenLimit(msg string) bool { return containsAny(strings.ToLower(msg), tokenLimitTexts...) }

// kind classifies the error response by its status, code and message: the
// first of rules that matches.
func (s *statusError) kind() Kind {
	msg, code := s.msg, ""
	if s.detail != nil {
		msg, code = s.detail.Message+" "+s.detail.Raw, s.detail.Code
	}
	low := strings.ToLower(msg)
	for _, r := range rules {
		if s.status < r.from || s.status > r.to {
			continue
		}
		if r.codes == nil && r.texts == nil || slices.Contains(r.codes, code) || containsAny(low, r.texts...) {
			return r.kind
		}
	}
	return KindOther
}

// statusError is an error response, its text redacted.
type statusError struct {
	status int
	detail *wire.ErrorDetail // nil: the body is no JSON error
	msg    string
}

// newStatusError reads an error response's body: the provider's reason,
// nested detail included, redacted and shortened; the <title> of an HTML
// error page (a gateway's); or the start of another body that is no JSON
// error, which often names the failing proxy. A gateway's timeout of a
// call that was not streamed says how to avoid it.
func newStatusError(status int, body []byte, stream bool, redact func(string) string) *statusError {
	e := &statusError{status: status}
	d, ok := wire.DecodeError(body)
	switch {
	case ok:
		e.detail, e.msg = d, redact(d.Reason())
	case len(strings.TrimSpace(string(body))) == 0:
		e.msg = "empty body"
	case pageTitle(body) != "":
		e.msg = "HTML page: " + redact(pageTitle(body))
	default:
		e.msg = "non-JSON body: " + redact(strings.Join(strings.Fields(string(body)), " "))
	}
	e.msg = oneLine(e.msg)
	if !stream && (status == http.StatusGatewayTimeout || status == statusOriginTimeout) {
		e.msg += " (the gateway gave up waiting for an answer in one piece: set api.stream: true, and the answer starts at once)"
	}
	return e
}

// statusOriginTimeout is Cloudflare's 524: the origin did not start its
// answer in time.
const statusOriginTimeout = 524

// titleTag finds an HTML page's title.
var titleTag = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)

// pageTitle returns the title of an HTML error page, "" if body has none.
func pageTitle(body []byte) string {
	m := titleTag.FindSubmatch(body)
	if m == nil {
		return ""
	}
	return strings.Join(strings.Fields(html.UnescapeString(string(m[1]))), " ")
}

func (s *statusError) Error() string { return s.msg }

// sanitize returns err as it is safe to return: its text redacted, in
// front of a cause whose request URL is redacted too (error responses are
// redacted when read).
func sanitize(err error, redact func(string) string) error {
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		c := *urlErr
		c.URL = redact(c.URL)
		err = &c
	}
	return &safeError{msg: redact(err.Error()), cause: err}
}

// safeError is a redacted message in front of a sanitized cause.
type safeError struct {
	msg   string
	cause error
}

func (s *safeError) Error() string { return s.msg }
func (s *safeError) Unwrap() error { return s.cause }
