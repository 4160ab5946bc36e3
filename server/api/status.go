package api

import (
	"errors"
	"net/http"

	"github.com/debatehq/debate/protocol"
)

// Server-level codes of the safety checks (docs/PROTOCOL.md, "The wire
// format").
const (
	// CodeUnsupportedMediaType refuses a write whose body is not declared
	// as JSON.
	CodeUnsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
	// CodeCrossSite refuses a state-changing request from another origin.
	CodeCrossSite = "CROSS_SITE_REQUEST"
	// CodeHostNotAllowed refuses, on a server without a token, a Host that
	// is not a loopback name or address (DNS rebinding).
	CodeHostNotAllowed = "HOST_NOT_ALLOWED"
	// CodeRequestTimeout answers a request body that did not arrive in time.
	CodeRequestTimeout = "REQUEST_TIMEOUT"
	// CodeUnavailable answers a request the database could not serve
	// because it could not be reached (a PostgreSQL restart): 503 with
	// Retry-After, worth sending again.
	CodeUnavailable = "DATABASE_UNAVAILABLE"
	// CodeTooManyConnections answers, before any request is read, a
	// connection past the server's caps: 503 with Retry-After.
	CodeTooManyConnections = "TOO_MANY_CONNECTIONS"
	// CodeTooManyAttempts answers a client that sent too many wrong
	// tokens: 429 with Retry-After.
	CodeTooManyAttempts = "TOO_MANY_ATTEMPTS"
)

// RetryAfter is the Retry-After header, in seconds, of a 503
// DATABASE_UNAVAILABLE.
const RetryAfter = "1"

// Unavailable is the refusal of a request whose database could not be
// reached; its status is 503.
func Unavailable() *protocol.Error {
	return &protocol.Error{Code: protocol.Code(CodeUnavailable), Message: "the database is unavailable",
		Suggestion: "send the request again in a few seconds (a write with the same client_request_id); agent commands do so on their own"}
}

// statuses is the one table from error codes to HTTP statuses, for the API
// and the web pages alike.
var statuses = map[string]int{
	string(protocol.CodeInvalidInput):     http.StatusBadRequest,
	string(protocol.CodeAuthFailed):       http.StatusUnauthorized,
	string(protocol.CodeActionNotAllowed): http.StatusForbidden,
	string(protocol.CodeDebateNotFound):   http.StatusNotFound,
	string(protocol.CodeArgumentNotFound): http.StatusNotFound,
	string(protocol.CodeDocumentNotFound): http.StatusNotFound,
	string(protocol.CodeContentTooLarge):  http.StatusRequestEntityTooLarge,
	string(protocol.CodeInternal):         http.StatusInternalServerError,
	CodeRouteNotFound:                     http.StatusNotFound,
	CodeMethodNotAllowed:                  http.StatusMethodNotAllowed,
	CodeUnsupportedMediaType:              http.StatusUnsupportedMediaType,
	CodeCrossSite:                         http.StatusForbidden,
	CodeHostNotAllowed:                    http.StatusForbidden,
	CodeRequestTimeout:                    http.StatusRequestTimeout,
	CodeUnavailable:                       http.StatusServiceUnavailable,
	CodeTooManyConnections:                http.StatusServiceUnavailable,
	CodeTooManyAttempts:                   http.StatusTooManyRequests,
}

// Status is the HTTP status of an error code, and whether the code is known.
// An unknown code is 500.
func Status(code string) (int, bool) {
	st, ok := statuses[code]
	if !ok {
		return http.StatusInternalServerError, false
	}
	return st, true
}

// Problem is the wire form of err and its HTTP status, for the API and the
// web pages alike: a *protocol.Error whose code is known and not internal as
// it is, anything else as "internal error" naming the request reqID. internal
// reports the latter: the caller logs err, whose text never reaches the
// client.
func Problem(err error, reqID string) (status int, body *ErrorBody, internal bool) {
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.Code != protocol.CodeInternal {
		if st, known := statuses[string(pe.Code)]; known {
			return st, FromError(pe), false
		}
	}
	return http.StatusInternalServerError, &ErrorBody{Code: string(protocol.CodeInternal),
		Message: "internal error (request " + reqID + ")", RequestID: reqID}, true
}
