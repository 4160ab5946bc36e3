package tree

import "fmt"

// Reason says why something happened in a run — a node or a motion
// stopped, a call failed, a participant fell back, a vote was dropped — as
// a code and its arguments. Each report language says a reason from its
// code, so that rewording one language's sentence changes no other and no
// reader parses the words of another. A reason of several parts is a list,
// said in order.
type Reason struct {
	Code ReasonCode `json:"code"`
	Args []string   `json:"args,omitempty"`
}

// ReasonCode names a kind of reason. The comment of each code lists its
// arguments in order.
type ReasonCode string

// Why a node stopped.
const (
	AllAgreed          ReasonCode = "all-agreed"           // none
	NoDivergenceAmong  ReasonCode = "no-divergence-among"  // none: the debaters present agree
	MissingDebaters    ReasonCode = "missing"              // names of the debaters missing
	PositionsOnlyAll   ReasonCode = "positions-only-all"   // none
	PositionsOnlySome  ReasonCode = "positions-only-some"  // debaters who answered, debaters
	RoundLimit         ReasonCode = "round-limit"          // the round limit
	TokenBudget        ReasonCode = "token-budget"         // budget.maxTokens
	CostBudget         ReasonCode = "cost-budget"          // budget.maxCost
	VerdictsMissing    ReasonCode = "verdicts-missing"     // count of verdicts missing after repair
	SplitInto          ReasonCode = "split"                // count of divergences, each a child debate
	SplitOverLimit     ReasonCode = "split-over-limit"     // divergences, split, beyond the limit, params.maxDivergences
	NoPositions        ReasonCode = "no-positions"         // none
	NoRebuttals        ReasonCode = "no-rebuttals"         // none
	NoStatus           ReasonCode = "no-status"            // none
	NoJudgeOfPanel     ReasonCode = "no-judge-of-panel"    // none; the last judge's failure follows
	InterruptedByUser  ReasonCode = "interrupted"          // none
	DeadlineExceeded   ReasonCode = "deadline"             // none
	Panicked           ReasonCode = "panic"                // the panic's value
	NoAnswer           ReasonCode = "no-answer"            // none
	CutIncomplete      ReasonCode = "cut-incomplete"       // params.maxTokensPerResponse
	InvalidAfterRepair ReasonCode = "invalid-after-repair" // none; the problem follows
)

// Why a call failed or a participant fell back.
const (
	// CallFailure is a failed call: the class of its failure (a provider
	// failure class's code, such as "key-refused"), and the failure in
	// the words of the client that saw it.
	CallFailure ReasonCode = "call-failed"
	// Unusable is a model that cannot answer at all: its failure class,
	// and the HTTP status ("" without one).
	Unusable ReasonCode = "unusable"
	// AttemptsFailed is a participant that failed too often in a row: the
	// count, and the last failure (its HTTP status, or without one its
	// class's code).
	AttemptsFailed ReasonCode = "attempts-failed"
)

// Why a vote was dropped, recused or unstable.
const (
	NoVerdictHere    ReasonCode = "no-verdict-here"    // none
	OrderCheckFailed ReasonCode = "order-check-failed" // none; the failure follows
	OrderCheckNone   ReasonCode = "order-check-none"   // none
	FavouredThen     ReasonCode = "favoured-then"      // favoured first, favoured with the sides reversed
	RecusedFor       ReasonCode = "recused"            // the debater, its model, the judge's model
)

// How a motion ended, or failed at a turn.
const (
	ProposerResolved  ReasonCode = "proposer-resolved" // the RESOLUTION's seq
	RulingClosed      ReasonCode = "ruling-closed"     // the ruling's seq
	ArbitratorClosed  ReasonCode = "arbitrator-closed" // the ruling's seq
	ClosedAtTurnLimit ReasonCode = "closed-at-limit"   // the ruling's seq, the turn limit
	TurnFailure       ReasonCode = "turn-failed"       // role, turn; the failure follows
)

// Why a quote is unverified: the codes of package quote (quote/reason.go
// lists them with their arguments), recorded on a Quote as they are.

// Text is a reason the program has no code for (a database's error, a
// check's message): its one argument is said as it is in every language.
const Text ReasonCode = "text"

// Because returns the reason code with args, each written as fmt.Sprint
// writes it.
func Because(code ReasonCode, args ...any) Reason {
	r := Reason{Code: code}
	for _, a := range args {
		r.Args = append(r.Args, fmt.Sprint(a))
	}
	return r
}

// Arg returns argument i, "" when the reason has fewer.
func (r Reason) Arg(i int) string {
	if i < len(r.Args) {
		return r.Args[i]
	}
	return ""
}
