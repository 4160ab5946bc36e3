package tree

import "time"

// The steps of a protocol debate, named after the role that speaks.
const (
	StepProposer   Step = "proposer"
	StepOpponent   Step = "opponent"
	StepArbitrator Step = "arbitrator"
)

// HumanModel is the model recorded for an arbitrator played by a person.
const HumanModel = "human"

// Motion is one protocol debate of a run: the motion as configured, the
// debate it was played in, every argument of that debate, and how it ended.
//
// Status is Converged when the proposer ended the debate with a RESOLUTION
// (closed by the automatic ruling), Forced when an arbitrator's RULING closed
// it, Failed when it could not go on (a call or a write failed), and
// Interrupted when the run was stopped first.
type Motion struct {
	ID         string `json:"id"`
	Title      string `json:"title"`
	Motion     string `json:"motion"`
	DebateType string `json:"debateType"`
	// DebateID is the debate's id in the database; State its final state.
	DebateID   string           `json:"debateId"`
	State      string           `json:"state"`
	Documents  []MotionDocument `json:"documents"`
	Proposer   Participant      `json:"proposer"`
	Opponent   Participant      `json:"opponent"`
	Arbitrator Participant      `json:"arbitrator"` // Model is HumanModel for a person
	MaxTurns   int              `json:"maxTurns"`
	Turns      int              `json:"turns"` // proposer replies made
	Arguments  []MotionArgument `json:"arguments"`
	Status     Status           `json:"status"`
	StopReason string           `json:"stopReason"`
	// Because is StopReason as codes, which the reports say.
	Because   []Reason   `json:"because,omitempty"`
	Fallbacks []Fallback `json:"fallbacks"`
	Usage     Usage      `json:"usage"`
	// ByModel is Usage per model.
	ByModel   map[string]Usage `json:"byModel,omitempty"`
	CreatedAt time.Time        `json:"createdAt,omitzero"`
	UpdatedAt time.Time        `json:"updatedAt,omitzero"`
	Errors    []MotionError    `json:"errors,omitempty"`
}

// MotionDocument is a file of a motion, stored in the debate database.
type MotionDocument struct {
	Path    string `json:"path"`
	DocID   string `json:"docId"`
	Version int    `json:"version"`
}

// MotionArgument is one argument of a protocol debate. ParentID is empty
// only for the MOTION; Type, Role and StateAfter use the protocol's wire
// strings (e.g. "CLAIM", "opponent", "AWAITING_PROPOSER"). Reasoning is what
// the model whose answer became the argument gave as its reasoning; it is
// empty for an argument no model wrote (the MOTION, a person's ruling, the
// closing ruling after a resolution, an appeal made on the proposer's
// behalf).
type MotionArgument struct {
	ID         string    `json:"id"`
	Seq        int       `json:"seq"`
	Type       string    `json:"type"`
	Role       string    `json:"role"`
	ParentID   string    `json:"parentId,omitempty"`
	Content    string    `json:"content"`
	Reasoning  string    `json:"reasoning,omitempty"`
	StateAfter string    `json:"stateAfter"`
	Time       time.Time `json:"time"`
}

// MotionError records a failure while a motion was played: which role, at
// which turn.
type MotionError struct {
	Role    string `json:"role"`
	Turn    int    `json:"turn"`
	Message string `json:"message"`
	// Because is Message as codes, which the reports say.
	Because []Reason `json:"because,omitempty"`
	// Raw is the model's last answer when it could not be used.
	Raw string `json:"raw,omitempty"`
}
