package protocol

import (
	"errors"
	"fmt"
)

// Code classifies an error for clients. Front ends map each code to their own
// status (HTTP status, exit code) with one table.
type Code string

// The error codes, with their wire strings.
const (
	CodeActionNotAllowed Code = "ACTION_NOT_ALLOWED"
	CodeInvalidInput     Code = "INVALID_INPUT"
	CodeDebateNotFound   Code = "DEBATE_NOT_FOUND"
	CodeArgumentNotFound Code = "ARGUMENT_NOT_FOUND"
	CodeDocumentNotFound Code = "DOCUMENT_NOT_FOUND"
	CodeContentTooLarge  Code = "CONTENT_TOO_LARGE"
	CodeAuthFailed       Code = "AUTH_FAILED"
	CodeInternal         Code = "INTERNAL_ERROR"
)

// Codes lists every error code.
var Codes = []Code{
	CodeActionNotAllowed, CodeInvalidInput, CodeDebateNotFound, CodeArgumentNotFound,
	CodeDocumentNotFound, CodeContentTooLarge, CodeAuthFailed, CodeInternal,
}

// Error is a protocol error a client may see. Message and Suggestion are safe
// to show; CurrentState and AllowedRoles are set for ACTION_NOT_ALLOWED (and
// AllowedRoles may be empty when nobody may submit that type now). Err is an
// optional cause kept for logs and errors.Is; it is never shown to clients.
type Error struct {
	Code         Code
	Message      string
	Suggestion   string
	CurrentState State
	AllowedRoles []Role
	Err          error

	// kind tells Advise which refusal this is; lastWord is the
	// arbitrator's argument a bypass skipped.
	kind     kind
	lastWord *Argument
}

// kind classifies the refusals Advise completes with the next step.
type kind int

const (
	kindOther   kind = iota
	kindRefused      // a transition the state machine refuses
	kindBypass       // a target older than the arbitrator's last word
	kindTarget       // a target outside the debate
)

// Error returns the message, with the cause when there is one.
func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithSuggestion sets the suggestion and returns e.
func (e *Error) WithSuggestion(s string) *Error {
	e.Suggestion = s
	return e
}

// CodeOf returns the code of the first *Error in err's chain, or
// CodeInternal when there is none (and "" for a nil err).
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	var pe *Error
	if errors.As(err, &pe) {
		return pe.Code
	}
	return CodeInternal
}
