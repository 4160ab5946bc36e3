package store

import (
	"fmt"

	"github.com/debatehq/debate/protocol"
)

// The parts of the write pipeline that do not depend on the database, shared
// by both backends.

// errDebateExists refuses a create whose debate id is taken by a debate
// created with another client_request_id.
func errDebateExists(id string, state protocol.State) error {
	return &protocol.Error{
		Code:         protocol.CodeInvalidInput,
		Message:      fmt.Sprintf("debate %s already exists", id),
		Suggestion:   "choose a new debate id (debate generate-id), or resend the original client_request_id to get the existing debate",
		CurrentState: state,
	}
}

// errTargetNotInDebate refuses a write whose target is not an argument of
// its debate.
func errTargetNotInDebate(target, debate string) error {
	return protocol.TargetNotInDebate(target, debate)
}

// autoRuling is the closing RULING the store adds, as arbitrator, after a new
// RESOLUTION of debateID.
func autoRuling(debateID, resolutionID string) protocol.Write {
	return protocol.Write{
		DebateID:        debateID,
		Type:            protocol.Ruling,
		Role:            protocol.Arbitrator,
		TargetID:        resolutionID,
		Content:         protocol.AutoRulingContent,
		ClientRequestID: "auto-ruling:" + resolutionID,
		Close:           true,
	}
}

// lastWordAfter returns the seq of the arbitrator's last word in a debate
// after a is written to it: a's if it is an INTERVENTION or a RULING, else
// lastWord, the seq before, as the trigger on arguments sets the debate's
// last_word_seq (see migrations).
func lastWordAfter(lastWord int, a protocol.Argument) int {
	if a.Type == protocol.Intervention || a.Type == protocol.Ruling {
		return a.Seq
	}
	return lastWord
}
