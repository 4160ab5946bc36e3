package orchestrator

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// twoBranches is the scripted debate of the tree test: the root splits into
// d1 and d2; d1 converges in round 2; d2 splits again into d2.1 and d2.2, and
// in round 3 (the limit) d2.1 gets a forced verdict while d2.2 has nothing
// left disputed.
func twoBranches() map[string][]string {
	return map[string][]string{
		"root": {splitAnswer("Divergence "+mark("d1"), "Divergence "+mark("d2"))},
		"d1":   {agreeAnswer()},
		"d2":   {splitAnswer("Divergence "+mark("d2.1"), "Divergence "+mark("d2.2"))},
		"d2.1": {forcedAnswer("still disputed")},
		"d2.2": {forcedAnswer()},
	}
}

func TestRunTree(t *testing.T) {
	s := &script{judge: twoBranches(), words: 20, tokens: 10}
	rec := &recorder{}
	cfg := testConfig(3, "t1")
	cfg.Pricing = map[string]configs.Price{"model-a": {Input: 2, Output: 4}}
	e := english(cfg, completer(s.answer), promptSet(t), Options{Events: rec.add, Now: fixedClock})
	run, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Topics) != 1 {
		t.Fatalf("got %d topics, want 1", len(run.Topics))
	}
	top := run.Topics[0]
	root := top.Root

	want := []string{"root split", "d1 converged", "d2 split", "d2.1 forced", "d2.2 converged"}
	if got := shape(root); !slices.Equal(got, want) {
		t.Fatalf("tree shape:\n got %q\nwant %q", got, want)
	}
	if top.Status != tree.Forced {
		t.Errorf("topic status %s, want forced", top.Status)
	}

	// Every node: 3 positions, 3 rebuttals, 1 judge call.
	root.Walk(func(n *tree.Node) {
		calls := rec.count(tree.CallStarted, func(e tree.Event) bool { return e.Node == n.ID })
		if calls != 7 {
			t.Errorf("node %s: %d calls, want 7", n.ID, calls)
		}
		if len(n.Positions) != 3 || len(n.Rebuttals) != 3 || len(n.Models) != 4 {
			t.Errorf("node %s: %d positions, %d rebuttals, %d models; want 3, 3, 4", n.ID, len(n.Positions), len(n.Rebuttals), len(n.Models))
		}
		if n.StopReason == "" {
			t.Errorf("node %s has no stop reason", n.ID)
		}
		if n.Round != n.Depth+1 {
			t.Errorf("node %s: round %d at depth %d", n.ID, n.Round, n.Depth)
		}
		for i, c := range n.Children {
			if c.ID != tree.ChildID(n.ID, i) || c.Divergence == nil || c.Divergence.ID != c.ID || n.Judgment.Divergences[i].ID != c.ID {
				t.Errorf("child %d of %s: id %s, divergence %+v", i, n.ID, c.ID, c.Divergence)
			}
			if !strings.Contains(c.Title, mark(c.ID)) {
				t.Errorf("child %s has title %q", c.ID, c.Title)
			}
		}
	})
	if got := len(s.requests); got != 35 {
		t.Errorf("%d calls in all, want 35", got)
	}

	// The judge gets the forced-verdict prompt exactly in round 3.
	for id, want := range map[string]string{"root": "triage", "d1": "triage", "d2": "triage", "d2.1": "forced", "d2.2": "forced"} {
		if got := s.kindsAt(id); !slices.Equal(got, []string{want}) {
			t.Errorf("judge calls at %s: %v, want [%s]", id, got, want)
		}
	}

	d21 := root.Find("d2.1")
	if v := d21.Judgment.ForcedVerdicts; len(v) != 1 || v[0].DivergenceID != "d2.1.1" || d21.Judgment.Divergences[0].ID != "d2.1.1" {
		t.Errorf("forced verdicts at d2.1 not renumbered: %+v", d21.Judgment)
	}
	if want := "round limit 3 reached: verdicts forced"; d21.StopReason != want {
		t.Errorf("d2.1 stop reason %q, want %q", d21.StopReason, want)
	}
	if want := "all debaters agreed"; root.Find("d1").StopReason != want {
		t.Errorf("d1 stop reason %q, want %q", root.Find("d1").StopReason, want)
	}
	if got := len(root.Children[0].Children); got != 0 {
		t.Errorf("converged d1 has %d children", got)
	}

	// model-a: 10 calls of 10 + 10 tokens at 2 and 4 per million.
	// Cache-eligible tokens are counted for the run alone.
	runUsage := run.Usage
	runUsage.CacheEligiblePromptTokens = 0
	if top.Usage.Calls != 35 || top.Usage.PromptTokens != 350 || math.Abs(top.Usage.Cost-0.0006) > 1e-12 || runUsage != top.Usage {
		t.Errorf("usage: topic %+v, run %+v", top.Usage, run.Usage)
	}
	if e := run.Usage.CacheEligiblePromptTokens; e <= 0 || e > run.Usage.PromptTokens {
		t.Errorf("cache-eligible prompt tokens %d, want from 1 to the prompt tokens %d", e, run.Usage.PromptTokens)
	}
	if rec.count(tree.NodeStarted, nil) != 5 || rec.count(tree.NodeFinished, nil) != 5 ||
		rec.count(tree.TopicStarted, nil) != 1 || rec.count(tree.TopicFinished, nil) != 1 ||
		rec.count(tree.CallFinished, nil) != 35 {
		t.Errorf("events: %d node started, %d node finished, %d calls finished",
			rec.count(tree.NodeStarted, nil), rec.count(tree.NodeFinished, nil), rec.count(tree.CallFinished, nil))
	}
	if run.MaxRounds != 3 || len(run.Debaters) != 3 || run.Judge.ID != "judge" || run.StartedAt.IsZero() || run.FinishedAt.IsZero() {
		t.Errorf("run header: %+v", run)
	}
}

