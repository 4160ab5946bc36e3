package orchestrator

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/tree"
)

// TestJudgeRepair: an answer without JSON is repaired with exactly one extra
// call; two bad answers in a row fail only that node unless the judge has a
// fallback model, which then gets the original prompt once.
func TestJudgeRepair(t *testing.T) {
	for _, tc := range []struct {
		name       string
		fallback   string
		wantShape  []string
		wantD1     []string // judge call kinds at d1
		wantModels string   // judge model recorded at d1
	}{
		{
			name:      "no fallback",
			wantShape: []string{"root split", "d1 failed", "d2 converged"},
			wantD1:    []string{"forced", "repair"},
		},
		{
			name:       "fallback",
			fallback:   "model-j2",
			wantShape:  []string{"root split", "d1 converged", "d2 converged"},
			wantD1:     []string{"forced", "repair", "forced"},
			wantModels: "model-j2",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &script{judge: map[string][]string{
				"root": {"They mostly agree, I would say.", splitAnswer("Divergence "+mark("d1"), "Divergence "+mark("d2"))},
				"d1":   {"No JSON here.", "Still none, sorry.", agreeAnswer()},
			}, words: 5}
			cfg := testConfig(2, "t1")
			cfg.Reviewer.Fallback = tc.fallback
			rec := &recorder{}
			run, err := New(cfg, completer(s.answer), promptSet(t), Options{Events: rec.add}).Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			root := run.Topics[0].Root
			if got := shape(root); !slices.Equal(got, tc.wantShape) {
				t.Fatalf("shape %q, want %q", got, tc.wantShape)
			}
			perNode := func(id string) int {
				return rec.count(tree.CallStarted, func(e tree.Event) bool { return e.Node == id })
			}
			if got := perNode("root"); got != 8 {
				t.Errorf("root: %d calls, want 7 + 1 repair", got)
			}
			if got := s.kindsAt("root"); !slices.Equal(got, []string{"triage", "repair"}) {
				t.Errorf("root judge calls %v", got)
			}
			if got := s.kindsAt("d1"); !slices.Equal(got, tc.wantD1) {
				t.Errorf("d1 judge calls %v, want %v", got, tc.wantD1)
			}
			if got, want := perNode("d1"), 6+len(tc.wantD1); got != want {
				t.Errorf("d1: %d calls, want %d", got, want)
			}
			d1 := root.Find("d1")
			if tc.fallback == "" {
				if d1.RawJudgment != "Still none, sorry." || d1.Judgment != nil {
					t.Errorf("d1 raw %q, judgment %+v", d1.RawJudgment, d1.Judgment)
				}
				if len(d1.Errors) != 1 || d1.Errors[0].Participant != "judge" || !strings.HasPrefix(d1.StopReason, "judge answer invalid after repair: ") {
					t.Errorf("d1 errors %+v, stop reason %q", d1.Errors, d1.StopReason)
				}
				if run.Topics[0].Status != tree.Failed {
					t.Errorf("topic %s, want failed", run.Topics[0].Status)
				}
			} else if got := d1.Models["judge"]; got != tc.wantModels || d1.RawJudgment != "" {
				t.Errorf("d1 judged by %q (raw %q), want %q", got, d1.RawJudgment, tc.wantModels)
			}

			// The repair continues the judge's conversation with the same
			// model: original prompt, its answer, then the error.
			for _, r := range s.requests {
				if r.Participant != "judge" || kind(r.Messages) != "repair" || nodeOf(r.Messages) != "root" {
					continue
				}
				n := len(r.Messages)
				if r.Model != "model-j" || !r.JSON || n < 4 || r.Messages[n-2].Role != "assistant" || r.Messages[n-2].Content != "They mostly agree, I would say." ||
					!strings.Contains(r.Messages[n-1].Content, "no JSON object") {
					t.Errorf("repair request %+v", r)
				}
			}
		})
	}
}
