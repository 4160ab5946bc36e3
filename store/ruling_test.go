package store

import (
	"context"
	"strings"
	"testing"

	"github.com/debatehq/debate/protocol"
)

// An INTERVENTION and a RULING land while the proposer composes its answer to
// a CLAIM: its write targeting the CLAIM is refused naming the RULING, and a
// wait from the argument it had seen before lists the CLAIM, the INTERVENTION
// and the RULING.
func TestRulingCannotBeBypassed(t *testing.T) { forBackends(t, testRulingCannotBeBypassed) }

func testRulingCannotBeBypassed(t *testing.T, db string) {
	ctx := context.Background()
	s := openAt(t, db, Options{})
	motion := mustCreate(t, s, "d")
	c2 := claim(t, s, "d", protocol.Opponent, motion.ID, "k2")
	c3 := claim(t, s, "d", protocol.Proposer, c2.ID, "k3")
	c4 := claim(t, s, "d", protocol.Opponent, c3.ID, "k4")

	// The proposer's wait from its own CLAIM hands it CLAIM #4 to answer.
	got, err := s.Wait(ctx, "d", protocol.Proposer, c3.ID, 0)
	if err != nil || got.Argument.ID != c4.ID || got.Action != protocol.Respond {
		t.Fatalf("wait before the ruling: %+v, %v", got, err)
	}
	iv, err := s.Submit(ctx, Write{DebateID: "d", Type: protocol.Intervention, Role: protocol.Arbitrator, Content: "hold on"})
	if err != nil {
		t.Fatal(err)
	}
	ruling, err := s.Submit(ctx, Write{DebateID: "d", Type: protocol.Ruling, Role: protocol.Arbitrator, Content: "add the cache warm-up to the plan"})
	if err != nil {
		t.Fatal(err)
	}

	writes := []struct {
		name string
		w    Write
	}{
		{"appeal", Write{Type: protocol.Appeal, Content: "which option?", ClientRequestID: "k7"}},
		{"claim", Write{Type: protocol.Claim, Content: "revised", ClientRequestID: "k8"}},
		{"resolution", Write{Type: protocol.Resolution, Content: "done", ClientRequestID: "k9"}},
	}
	for _, tt := range writes {
		t.Run("stale "+tt.name, func(t *testing.T) {
			w := tt.w
			w.DebateID, w.Role, w.TargetID = "d", protocol.Proposer, c4.ID
			_, err := s.Submit(ctx, w)
			pe := wantCode(t, err, protocol.CodeActionNotAllowed)
			if !strings.Contains(pe.Message, "RULING "+ruling.Argument.ID) || !strings.Contains(pe.Suggestion, "debate get-context --debate-id d") {
				t.Errorf("refusal does not name the ruling and how to read it: %q / %q", pe.Message, pe.Suggestion)
			}
			if pe.CurrentState != protocol.AwaitingProposer {
				t.Errorf("current state %s", pe.CurrentState)
			}
		})
	}
	if n := countArgs(t, s, "d"); n != 6 {
		t.Fatalf("refused writes stored: %d arguments, want 6", n)
	}

	got, err = s.Wait(ctx, "d", protocol.Proposer, c3.ID, waitLong)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, a := range got.Arguments {
		ids = append(ids, a.ID)
	}
	want := []string{c4.ID, iv.Argument.ID, ruling.Argument.ID}
	if strings.Join(ids, " ") != strings.Join(want, " ") || got.Argument.ID != ruling.Argument.ID || got.Action != protocol.AlignToRuling {
		t.Fatalf("wait from #3: arguments %v, newest %s, action %s; want %v, the ruling, align_to_ruling", ids, got.Argument.ID, got.Action, want)
	}

	// Answering the ruling, or something newer, is accepted.
	res, err := s.Submit(ctx, Write{DebateID: "d", Type: protocol.Claim, Role: protocol.Proposer, TargetID: ruling.Argument.ID, Content: "aligned", ClientRequestID: "k10"})
	if err != nil || res.Argument.Seq != 7 {
		t.Fatalf("claim answering the ruling: %+v, %v", res, err)
	}
	c8 := claim(t, s, "d", protocol.Opponent, res.Argument.ID, "k11")
	if _, err := s.Submit(ctx, Write{DebateID: "d", Type: protocol.Appeal, Role: protocol.Proposer, TargetID: res.Argument.ID, Content: "a", ClientRequestID: "k12"}); err != nil {
		t.Fatalf("appeal targeting an argument newer than the ruling (#7, newest #%d): %v", c8.Seq, err)
	}
}
