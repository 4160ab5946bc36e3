// Package protocol is the proposer / opponent / arbitrator argument protocol:
// the states of a debate, the roles and argument types, the state machine
// (Transition, AvailableActions), the action a waiting role is told to take
// (WaitAction), the error codes every front end maps to its own statuses, and
// the plain data types (Debate, Argument, Document) that the store produces and
// the renderer and server consume. It is pure: no I/O, no clocks.
package protocol

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
)

// State is the state of a debate. The zero value, None, is the state before
// the MOTION that creates a debate.
type State string

// The states of a debate, with their wire strings.
const (
	None                State = ""
	AwaitingOpponent    State = "AWAITING_OPPONENT"
	AwaitingProposer    State = "AWAITING_PROPOSER"
	AwaitingArbitrator  State = "AWAITING_ARBITRATOR"
	InterventionPending State = "INTERVENTION_PENDING"
	Closed              State = "CLOSED"
)

// States lists every state a stored debate can be in, in lifecycle order.
var States = []State{AwaitingOpponent, AwaitingProposer, AwaitingArbitrator, InterventionPending, Closed}

// Role is a party of a debate.
type Role string

// The roles, with their wire strings.
const (
	Proposer   Role = "proposer"
	Opponent   Role = "opponent"
	Arbitrator Role = "arbitrator"
)

// Roles lists every role.
var Roles = []Role{Proposer, Opponent, Arbitrator}

// ArgType is the type of an argument.
type ArgType string

// The argument types, with their wire strings.
const (
	Motion       ArgType = "MOTION"
	Claim        ArgType = "CLAIM"
	Appeal       ArgType = "APPEAL"
	Ruling       ArgType = "RULING"
	Intervention ArgType = "INTERVENTION"
	Resolution   ArgType = "RESOLUTION"
)

// ArgTypes lists every argument type.
var ArgTypes = []ArgType{Motion, Claim, Appeal, Ruling, Intervention, Resolution}

// DebateType selects the per-role rules (prompt templates) of a debate.
type DebateType string

// The debate types, with their wire strings.
const (
	GeneralDebate    DebateType = "general_debate"
	CodingPlanDebate DebateType = "coding_plan_debate"
)

// DebateTypes lists every debate type.
var DebateTypes = []DebateType{GeneralDebate, CodingPlanDebate}

// Action is what a waiting role is told to do next (see WaitAction).
type Action string

// The wait actions. WaitForOpponent is only given to a waiting arbitrator.
const (
	Respond         Action = "respond"
	WaitForRuling   Action = "wait_for_ruling"
	AlignToRuling   Action = "align_to_ruling"
	WaitForProposer Action = "wait_for_proposer"
	WaitForOpponent Action = "wait_for_opponent"
	DebateClosed    Action = "debate_closed"
)

// AutoRulingContent is the content of the RULING the store adds after a new
// RESOLUTION: vjcspy/aweave's text, word for word, which its agents read.
const AutoRulingContent = "Auto-approved: Debate completed as requested by proposer."

// Valid reports whether s is a state a stored debate can be in.
func (s State) Valid() bool { return contains(States, s) }

// Valid reports whether r is a known role.
func (r Role) Valid() bool { return contains(Roles, r) }

// Valid reports whether t is a known argument type.
func (t ArgType) Valid() bool { return contains(ArgTypes, t) }

// Valid reports whether t is a known debate type.
func (t DebateType) Valid() bool { return contains(DebateTypes, t) }

// NeedsTarget reports whether an argument of type t must name the argument it
// answers (target_id). RULING and INTERVENTION may omit it; the store then
// attaches them to the newest argument. MOTION has no parent.
func (t ArgType) NeedsTarget() bool { return t == Claim || t == Appeal || t == Resolution }

// NeedsContent reports whether an argument of type t must have non-empty
// content. Only an INTERVENTION may be empty.
func (t ArgType) NeedsContent() bool { return t != Intervention }

// NeedsRequestID reports whether a write of type t must carry a
// client_request_id. RULING and INTERVENTION may omit it; the store then
// generates one, and such a write is not idempotent.
func (t ArgType) NeedsRequestID() bool { return t != Ruling && t != Intervention }

// ParseState returns s as a State, or an INVALID_INPUT error naming the valid
// values.
func ParseState(s string) (State, error) { return parse(s, "state", States) }

// ParseRole returns s as a Role, or an INVALID_INPUT error naming the valid
// values.
func ParseRole(s string) (Role, error) { return parse(s, "role", Roles) }

// ParseArgType returns s as an ArgType, or an INVALID_INPUT error naming the
// valid values.
func ParseArgType(s string) (ArgType, error) { return parse(s, "argument type", ArgTypes) }

// ParseDebateType returns s as a DebateType, or an INVALID_INPUT error naming
// the valid values.
func ParseDebateType(s string) (DebateType, error) { return parse(s, "debate_type", DebateTypes) }

// CloseFlag interprets the raw JSON value of a RULING's "close" field: it is
// true only for the JSON boolean true. The string "true", 1, null, a missing
// field (nil or empty raw) and anything else do not close a debate. A server
// may additionally reject non-boolean values as INVALID_INPUT; it must never
// treat them as true.
func CloseFlag(raw json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(raw), []byte("true"))
}

// Debate is a stored debate.
type Debate struct {
	ID        string
	Title     string
	Type      DebateType
	State     State
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Argument is a stored argument. Seq is contiguous per debate starting at 1
// (the MOTION) and is the only ordering. ParentID is empty only for the
// MOTION. StateAfter is the debate's state right after this argument.
type Argument struct {
	ID              string
	DebateID        string
	ParentID        string
	Type            ArgType
	Role            Role
	Content         string
	ClientRequestID string
	Seq             int
	StateAfter      State
	CreatedAt       time.Time
}

// Document is one version of a shared document. Version counts from 1 (the
// create); LatestVersion is the newest version at the time it was read.
type Document struct {
	ID              string
	Title           string
	Version         int
	LatestVersion   int
	Content         string
	ClientRequestID string
	CreatedAt       time.Time
}

func contains[T comparable](list []T, v T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func parse[T ~string](s, what string, valid []T) (T, error) {
	for _, v := range valid {
		if string(v) == s {
			return v, nil
		}
	}
	names := make([]string, len(valid))
	for i, v := range valid {
		names[i] = string(v)
	}
	return "", &Error{
		Code:       CodeInvalidInput,
		Message:    "unknown " + what + " " + quote(s),
		Suggestion: "use one of: " + strings.Join(names, ", "),
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
