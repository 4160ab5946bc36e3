// Package api is the wire format of the protocol server (docs/PROTOCOL.md): the
// JSON shapes of debates, arguments, documents, poll answers and WebSocket
// frames, the response envelope, the request bodies with their strict decoders,
// the debate list's query, and the one table from error codes to HTTP statuses.
// The server, its web pages and its Go client all use it, so they cannot drift
// apart.
//
// Field names follow vjcspy/aweave's server (snake_case; parent_id is null for
// the MOTION). Times are UTC RFC 3339 with microseconds
// ("2006-01-02T15:04:05.000000Z").
package api

import (
	"time"

	"github.com/debatehq/debate/protocol"
)

// TimeLayout is the layout of every time on the wire.
const TimeLayout = "2006-01-02T15:04:05.000000Z"

// Server-level error codes, besides the protocol's: a path or method the
// server does not serve.
const (
	CodeRouteNotFound    = "NOT_FOUND"
	CodeMethodNotAllowed = "METHOD_NOT_ALLOWED"
)

// Envelope is every REST response: {"success":true,"data":…} or
// {"success":false,"error":{…}}.
type Envelope[T any] struct {
	Success bool       `json:"success"`
	Data    T          `json:"data,omitzero"`
	Error   *ErrorBody `json:"error,omitempty"`
}

// ErrorBody is the error of a failed request. AllowedRoles is present (maybe
// empty) for ACTION_NOT_ALLOWED. RequestID names the request in the server's
// log; it is set for internal errors.
type ErrorBody struct {
	Code         string   `json:"code"`
	Message      string   `json:"message"`
	Suggestion   string   `json:"suggestion,omitempty"`
	CurrentState string   `json:"current_state,omitempty"`
	AllowedRoles []string `json:"allowed_roles,omitzero"`
	RequestID    string   `json:"request_id,omitempty"`
}

// Debate is a debate on the wire.
type Debate struct {
	ID         string `json:"id"`
	Title      string `json:"title"`
	DebateType string `json:"debate_type"`
	State      string `json:"state"`
	CreatedAt  string `json:"created_at"`
	UpdatedAt  string `json:"updated_at"`
}

// Argument is an argument on the wire. ParentID is nil only for the MOTION.
// StateAfter is the debate's state right after the argument (an addition to
// vjcspy/aweave's fields).
type Argument struct {
	ID              string  `json:"id"`
	DebateID        string  `json:"debate_id"`
	ParentID        *string `json:"parent_id"`
	Type            string  `json:"type"`
	Role            string  `json:"role"`
	Content         string  `json:"content"`
	ClientRequestID string  `json:"client_request_id"`
	Seq             int     `json:"seq"`
	StateAfter      string  `json:"state_after,omitempty"`
	CreatedAt       string  `json:"created_at"`
}

// Document is one version of a document on the wire.
type Document struct {
	ID              string `json:"id"`
	Title           string `json:"title"`
	Version         int    `json:"version"`
	LatestVersion   int    `json:"latest_version"`
	Content         string `json:"content"`
	ClientRequestID string `json:"client_request_id"`
	CreatedAt       string `json:"created_at"`
}

// Health is the answer of GET /health.
type Health struct {
	Status string `json:"status"`
	// Waiting counts the long-polls the server holds now.
	Waiting int `json:"waiting"`
}

// WriteResult is the answer of every argument write (and of creating a
// debate): the argument written (the original one on a replay) and the
// debate as it is now. AutoRuling is the RULING added after a new RESOLUTION.
type WriteResult struct {
	Debate     Debate    `json:"debate"`
	Argument   Argument  `json:"argument"`
	Replay     bool      `json:"replay"`
	AutoRuling *Argument `json:"auto_ruling,omitempty"`
}

// DebateList is the answer of GET /debates.
type DebateList struct {
	Debates []Debate `json:"debates"`
	Total   int      `json:"total"`
}

// DebateContext is the answer of GET /debates/{id}: the debate, its MOTION,
// its latest arguments besides the MOTION (oldest first), and what each role
// may submit now.
type DebateContext struct {
	Debate           Debate              `json:"debate"`
	Motion           *Argument           `json:"motion"`
	Arguments        []Argument          `json:"arguments"`
	AvailableActions map[string][]string `json:"available_actions"`
}

// Deleted is the answer of DELETE /debates/{id}.
type Deleted struct {
	Deleted bool `json:"deleted"`
}

