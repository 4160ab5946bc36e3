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
	"strings"
	"syscall"
	"time"

	"github.com/debatehq/debate/providers/wire"
)

// Error is a failed model call. Its text never contains an API key.
type Error struct {
	Class    Class
	Model    string
	Endpoint string // base URL, without credentials
	Status   int    // HTTP status, 0 if none arrived
	// RetryAfter is the wait the server asked for, 0 if it did not.
	RetryAfter time.Duration
	Err        error
}

// Error describes the failure: its class in words, model, endpoint,
// status and cause.
func (e *Error) Error() string {
	s := e.Class.Title()
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
	if e.Class != ClassKeyRefused || variable == "" {
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
	class Class
	msg   string
}

func (a *answerError) Error() string { return a.msg }

// maxBody bounds how much of an error body an error message quotes.
const maxBody = 500

// Classify sorts err into a Class, whose Consequence says what may help. It
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
		e.Class = answer.class
	case errors.Is(err, context.Canceled):
		e.Class = ClassCanceled
	case errors.Is(err, context.DeadlineExceeded):
		e.Class = ClassTimeout
	case errors.As(err, &status):
		e.Status = status.status
		e.Class = status.class()
	case errors.Is(err, errInvalidResponse), errors.As(err, &syntax), errors.As(err, &typeErr):
		e.Class = ClassInvalidResponse
	case errors.As(err, &netErr) && netErr.Timeout():
		e.Class = ClassTimeout
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.EPIPE), errors.Is(err, net.ErrClosed):
		e.Class = ClassNetwork
	case errors.As(err, &urlErr), errors.As(err, &netErr):
		e.Class = ClassNetwork
	default:
		e.Class = ClassOther
	}
	return e
}

// tokenLimitTexts are how an error in a 200 says that the answer reached
// the token limit: a cut answer, not a failure.
var tokenLimitTexts = []string{"token limit reached", "max_tokens reached", "maximum tokens reached", "length limit reached"}

func tokenLimit(msg string) bool { return containsAny(strings.ToLower(msg), tokenLimitTexts...) }

// class classifies the error response by what it says (signs): its
// status, its code, type and status fields, and its message with any
// nested provider detail.
func (s *statusError) class() Class {
	if s.detail == nil {
		return meaning(s.status, nil, s.msg)
	}
	d := s.detail
	return meaning(s.status, []string{d.Code, d.Type, d.Status}, d.Message+" "+d.Raw)
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
