package protocol

import (
	"fmt"
	"strings"
)

// rule is one row of the transition table: from state, an argument of type by
// role leads to to, or to toClose for a RULING whose close flag is true.
type rule struct {
	from    State
	typ     ArgType
	by      Role
	to      State
	toClose State
}

// rules is the transition table (docs/PROTOCOL.md, "States"). Everything
// not listed is refused.
var rules = []rule{
	{None, Motion, Proposer, AwaitingOpponent, AwaitingOpponent},
	{AwaitingOpponent, Claim, Opponent, AwaitingProposer, AwaitingProposer},
	{AwaitingOpponent, Intervention, Arbitrator, InterventionPending, InterventionPending},
	{AwaitingProposer, Claim, Proposer, AwaitingOpponent, AwaitingOpponent},
	{AwaitingProposer, Appeal, Proposer, AwaitingArbitrator, AwaitingArbitrator},
	{AwaitingProposer, Resolution, Proposer, AwaitingArbitrator, AwaitingArbitrator},
	{AwaitingProposer, Intervention, Arbitrator, InterventionPending, InterventionPending},
	{AwaitingArbitrator, Ruling, Arbitrator, AwaitingProposer, Closed},
	{InterventionPending, Ruling, Arbitrator, AwaitingProposer, Closed},
}

// Transition returns the state a debate in state from moves to when role by
// submits an argument of type typ. closeFlag is read only for a RULING, where
// true closes the debate; it must be true only for the JSON boolean true (see
// CloseFlag). A MOTION is only allowed from None (it creates the debate).
//
// A refused transition is an *Error with CodeActionNotAllowed, the current
// state, the roles that may submit typ now, and a suggestion; an unknown state,
// type or role is CodeInvalidInput.
func Transition(from State, typ ArgType, by Role, closeFlag bool) (State, error) {
	if from != None && !from.Valid() {
		return "", Errorf(CodeInvalidInput, "unknown state %s", quote(string(from)))
	}
	if !typ.Valid() {
		_, err := ParseArgType(string(typ))
		return "", err
	}
	if !by.Valid() {
		_, err := ParseRole(string(by))
		return "", err
	}
	for _, r := range rules {
		if r.from == from && r.typ == typ && r.by == by {
			if typ == Ruling && closeFlag {
				return r.toClose, nil
			}
			return r.to, nil
		}
	}
	return "", refusal(from, typ, by)
}

func refusal(from State, typ ArgType, by Role) *Error {
	e := &Error{
		Code:         CodeActionNotAllowed,
		CurrentState: from,
		AllowedRoles: allowedRoles(from, typ),
		kind:         kindRefused,
	}
	switch {
	case from == None:
		e.Message = fmt.Sprintf("the %s cannot submit %s: the debate has not been created", by, typ)
		e.Suggestion = "create the debate with a MOTION first (debate create)"
	case typ == Motion:
		e.Message = fmt.Sprintf("the %s cannot submit MOTION in state %s: a debate has exactly one MOTION", by, from)
		e.Suggestion = "to start another debate, create a new one (debate create)"
	case from == Closed:
		e.Message = fmt.Sprintf("the %s cannot submit %s: the debate is CLOSED", by, typ)
		e.Suggestion = "the debate is closed; nothing more can be submitted"
	case !contains(submitters(typ), by):
		e.Message = fmt.Sprintf("the %s never submits %s: only the %s", by, typ, joinRoles(submitters(typ)))
		e.Suggestion = ownMove(from, by)
	case typ == Appeal || typ == Resolution:
		// Written as the proposer whoever runs debate appeal or
		// request-completion: the refusal speaks to an opponent too.
		e.Message = fmt.Sprintf("only the proposer submits %s, and only when the debate awaits it; now (%s) %s (an opponent never submits %s)",
			typ, from, awaits(from), typ)
		e.Suggestion = ownMove(from, by)
	default:
		e.Message = fmt.Sprintf("the %s cannot submit %s in state %s: %s", by, typ, from, awaits(from))
		e.Suggestion = ownMove(from, by)
	}
	return e
}

// ownMove is the generic suggestion of a refusal: what by may do in state s.
// Advise replaces it with the next step in the debate at hand.
func ownMove(s State, by Role) string {
	if own := AvailableActions(s, by); len(own) > 0 {
		return fmt.Sprintf("in state %s the %s may submit: %s", s, by, joinTypes(own))
	}
	return "wait: " + awaits(s)
}

func joinRoles(rs []Role) string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = string(r)
	}
	if len(s) == 1 {
		return s[0] + " does"
	}
	return strings.Join(s, " and the ") + " do"
}

// submitters lists the roles that submit typ in some state.
func submitters(typ ArgType) []Role {
	var out []Role
	for _, r := range rules {
		if r.typ == typ && r.from != None && !contains(out, r.by) {
			out = append(out, r.by)
		}
	}
	return out
}

func allowedRoles(from State, typ ArgType) []Role {
	var out []Role
	for _, r := range rules {
		if r.from == from && r.typ == typ && from != None {
			out = append(out, r.by)
		}
	}
	return out
}

// AvailableActions lists the argument types role may submit in state s, in
// table order; it is empty when the role has to wait (and always for CLOSED).
// MOTION is never listed: it only creates a debate.
func AvailableActions(s State, role Role) []ArgType {
	var out []ArgType
	for _, r := range rules {
		if r.from == s && r.by == role && r.from != None {
			out = append(out, r.typ)
		}
	}
	return out
}

// WaitAction is the action a waiting role is told to take when newest is the
// newest argument of a debate now in state (docs/PROTOCOL.md): on a CLOSED
// debate always DebateClosed; after an APPEAL, RESOLUTION or INTERVENTION
// WaitForRuling; after a RULING AlignToRuling for the proposer and
// WaitForProposer for the opponent; otherwise (a CLAIM, the MOTION) Respond.
//
// The table has no column for the arbitrator; a waiting arbitrator is told
// Respond when a RULING is due (AWAITING_ARBITRATOR, INTERVENTION_PENDING) and
// otherwise whom the debate waits for.
func WaitAction(newest Argument, state State, waiter Role) Action {
	if state == Closed {
		return DebateClosed
	}
	if waiter == Arbitrator {
		switch state {
		case AwaitingArbitrator, InterventionPending:
			return Respond
		case AwaitingProposer:
			return WaitForProposer
		default:
			return WaitForOpponent
		}
	}
	switch newest.Type {
	case Appeal, Resolution, Intervention:
		return WaitForRuling
	case Ruling:
		if waiter == Proposer {
			return AlignToRuling
		}
		return WaitForProposer
	}
	return Respond
}

func joinTypes(ts []ArgType) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}
