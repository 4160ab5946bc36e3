package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
)

// wantTable is the protocol's transition table as docs/PROTOCOL.md states
// it, transcribed independently of the rules in machine.go:
// "from|type|role|close" → to. Rows without a close variant hold for both
// values of close.
var wantTable = map[string]State{}

func init() {
	add := func(from State, typ ArgType, by Role, to State) {
		for _, c := range []bool{false, true} {
			wantTable[key(from, typ, by, c)] = to
		}
	}
	add(None, Motion, Proposer, AwaitingOpponent)
	add(AwaitingOpponent, Claim, Opponent, AwaitingProposer)
	add(AwaitingOpponent, Intervention, Arbitrator, InterventionPending)
	add(AwaitingProposer, Claim, Proposer, AwaitingOpponent)
	add(AwaitingProposer, Appeal, Proposer, AwaitingArbitrator)
	add(AwaitingProposer, Resolution, Proposer, AwaitingArbitrator)
	add(AwaitingProposer, Intervention, Arbitrator, InterventionPending)
	wantTable[key(AwaitingArbitrator, Ruling, Arbitrator, false)] = AwaitingProposer
	wantTable[key(AwaitingArbitrator, Ruling, Arbitrator, true)] = Closed
	wantTable[key(InterventionPending, Ruling, Arbitrator, false)] = AwaitingProposer
	wantTable[key(InterventionPending, Ruling, Arbitrator, true)] = Closed
}

func key(from State, typ ArgType, by Role, c bool) string {
	return fmt.Sprintf("%s|%s|%s|%t", from, typ, by, c)
}

func TestTransitionEveryCombination(t *testing.T) {
	allStates := append([]State{None}, States...)
	succeeded := 0
	for _, from := range allStates {
		for _, typ := range ArgTypes {
			for _, by := range Roles {
				for _, c := range []bool{false, true} {
					k := key(from, typ, by, c)
					want, allowed := wantTable[k]
					got, err := Transition(from, typ, by, c)
					if allowed {
						succeeded++
						if err != nil || got != want {
							t.Errorf("%s: got (%q, %v), want %q", k, got, err, want)
						}
						continue
					}
					var pe *Error
					if !errors.As(err, &pe) || pe.Code != CodeActionNotAllowed {
						t.Errorf("%s: got (%q, %v), want ACTION_NOT_ALLOWED", k, got, err)
						continue
					}
					if pe.CurrentState != from || pe.Suggestion == "" || pe.Message == "" {
						t.Errorf("%s: refusal lacks context: %+v", k, pe)
					}
				}
			}
		}
	}
	if succeeded != len(wantTable) {
		t.Errorf("%d combinations succeeded, the table lists %d", succeeded, len(wantTable))
	}
}

