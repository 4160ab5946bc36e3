package protocol

import (
	"errors"
	"fmt"
	"strings"
)

// Step is what one role should do next in a debate: run Command, about
// Argument (the argument to answer, or the newest one to wait after), for the
// reason Why. Also lists other commands the role may run instead.
type Step struct {
	Role     Role
	Argument Argument
	Do       string // "answer", "align to", "rule on", "wait after", "read"
	Command  string
	Also     []string
	Why      string
}

// String is the step as one sentence an agent can follow: what to do, the
// command in backquotes, and why.
func (s Step) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: `%s`", s.Do, Describe(s.Argument), s.Command)
	for i, c := range s.Also {
		if i == 0 {
			b.WriteString(" (or ")
		} else {
			b.WriteString(", or ")
		}
		fmt.Fprintf(&b, "`%s`", c)
		if i == len(s.Also)-1 {
			b.WriteString(")")
		}
	}
	if s.Why != "" {
		b.WriteString(" — " + s.Why)
	}
	return b.String()
}

// Describe names an argument as a refusal or a guide speaks of it:
// "#5, the proposer's CLAIM (id …)".
func Describe(a Argument) string {
	if a.ID == "" {
		return "the debate"
	}
	return fmt.Sprintf("#%d, the %s's %s (id %s)", a.Seq, a.Role, a.Type, a.ID)
}

// Content is the placeholder for an argument's text in the commands a Step
// shows.
const Content = `--content "…"`

// NextStep returns what role should do next in debate d, whose newest
// argument is newest. Whoever's turn it is answers the newest argument (the
// one a write must target so that the debate does not branch); the others
// wait after it; on a CLOSED debate everyone can only read.
func NextStep(d Debate, newest Argument, role Role) Step {
	s := Step{Role: role, Argument: newest}
	wait := fmt.Sprintf("debate wait --debate-id %s --role %s --argument-id %s", d.ID, role, newest.ID)
	if d.State == Closed {
		s.Do, s.Command = "read", "debate get-context --debate-id "+d.ID
		s.Why = "the debate is closed: nothing more can be submitted"
		return s
	}
	switch {
	case role == Arbitrator && (d.State == AwaitingArbitrator || d.State == InterventionPending):
		s.Do = "rule on"
		s.Command = fmt.Sprintf("debate ruling --debate-id %s %s", d.ID, Content)
		s.Why = "the debate awaits your RULING; add --close to close the debate with it"
	case role == Arbitrator:
		s.Do, s.Command = "wait after", wait
		s.Also = []string{fmt.Sprintf("debate intervention --debate-id %s %s", d.ID, Content)}
		s.Why = "no RULING is due: " + awaits(d.State) + "; an INTERVENTION stops the floor"
	case role == Opponent && d.State == AwaitingOpponent:
		s.Do = "answer"
		s.Command = submitCommand(d.ID, role, newest.ID)
		s.Why = "the debate awaits your CLAIM, and it must answer the newest argument"
	case role == Proposer && d.State == AwaitingProposer:
		s.Do = "answer"
		if newest.Type == Ruling {
			s.Do = "align to"
		}
		s.Command = submitCommand(d.ID, role, newest.ID)
		s.Also = []string{
			fmt.Sprintf("debate appeal --debate-id %s --target-id %s %s", d.ID, newest.ID, Content),
			fmt.Sprintf("debate request-completion --debate-id %s --target-id %s %s", d.ID, newest.ID, Content),
		}
		s.Why = "the debate awaits your reply to the newest argument: a CLAIM, an APPEAL for a ruling, or a RESOLUTION to finish"
	default:
		s.Do, s.Command = "wait after", wait
		s.Why = awaits(d.State)
	}
	return s
}

func submitCommand(debateID string, role Role, target string) string {
	return fmt.Sprintf("debate submit --debate-id %s --role %s --target-id %s %s", debateID, role, target, Content)
}

// awaits says whom a debate in state s waits for.
func awaits(s State) string {
	switch s {
	case AwaitingOpponent:
		return "the debate awaits the opponent's CLAIM"
	case AwaitingProposer:
		return "the debate awaits the proposer's reply (CLAIM, APPEAL or RESOLUTION)"
	case AwaitingArbitrator:
		return "the debate awaits the arbitrator's RULING"
	case InterventionPending:
		return "the debate awaits the arbitrator's RULING on the INTERVENTION"
	}
	return "the debate is closed"
}

// Advise completes a refusal of w with the next step, computed from the
// debate d as it is now and its newest argument: the suggestion of an
// ACTION_NOT_ALLOWED refusal (a transition or the arbitrator's word bypassed)
// or of a target outside the debate then names the argument w's role must
// answer, the command and why. APPEAL and RESOLUTION are written as the
// proposer whoever runs them, so their refusal also speaks to an opponent,
// who never appeals. Other errors come back unchanged.
func Advise(err error, w Write, d Debate, newest Argument) error {
	var pe *Error
	if !errors.As(err, &pe) || d.ID == "" || newest.ID == "" {
		return err
	}
	switch pe.kind {
	case kindRefused:
		pe.Suggestion = NextStep(d, newest, w.Role).String()
		if (w.Type == Appeal || w.Type == Resolution) && w.Role == Proposer && d.State != Closed {
			pe.Suggestion = "if you are the opponent, who never appeals or requests completion: " +
				NextStep(d, newest, Opponent).String() + "; if you are the proposer: " + pe.Suggestion
		}
	case kindBypass:
		pe.Suggestion = fmt.Sprintf("read %s first with `debate get-context --debate-id %s`, then %s",
			Describe(*pe.lastWord), d.ID, NextStep(d, newest, w.Role))
	case kindTarget:
		pe.Suggestion = "target_id must be an argument of this debate: " + NextStep(d, newest, w.Role).String()
	}
	return err
}

// TargetNotInDebate refuses a write whose target is not an argument of its
// debate (INVALID_INPUT); Advise gives it the next step.
func TargetNotInDebate(targetID, debateID string) *Error {
	e := Errorf(CodeInvalidInput, "target_id %s does not belong to debate %s", targetID, debateID).
		WithSuggestion("target_id must be the id of an argument of this debate (debate get-context --debate-id " + debateID + ")")
	e.kind = kindTarget
	return e
}

// ArgumentNotInDebate refuses a wait after argumentID, which is not an
// argument of debate d (INVALID_INPUT). Its suggestion names d's newest
// argument, where get-context lists them all, and what role should do
// next.
func ArgumentNotInDebate(argumentID string, d Debate, newest Argument, role Role) *Error {
	e := Errorf(CodeInvalidInput, "argument_id %s does not belong to debate %s", argumentID, d.ID)
	if newest.ID == "" {
		return e.WithSuggestion("pass no argument_id to get the newest argument of this debate")
	}
	return e.WithSuggestion(fmt.Sprintf("`debate get-context --debate-id %s` lists this debate's arguments; the newest is the one to use: %s",
		d.ID, NextStep(d, newest, role)))
}
