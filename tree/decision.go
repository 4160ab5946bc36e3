package tree

import (
	"fmt"
	"slices"
	"strings"
)

// Outcome is what a topic decided, beside how its run went (its Status).
type Outcome string

// The outcomes of a topic.
const (
	// Agreed: nothing was left in dispute.
	Agreed Outcome = "agreed"
	// Decided: what stayed disputed was settled by forced verdicts, a
	// single judge's or a panel majority's.
	Decided Outcome = "decided"
	// Divided: a panel without a majority, or a verdict whose check came
	// out unstable. It reads "split" in run.json.
	Divided Outcome = "split"
	// Undecided: the topic reached no decision; its Cause says why.
	Undecided Outcome = "undecided"
)

// Outcomes lists every outcome in the order reports count them.
var Outcomes = []Outcome{Agreed, Decided, Divided, Undecided}

// ParseOutcomes reads a comma-separated list of outcomes ("split,undecided"),
// refusing an unknown word with the list of known ones.
func ParseOutcomes(list string) ([]Outcome, error) {
	var out []Outcome
	for w := range strings.SplitSeq(list, ",") {
		o := Outcome(strings.TrimSpace(w))
		if o == "" {
			continue
		}
		if !slices.Contains(Outcomes, o) {
			return nil, fmt.Errorf("%q is not a decision: want any of %s", o, KnownOutcomes())
		}
		if !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out, nil
}

// KnownOutcomes lists the outcomes for a message: "agreed, decided, split,
// undecided".
func KnownOutcomes() string {
	s := make([]string, len(Outcomes))
	for i, o := range Outcomes {
		s[i] = string(o)
	}
	return strings.Join(s, ", ")
}

// Cause says why a topic is Undecided.
type Cause string

// The causes of an undecided topic.
const (
	// CauseFailed: a node failed.
	CauseFailed Cause = "failed"
	// CauseInterrupted: the run was stopped before the topic ended.
	CauseInterrupted Cause = "interrupted"
	// CausePartial: a debater was missing from a step.
	CausePartial Cause = "partial"
	// CauseNoVerdict: the judge gave no verdict on a divergence, even
	// after repair.
	CauseNoVerdict Cause = "no-verdict"
	// CauseBudget: the run's budget forced verdicts before the round limit.
	CauseBudget Cause = "budget"
)

// VerdictCount counts a topic's verdicts by what became of them: Given
// (a recommendation, a panel majority included), Missing (the judge gave
// none), Split (a tied panel or an unstable check) and OverLimit (beyond
// params.maxDivergences, neither debated nor decided).
type VerdictCount struct {
	Given     int `json:"given"`
	Missing   int `json:"missing"`
	Split     int `json:"split,omitempty"`
	OverLimit int `json:"overLimit,omitempty"`
}

// Add returns the sum of c and d.
func (c VerdictCount) Add(d VerdictCount) VerdictCount {
	return VerdictCount{c.Given + d.Given, c.Missing + d.Missing, c.Split + d.Split, c.OverLimit + d.OverLimit}
}

// Given reports whether v settles its divergence: the judge gave it,
// within params.maxDivergences, and the votes neither tied nor changed
// with the order the sides were read in. CountVerdicts counts these as
// Given.
func (v Verdict) Given() bool {
	return !v.OverLimit && !v.Missing && !v.Split && !v.Unstable
}

// CountVerdicts counts the forced verdicts of the tree under n.
func (n *Node) CountVerdicts() VerdictCount {
	var c VerdictCount
	n.Walk(func(x *Node) {
		if x.Judgment == nil {
			return
		}
		for _, v := range x.Judgment.ForcedVerdicts {
			switch {
			case v.OverLimit:
				c.OverLimit++
			case v.Missing:
				c.Missing++
			case v.Split || v.Unstable:
				c.Split++
			default:
				c.Given++
			}
		}
	})
	return c
}

// Decide returns what the topic decided and, when Undecided, why: a failed,
// interrupted or partial topic first, by its status; then a verdict the
// judge did not give; then verdicts the budget forced; then a split or
// unstable verdict; then any verdict given; else the debaters agreed.
func (t *Topic) Decide() (Outcome, Cause) {
	switch t.Status {
	case Failed:
		return Undecided, CauseFailed
	case Interrupted, Pending:
		return Undecided, CauseInterrupted
	case Partial:
		return Undecided, CausePartial
	}
	if t.Root == nil {
		return Undecided, CauseInterrupted
	}
	c := t.Root.CountVerdicts()
	budget := false
	t.Root.Walk(func(x *Node) { budget = budget || x.Budget })
	switch {
	case c.Missing > 0:
		return Undecided, CauseNoVerdict
	case budget:
		return Undecided, CauseBudget
	case c.Split > 0:
		return Divided, ""
	case c.Given > 0 || c.OverLimit > 0:
		return Decided, ""
	}
	return Agreed, ""
}

// Settle sets the topic's Decision, Cause and Verdicts from its tree and
// status.
func (t *Topic) Settle() {
	t.Decision, t.Cause = t.Decide()
	t.Verdicts = t.Root.CountVerdicts()
}

// DecisionText is the decision in a word or two: "agreed", or "undecided
// (no-verdict)" with the cause.
func (t *Topic) DecisionText() string {
	if t.Cause != "" {
		return fmt.Sprintf("%s (%s)", t.Decision, t.Cause)
	}
	return string(t.Decision)
}

// Decisions counts the run's topics by outcome.
func (r *Run) Decisions() map[Outcome]int {
	out := map[Outcome]int{}
	for _, t := range r.Topics {
		out[t.Decision]++
	}
	return out
}
