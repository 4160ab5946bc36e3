package orchestrator

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// TestFallback: a participant whose primary model always fails is tried
// exactly maxConsecutiveFailures times in a topic, then only its fallback is
// used for the rest of that topic; every topic starts on the primary again.
func TestFallback(t *testing.T) {
	for _, tc := range []struct {
		name, participant, primary, fallback string
		// nodes where the primary failed without being retried at once on
		// the fallback (a debater is then left out of the step)
		leftOut []string
	}{
		{name: "debater", participant: "party-c", primary: "model-c", fallback: "model-c2", leftOut: []string{"root"}},
		{name: "judge", participant: "judge", primary: "model-j", fallback: "model-j2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &script{judge: map[string][]string{
				"root": {splitAnswer("Divergence "+mark("d1"), "Divergence "+mark("d2"))},
			}, words: 5}
			s.fail = func(_, model string, _ []providers.Message) error {
				if model == tc.primary {
					return errors.New("status 503: service unavailable")
				}
				return nil
			}
			cfg := testConfig(2, "t1", "t2")
			if tc.participant == "judge" {
				cfg.Reviewer.Fallback = tc.fallback
			} else {
				cfg.Debaters[2].Fallback = tc.fallback
			}
			rec := &recorder{}
			run, err := New(cfg, completer(s.answer), promptSet(t), Options{Events: rec.add}).Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, top := range run.Topics {
				calls := func(model string) int {
					return rec.count(tree.CallStarted, func(e tree.Event) bool { return e.Topic == top.ID && e.Model == model })
				}
				if got := calls(tc.primary); got != cfg.Fallback.MaxConsecutiveFailures {
					t.Errorf("%s: primary tried %d times, want %d", top.ID, got, cfg.Fallback.MaxConsecutiveFailures)
				}
				if got, want := shape(top.Root), []string{"root split", "d1 converged", "d2 converged"}; !slices.Equal(got, want) {
					t.Errorf("%s: shape %q, want %q", top.ID, got, want)
				}
				if len(top.Fallbacks) != 1 {
					t.Fatalf("%s: fallbacks %+v, want one", top.ID, top.Fallbacks)
				}
				fb := top.Fallbacks[0]
				if fb.Participant != tc.participant || fb.From != tc.primary || fb.To != tc.fallback ||
					(fb.Node != "d1" && fb.Node != "d2") || !strings.Contains(fb.Reason, "2 consecutive failures") {
					t.Errorf("%s: fallback %+v", top.ID, fb)
				}
				// After the switch, every node of the topic uses the fallback.
				for _, id := range []string{"d1", "d2"} {
					if got := top.Root.Find(id).Models[tc.participant]; got != tc.fallback {
						t.Errorf("%s/%s: %s answered with %q, want %q", top.ID, id, tc.participant, got, tc.fallback)
					}
				}
				for _, id := range tc.leftOut {
					n := top.Root.Find(id)
					if _, ok := n.Positions[tc.participant]; ok || len(n.Errors) != 1 || n.Errors[0].Participant != tc.participant || n.Errors[0].Step != tree.StepPosition {
						t.Errorf("%s/%s: positions %v, errors %+v; want %s left out", top.ID, id, keys(n.Positions), n.Errors, tc.participant)
					}
				}
				if top.Usage.Failures != cfg.Fallback.MaxConsecutiveFailures {
					t.Errorf("%s: %d failures counted", top.ID, top.Usage.Failures)
				}
			}
			if got := rec.count(tree.FellBack, nil); got != 2 {
				t.Errorf("%d fallback events, want 2", got)
			}
		})
	}
}

// TestFallbackNotConfigured: without a fallback model, a failing debater is
// left out of every step and the others carry on.
func TestFallbackNotConfigured(t *testing.T) {
	s := &script{words: 5}
	s.fail = func(participant, _ string, _ []providers.Message) error {
		if participant == "party-b" {
			return errors.New("status 503")
		}
		return nil
	}
	rec := &recorder{}
	run, err := New(testConfig(2, "t1"), completer(s.answer), promptSet(t), Options{Events: rec.add}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	root := run.Topics[0].Root
	if root.Status != tree.Converged || len(root.Positions) != 2 || len(root.Rebuttals) != 2 || len(root.Errors) != 1 {
		t.Errorf("root %s, positions %v, rebuttals %v, errors %+v", root.Status, keys(root.Positions), keys(root.Rebuttals), root.Errors)
	}
	if got := rec.count(tree.CallFailed, nil); got != 1 {
		t.Errorf("%d failed calls, want 1 (no rebuttal asked of a debater without a position)", got)
	}
	if len(run.Topics[0].Fallbacks) != 0 {
		t.Errorf("fallbacks %+v", run.Topics[0].Fallbacks)
	}
}

func keys(m map[string]string) []string { return sortedKeys(m) }