// PollResult is the answer of GET /debates/{id}/poll. With HasNewArgument,
// Argument is the newest argument, Arguments every argument after the one the
// poll named, oldest first (only the newest when it named none), and Action
// what the polling role should do.
// On a CLOSED debate Action is "debate_closed" even when nothing is new.
// Otherwise (nothing new before the wait ended) Action and Argument are
// absent. AvailableActions lists what the polling role may submit now.
type PollResult struct {
	HasNewArgument   bool       `json:"has_new_argument"`
	Action           string     `json:"action,omitempty"`
	DebateID         string     `json:"debate_id"`
	DebateState      string     `json:"debate_state"`
	LastSeenSeq      int        `json:"last_seen_seq"`
	Argument         *Argument  `json:"argument,omitempty"`
	Arguments        []Argument `json:"arguments"`
	AvailableActions []string   `json:"available_actions"`
}

// DocumentResult is the answer of the document routes; Replay is set when a
// write was a replay of an earlier one with the same client_request_id.
type DocumentResult struct {
	Document Document `json:"document"`
	Replay   bool     `json:"replay"`
}

// WebSocket frame types.
const (
	FrameInitialState       = "initial_state"
	FrameNewArgument        = "new_argument"
	FrameSubmitted          = "submitted"
	FrameError              = "error"
	FrameSubmitIntervention = "submit_intervention"
	FrameSubmitRuling       = "submit_ruling"
)

// Frame is a WebSocket message from the server. Type and Event carry the same
// value (Event is vjcspy/aweave's name for it). ID echoes the id of the client
// message a submitted or error frame answers.
type Frame struct {
	Type  string     `json:"type"`
	Event string     `json:"event"`
	ID    string     `json:"id,omitempty"`
	Data  any        `json:"data,omitempty"`
	Error *ErrorBody `json:"error,omitempty"`
}

// InitialState is the data of the initial_state frame: the debate and all
// its arguments, MOTION first.
type InitialState struct {
	Debate    Debate     `json:"debate"`
	Arguments []Argument `json:"arguments"`
}

// NewArgument is the data of a new_argument frame.
type NewArgument struct {
	Debate   Debate   `json:"debate"`
	Argument Argument `json:"argument"`
}

// FormatTime formats t for the wire.
func FormatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return string(AppendTime(make([]byte, 0, len(TimeLayout)), t))
}

// FromDebate converts a stored debate.
func FromDebate(d protocol.Debate) Debate {
	return Debate{ID: d.ID, Title: d.Title, DebateType: string(d.Type), State: string(d.State),
		CreatedAt: FormatTime(d.CreatedAt), UpdatedAt: FormatTime(d.UpdatedAt)}
}

// FromArgument converts a stored argument.
func FromArgument(a protocol.Argument) Argument {
	out := Argument{ID: a.ID, DebateID: a.DebateID, Type: string(a.Type), Role: string(a.Role),
		Content: a.Content, ClientRequestID: a.ClientRequestID, Seq: a.Seq, StateAfter: string(a.StateAfter),
		CreatedAt: FormatTime(a.CreatedAt)}
	if a.ParentID != "" {
		p := a.ParentID
		out.ParentID = &p
	}
	return out
}

// FromArguments converts a list of stored arguments; never nil.
func FromArguments(as []protocol.Argument) []Argument {
	out := make([]Argument, len(as))
	for i, a := range as {
		out[i] = FromArgument(a)
	}
	return out
}

// FromDocument converts a stored document version.
func FromDocument(d protocol.Document) Document {
	return Document{ID: d.ID, Title: d.Title, Version: d.Version, LatestVersion: d.LatestVersion,
		Content: d.Content, ClientRequestID: d.ClientRequestID, CreatedAt: FormatTime(d.CreatedAt)}
}

// Actions lists what role may submit in state s, as wire strings; never nil.
func Actions(s protocol.State, role protocol.Role) []string {
	acts := protocol.AvailableActions(s, role)
	out := make([]string, len(acts))
	for i, a := range acts {
		out[i] = string(a)
	}
	return out
}

// AllActions maps every role to Actions(s, role).
func AllActions(s protocol.State) map[string][]string {
	m := make(map[string][]string, len(protocol.Roles))
	for _, r := range protocol.Roles {
		m[string(r)] = Actions(s, r)
	}
	return m
}

// FromError converts a protocol error to its wire form.
func FromError(e *protocol.Error) *ErrorBody {
	b := &ErrorBody{Code: string(e.Code), Message: e.Message, Suggestion: e.Suggestion, CurrentState: string(e.CurrentState)}
	if e.Code == protocol.CodeActionNotAllowed || len(e.AllowedRoles) > 0 {
		b.AllowedRoles = make([]string, len(e.AllowedRoles))
		for i, r := range e.AllowedRoles {
			b.AllowedRoles[i] = string(r)
		}
	}
	return b
}
