package protocol

import "fmt"

// CheckTarget enforces "a ruling cannot be bypassed": once the
// arbitrator has spoken, a proposer's or opponent's write must answer the
// arbitrator's newest INTERVENTION or RULING, or an argument newer than it. A
// party that was composing while the arbitrator spoke is told which argument
// to read and how, instead of skipping it unknowingly.
//
// state is the debate's current state and typ the type being written; target
// is the argument the write answers; lastWord is the debate's newest
// INTERVENTION or RULING, or the zero Argument when the arbitrator has not
// spoken. The arbitrator's own writes are never refused here. Every store
// backend calls this inside its write transaction, after the transition
// check.
func CheckTarget(state State, typ ArgType, by Role, target, lastWord Argument) error {
	if by == Arbitrator || lastWord.ID == "" || target.Seq >= lastWord.Seq {
		return nil
	}
	return &Error{
		Code: CodeActionNotAllowed,
		Message: fmt.Sprintf("the arbitrator's %s %s (#%d) is newer than your target %s (#%d): read it before you answer",
			lastWord.Type, lastWord.ID, lastWord.Seq, target.ID, target.Seq),
		Suggestion: fmt.Sprintf("read it with `debate get-context --debate-id %s`, then answer the newest argument (its last_argument_id) with your %s",
			lastWord.DebateID, typ),
		CurrentState: state,
		AllowedRoles: allowedRoles(state, typ),
		kind:         kindBypass,
		lastWord:     &lastWord,
	}
}