// TestPositionPrompts checks the three kinds of position prompt: the root's,
// and a child's for a debater on a side and for one that took none.
func TestPositionPrompts(t *testing.T) {
	s := &script{judge: map[string][]string{
		"root": {splitAnswer("Divergence " + mark("d1"))},
	}, words: 5}
	e := english(testConfig(2, "t1"), completer(s.answer), promptSet(t), Options{})
	if _, err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	positions := map[string]string{}
	for _, r := range s.requests {
		if r.Participant != "judge" && r.Origin.Step == string(tree.StepPosition) && nodeOf(r) == "d1" {
			positions[r.Participant] = r.Messages[0].Content + "\n" + r.Messages[len(r.Messages)-1].Content
		}
	}
	for _, tc := range []struct {
		party   string
		want    []string
		notWant []string
	}{
		{party: "party-a", want: []string{"party-a at root", "you are one of its sides", "claim of B on"}},
		{party: "party-b", want: []string{"party-b at root", "you are one of its sides"}},
		{party: "party-c", want: []string{"party-c at root", "took no clear position"}, notWant: []string{"party-a at root"}},
	} {
		got, ok := positions[tc.party]
		if !ok {
			t.Errorf("%s: no position call at d1", tc.party)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s position prompt lacks %q:\n%s", tc.party, w, got)
			}
		}
		for _, w := range tc.notWant {
			if strings.Contains(got, w) {
				t.Errorf("%s position prompt holds %q", tc.party, w)
			}
		}
	}
}

// TestNoDebaterAnswers: a node where no debater answers fails; the rest of
// the run goes on.
func TestNoDebaterAnswers(t *testing.T) {
	s := &script{judge: map[string][]string{
		"root": {splitAnswer("Divergence "+mark("d1"), "Divergence "+mark("d2"))},
	}, words: 5}
	s.fail = func(r providers.Request) error {
		if r.Participant != "judge" && nodeOf(r) == "d1" {
			return unavailable
		}
		return nil
	}
	e := english(testConfig(3, "t1"), completer(s.answer), promptSet(t), Options{})
	run, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	root := run.Topics[0].Root
	if got, want := shape(root), []string{"root split", "d1 failed", "d2 converged"}; !slices.Equal(got, want) {
		t.Fatalf("shape %q, want %q", got, want)
	}
	d1 := root.Find("d1")
	if len(d1.Errors) != 3 || d1.Errors[0].Participant != "party-a" || d1.Errors[2].Participant != "party-c" || d1.Errors[0].Step != tree.StepPosition {
		t.Errorf("d1 errors %+v", d1.Errors)
	}
	if d1.StopReason != "no debater answered the position step" {
		t.Errorf("d1 stop reason %q", d1.StopReason)
	}
	if run.Topics[0].Status != tree.Failed {
		t.Errorf("topic status %s, want failed", run.Topics[0].Status)
	}
}
