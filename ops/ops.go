// Package ops holds what an agent or a tool can do with debate: with a
// batch run (start it, follow it, read its decision and its reports, cancel
// it, list the recent ones) and with a protocol debate on a server (open
// it, write an argument, wait for one's turn, read it, rule). The agent
// commands of the command line and the MCP tools both call it, so that the
// same input gets the same checks, answers and errors whichever door it
// came through; they only parse and print.
package ops

import (
	"errors"
	"net/url"
	"strings"

	"github.com/debatehq/debate/internal/redact"

	"github.com/debatehq/debate/protocol"
	"github.com/debatehq/debate/server/api"
	"github.com/debatehq/debate/server/client"
)

// InputError is input an operation refuses before doing anything: Field
// names the input as its tool argument does (debate_id), and Problem what
// is wrong with it and how to fix it.
type InputError struct {
	Field   string
	Problem string
}

// Error names the field and the problem.
func (e *InputError) Error() string { return e.Field + " " + e.Problem }

// missing is the error of a required input left empty; hint says how to
// get a value.
func missing(field, hint string) error {
	p := "is required"
	if hint != "" {
		p += " (" + hint + ")"
	}
	return &InputError{Field: field, Problem: p}
}

// FailureBody is an operation's error as an agent reads it: the server's
// error body with, for a call that got no answer, the network cause.
type FailureBody struct {
	api.ErrorBody
	Detail string `json:"detail,omitempty"`
}

// Failure is err as an agent reads it: the server's error with its code,
// suggestion, state and allowed roles; INVALID_INPUT for input refused
// here; a run's refusal with its code; UNREACHABLE or TIMEOUT, with the
// network cause (credentials masked) in Detail, for a call that got no
// answer; INTERNAL_ERROR otherwise.
func Failure(err error) FailureBody {
	var (
		ie *InputError
		ce *client.Error
		re *RunError
	)
	switch {
	case errors.As(err, &ie):
		return FailureBody{ErrorBody: api.ErrorBody{Code: string(protocol.CodeInvalidInput), Message: ie.Error()}}
	case errors.As(err, &re):
		return FailureBody{ErrorBody: api.ErrorBody{Code: re.Code, Message: re.Message, Suggestion: re.Suggestion}}
	case errors.As(err, &ce):
		b := FailureBody{ErrorBody: api.ErrorBody{Code: ce.Code, Message: ce.Message, Suggestion: ce.Suggestion,
			CurrentState: ce.CurrentState, AllowedRoles: ce.AllowedRoles, RequestID: ce.RequestID}}
		if ce.Err != nil {
			b.Detail = redacted(ce.Err)
		}
		return b
	}
	return FailureBody{ErrorBody: api.ErrorBody{Code: string(protocol.CodeInternal), Message: err.Error()}}
}

// redacted is err's text with the credentials of the URL it names masked.
func redacted(err error) string {
	text := err.Error()
	var ue *url.Error
	if errors.As(err, &ue) && ue.URL != "" {
		text = strings.ReplaceAll(text, ue.URL, redact.URL(ue.URL))
	}
	return text
}
