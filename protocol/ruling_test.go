package protocol

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestCheckTarget(t *testing.T) {
	claim := Argument{ID: "c4", DebateID: "d1", Type: Claim, Role: Opponent, Seq: 4}
	intervention := Argument{ID: "i5", DebateID: "d1", Type: Intervention, Role: Arbitrator, Seq: 5}
	ruling := Argument{ID: "r6", DebateID: "d1", Type: Ruling, Role: Arbitrator, Seq: 6}
	later := Argument{ID: "c7", DebateID: "d1", Type: Claim, Role: Proposer, Seq: 7}
	tests := []struct {
		name     string
		by       Role
		typ      ArgType
		target   Argument
		lastWord Argument
		refused  bool
	}{
		{"arbitrator never spoke", Proposer, Appeal, claim, Argument{}, false},
		{"answers the ruling", Proposer, Claim, ruling, ruling, false},
		{"answers a newer argument", Opponent, Claim, later, ruling, false},
		{"skips the ruling", Proposer, Appeal, claim, ruling, true},
		{"skips the intervention", Opponent, Claim, claim, intervention, true},
		{"target older than ruling but by the arbitrator", Arbitrator, Ruling, claim, ruling, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckTarget(AwaitingProposer, tt.typ, tt.by, tt.target, tt.lastWord)
			if !tt.refused {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var pe *Error
			if !errors.As(err, &pe) || pe.Code != CodeActionNotAllowed {
				t.Fatalf("got %v, want ACTION_NOT_ALLOWED", err)
			}
			for _, want := range []string{string(tt.lastWord.Type), tt.lastWord.ID, tt.target.ID} {
				if !strings.Contains(pe.Message, want) {
					t.Errorf("message %q does not name %s", pe.Message, want)
				}
			}
			if want := "debate get-context --debate-id d1"; !strings.Contains(pe.Suggestion, want) {
				t.Errorf("suggestion %q lacks %q", pe.Suggestion, want)
			}
			// In the debate at hand, the suggestion names the arbitrator's
			// word to read and the newest argument to answer or wait after,
			// never the last word as a target: that would branch the debate.
			d := Debate{ID: "d1", State: AwaitingProposer}
			newest := Argument{ID: "c8", DebateID: "d1", Type: Claim, Role: Opponent, Seq: 8}
			_ = Advise(err, Write{DebateID: "d1", Type: tt.typ, Role: tt.by}, d, newest)
			for _, want := range []string{"debate get-context --debate-id d1", "#" + strconv.Itoa(tt.lastWord.Seq), NextStep(d, newest, tt.by).Command} {
				if !strings.Contains(pe.Suggestion, want) {
					t.Errorf("advised suggestion %q lacks %q", pe.Suggestion, want)
				}
			}
			if strings.Contains(pe.Suggestion, "--target-id "+tt.lastWord.ID) {
				t.Errorf("advised suggestion %q targets the last word, not the newest argument", pe.Suggestion)
			}
			if pe.CurrentState != AwaitingProposer || !slices.Equal(pe.AllowedRoles, allowedRoles(AwaitingProposer, tt.typ)) {
				t.Errorf("state %s, allowed roles %v", pe.CurrentState, pe.AllowedRoles)
			}
		})
	}
}