func TestCloseOnlyForBooleanTrue(t *testing.T) {
	tests := []struct {
		raw  string
		want bool
	}{
		{`true`, true},
		{" true\n", true},
		{`"true"`, false},
		{`"TRUE"`, false},
		{`1`, false},
		{`"1"`, false},
		{`null`, false},
		{`false`, false},
		{``, false},
		{`{"close":true}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			if got := CloseFlag(json.RawMessage(tt.raw)); got != tt.want {
				t.Fatalf("CloseFlag(%s) = %v, want %v", tt.raw, got, tt.want)
			}
			for _, from := range []State{AwaitingArbitrator, InterventionPending} {
				got, err := Transition(from, Ruling, Arbitrator, CloseFlag(json.RawMessage(tt.raw)))
				want := AwaitingProposer
				if tt.want {
					want = Closed
				}
				if err != nil || got != want {
					t.Errorf("ruling with close %s from %s: got (%q, %v), want %q", tt.raw, from, got, err, want)
				}
			}
		})
	}
	// The flag decoded from a whole body, as a server would.
	var body struct {
		Close json.RawMessage `json:"close"`
	}
	if err := json.Unmarshal([]byte(`{"content":"x","close":"true"}`), &body); err != nil {
		t.Fatal(err)
	}
	if CloseFlag(body.Close) {
		t.Error(`"close":"true" closes`)
	}
}

func TestTransitionRejectsUnknownValues(t *testing.T) {
	tests := []struct {
		name string
		from State
		typ  ArgType
		by   Role
	}{
		{"state", "OPEN", Claim, Opponent},
		{"type", AwaitingOpponent, "REBUTTAL", Opponent},
		{"role", AwaitingOpponent, Claim, "judge"},
		{"lower-case type", AwaitingOpponent, "claim", Opponent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Transition(tt.from, tt.typ, tt.by, false)
			if CodeOf(err) != CodeInvalidInput {
				t.Fatalf("got %v (%s), want INVALID_INPUT", err, CodeOf(err))
			}
		})
	}
}

func TestRefusalContext(t *testing.T) {
	tests := []struct {
		from  State
		typ   ArgType
		by    Role
		roles []Role
	}{
		{AwaitingProposer, Claim, Opponent, []Role{Proposer}},
		{AwaitingOpponent, Claim, Proposer, []Role{Opponent}},
		{AwaitingOpponent, Appeal, Proposer, nil},
		{AwaitingArbitrator, Claim, Proposer, nil},
		{AwaitingProposer, Ruling, Arbitrator, nil},
		{InterventionPending, Ruling, Proposer, []Role{Arbitrator}},
		{Closed, Ruling, Arbitrator, nil},
		{AwaitingOpponent, Motion, Proposer, nil},
	}
	for _, tt := range tests {
		t.Run(key(tt.from, tt.typ, tt.by, false), func(t *testing.T) {
			_, err := Transition(tt.from, tt.typ, tt.by, false)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want *Error", err)
			}
			if !slices.Equal(pe.AllowedRoles, tt.roles) {
				t.Errorf("allowed roles %v, want %v", pe.AllowedRoles, tt.roles)
			}
			if pe.CurrentState != tt.from {
				t.Errorf("current state %q, want %q", pe.CurrentState, tt.from)
			}
		})
	}
}

func TestAvailableActions(t *testing.T) {
	// The seed's allowed-actions matrix.
	want := map[State]map[Role][]ArgType{
		AwaitingOpponent:    {Opponent: {Claim}, Arbitrator: {Intervention}},
		AwaitingProposer:    {Proposer: {Claim, Appeal, Resolution}, Arbitrator: {Intervention}},
		AwaitingArbitrator:  {Arbitrator: {Ruling}},
		InterventionPending: {Arbitrator: {Ruling}},
		Closed:              {},
	}
	for _, s := range append([]State{None}, States...) {
		for _, r := range Roles {
			got := AvailableActions(s, r)
			if !slices.Equal(got, want[s][r]) {
				t.Errorf("AvailableActions(%q, %s) = %v, want %v", s, r, got, want[s][r])
			}
			// Consistency with Transition: each listed type is accepted.
			for _, typ := range got {
				if _, err := Transition(s, typ, r, false); err != nil {
					t.Errorf("listed %s for %s in %s but Transition refuses: %v", typ, r, s, err)
				}
			}
		}
	}
}

func TestWaitAction(t *testing.T) {
	arg := func(typ ArgType, by Role) Argument { return Argument{Type: typ, Role: by} }
	tests := []struct {
		name     string
		newest   Argument
		state    State
		proposer Action
		opponent Action
	}{
		{"opponent's claim", arg(Claim, Opponent), AwaitingProposer, Respond, Respond},
		{"proposer's claim", arg(Claim, Proposer), AwaitingOpponent, Respond, Respond},
		{"appeal", arg(Appeal, Proposer), AwaitingArbitrator, WaitForRuling, WaitForRuling},
		{"resolution", arg(Resolution, Proposer), AwaitingArbitrator, WaitForRuling, WaitForRuling},
		{"intervention", arg(Intervention, Arbitrator), InterventionPending, WaitForRuling, WaitForRuling},
		{"ruling", arg(Ruling, Arbitrator), AwaitingProposer, AlignToRuling, WaitForProposer},
		{"closing ruling", arg(Ruling, Arbitrator), Closed, DebateClosed, DebateClosed},
		{"claim on closed", arg(Claim, Opponent), Closed, DebateClosed, DebateClosed},
		{"motion", arg(Motion, Proposer), AwaitingOpponent, Respond, Respond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := WaitAction(tt.newest, tt.state, Proposer); got != tt.proposer {
				t.Errorf("proposer gets %q, want %q", got, tt.proposer)
			}
			if got := WaitAction(tt.newest, tt.state, Opponent); got != tt.opponent {
				t.Errorf("opponent gets %q, want %q", got, tt.opponent)
			}
		})
	}
	arbitrator := map[State]Action{
		AwaitingOpponent: WaitForOpponent, AwaitingProposer: WaitForProposer,
		AwaitingArbitrator: Respond, InterventionPending: Respond, Closed: DebateClosed,
	}
	for s, want := range arbitrator {
		if got := WaitAction(arg(Claim, Opponent), s, Arbitrator); got != want {
			t.Errorf("arbitrator in %s gets %q, want %q", s, got, want)
		}
	}
}

func TestParse(t *testing.T) {
	if r, err := ParseRole("opponent"); err != nil || r != Opponent {
		t.Errorf("ParseRole(opponent) = %q, %v", r, err)
	}
	if s, err := ParseState("CLOSED"); err != nil || s != Closed {
		t.Errorf("ParseState(CLOSED) = %q, %v", s, err)
	}
	if d, err := ParseDebateType("coding_plan_debate"); err != nil || d != CodingPlanDebate {
		t.Errorf("ParseDebateType = %q, %v", d, err)
	}
	for _, bad := range []func() error{
		func() error { _, err := ParseRole("Opponent"); return err },
		func() error { _, err := ParseState(""); return err },
		func() error { _, err := ParseArgType("VOTE"); return err },
		func() error { _, err := ParseDebateType("debate"); return err },
	} {
		err := bad()
		var pe *Error
		if !errors.As(err, &pe) || pe.Code != CodeInvalidInput || pe.Suggestion == "" {
			t.Errorf("got %v, want INVALID_INPUT with a suggestion", err)
		}
	}
}

func TestCodeOf(t *testing.T) {
	wrapped := fmt.Errorf("submit: %w", Errorf(CodeDebateNotFound, "debate %q not found", "x"))
	tests := []struct {
		err  error
		want Code
	}{
		{nil, ""},
		{errors.New("disk full"), CodeInternal},
		{wrapped, CodeDebateNotFound},
	}
	for _, tt := range tests {
		if got := CodeOf(tt.err); got != tt.want {
			t.Errorf("CodeOf(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
