package protocol

import (
	"errors"
	"strings"
	"testing"
)

// TestAdviseEveryRefusal refuses every write the state machine refuses, in
// every state, for every role, and checks that the suggestion names what that
// role must do next in this debate: the command with the newest argument as
// its target or its --argument-id, the ruling, or reading a closed debate.
// The expected commands are written out here, independently of NextStep.
func TestAdviseEveryRefusal(t *testing.T) {
	t.Parallel()
	const d = "d1"
	newest := func(seq int, typ ArgType, by Role) Argument {
		return Argument{ID: "a" + string(rune('0'+seq)), DebateID: d, Seq: seq, Type: typ, Role: by}
	}
	submit := func(role, target string) string {
		return "debate submit --debate-id d1 --role " + role + " --target-id " + target
	}
	wait := func(role, after string) string {
		return "debate wait --debate-id d1 --role " + role + " --argument-id " + after
	}
	tests := []struct {
		name   string
		state  State
		newest Argument
		want   map[Role]string // the command each role is told to run
	}{
		{"after the motion", AwaitingOpponent, newest(1, Motion, Proposer), map[Role]string{
			Opponent: submit("opponent", "a1"), Proposer: wait("proposer", "a1"), Arbitrator: wait("arbitrator", "a1")}},
		{"after the proposer's claim that follows a ruling", AwaitingOpponent, newest(5, Claim, Proposer), map[Role]string{
			Opponent: submit("opponent", "a5"), Proposer: wait("proposer", "a5"), Arbitrator: wait("arbitrator", "a5")}},
		{"after the opponent's claim", AwaitingProposer, newest(2, Claim, Opponent), map[Role]string{
			Proposer: submit("proposer", "a2"), Opponent: wait("opponent", "a2"), Arbitrator: wait("arbitrator", "a2")}},
		{"after a ruling", AwaitingProposer, newest(4, Ruling, Arbitrator), map[Role]string{
			Proposer: submit("proposer", "a4"), Opponent: wait("opponent", "a4"), Arbitrator: wait("arbitrator", "a4")}},
		{"after an appeal", AwaitingArbitrator, newest(3, Appeal, Proposer), map[Role]string{
			Arbitrator: "debate ruling --debate-id d1", Proposer: wait("proposer", "a3"), Opponent: wait("opponent", "a3")}},
		{"after an intervention", InterventionPending, newest(3, Intervention, Arbitrator), map[Role]string{
			Arbitrator: "debate ruling --debate-id d1", Proposer: wait("proposer", "a3"), Opponent: wait("opponent", "a3")}},
		{"closed", Closed, newest(6, Ruling, Arbitrator), map[Role]string{
			Arbitrator: "debate get-context --debate-id d1", Proposer: "debate get-context --debate-id d1", Opponent: "debate get-context --debate-id d1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			debate := Debate{ID: d, State: tt.state}
			for _, role := range Roles {
				if step := NextStep(debate, tt.newest, role); step.Argument.ID != tt.newest.ID || !strings.HasPrefix(step.Command, tt.want[role]) {
					t.Errorf("NextStep for the %s: %q about %s, want %q about %s", role, step.Command, step.Argument.ID, tt.want[role], tt.newest.ID)
				}
				for _, typ := range ArgTypes[1:] {
					_, err := Transition(tt.state, typ, role, false)
					if err == nil {
						continue
					}
					w := Write{DebateID: d, Type: typ, Role: role}
					var pe *Error
					if !errors.As(Advise(err, w, debate, tt.newest), &pe) || pe.Code != CodeActionNotAllowed {
						t.Fatalf("%s by the %s: %v, want ACTION_NOT_ALLOWED", typ, role, err)
					}
					if !strings.Contains(pe.Suggestion, tt.want[role]) {
						t.Errorf("%s by the %s: suggestion %q lacks %q", typ, role, pe.Suggestion, tt.want[role])
					}
					partyOnly := (typ == Appeal || typ == Resolution) && role == Proposer && tt.state != Closed
					if !partyOnly {
						continue
					}
					// debate appeal and request-completion write as the
					// proposer whoever runs them: the opponent is told
					// first what it must do instead.
					if i := strings.Index(pe.Suggestion, tt.want[Opponent]); i < 0 || i > strings.Index(pe.Suggestion, "if you are the proposer") {
						t.Errorf("%s refused: suggestion %q does not first tell the opponent %q", typ, pe.Suggestion, tt.want[Opponent])
					}
					if !strings.Contains(pe.Message, "an opponent never submits "+string(typ)) {
						t.Errorf("%s refused: message %q does not speak to an opponent", typ, pe.Message)
					}
				}
			}
		})
	}
}

func TestRefusalMessages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		from State
		typ  ArgType
		by   Role
		want string
	}{
		{AwaitingOpponent, Appeal, Opponent, "the opponent never submits APPEAL: only the proposer does"},
		{AwaitingOpponent, Claim, Arbitrator, "the arbitrator never submits CLAIM: only the opponent and the proposer do"},
		{AwaitingOpponent, Appeal, Proposer, "now (AWAITING_OPPONENT) the debate awaits the opponent's CLAIM (an opponent never submits APPEAL)"},
		{AwaitingOpponent, Claim, Proposer, "the proposer cannot submit CLAIM in state AWAITING_OPPONENT: the debate awaits the opponent's CLAIM"},
		{AwaitingArbitrator, Claim, Opponent, "the debate awaits the arbitrator's RULING"},
		{Closed, Claim, Opponent, "the debate is CLOSED"},
	}
	for _, tt := range tests {
		_, err := Transition(tt.from, tt.typ, tt.by, false)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s by the %s in %s: %v, want %q", tt.typ, tt.by, tt.from, err, tt.want)
		}
	}
}

func TestAdviseLeavesOtherErrors(t *testing.T) {
	t.Parallel()
	d := Debate{ID: "d1", State: AwaitingOpponent}
	newest := Argument{ID: "m", Seq: 1, Type: Motion, Role: Proposer}
	other := Errorf(CodeContentTooLarge, "too large").WithSuggestion("use a document")
	if err := Advise(other, Write{Role: Opponent}, d, newest); err != other || other.Suggestion != "use a document" {
		t.Errorf("Advise changed %v: %q", err, other.Suggestion)
	}
	target := TargetNotInDebate("x", "d1")
	_ = Advise(target, Write{Role: Opponent, Type: Claim}, d, newest)
	if want := "--target-id m"; !strings.Contains(target.Suggestion, want) {
		t.Errorf("target outside the debate: suggestion %q lacks %q", target.Suggestion, want)
	}
}
