package orchestrator

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/tree"
)

// TestBudget: once the run has spent its token budget, no child is opened:
// a node that would split gets forced verdicts instead.
func TestBudget(t *testing.T) {
	const reason = "budget of %d tokens reached: verdicts forced"
	for _, tc := range []struct {
		name      string
		budget    int
		judge     []string
		wantKinds []string
		wantShape []string
		wantCalls int
	}{
		{
			// 6 debater calls (600 tokens) leave room for the triage, which
			// passes the budget and splits: one more call forces verdicts.
			name: "passed by the triage", budget: 650,
			judge:     []string{splitAnswer("Divergence "+mark("d1"), "Divergence "+mark("d2")), forcedAnswer("a", "b")},
			wantKinds: []string{"triage", "forced"}, wantShape: []string{"root forced"}, wantCalls: 8,
		},
		{
			name: "passed before the judge", budget: 300,
			judge:     []string{forcedAnswer("a")},
			wantKinds: []string{"forced"}, wantShape: []string{"root forced"}, wantCalls: 7,
		},
		{
			name: "not reached", budget: 100000,
			judge:     []string{splitAnswer("Divergence " + mark("d1"))},
			wantKinds: []string{"triage"}, wantShape: []string{"root split", "d1 converged"}, wantCalls: 14,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &script{judge: map[string][]string{"root": tc.judge}, words: 5, tokens: 50}
			cfg := testConfig(3, "t1")
			cfg.Budget.MaxTokens = tc.budget
			run, err := english(cfg, completer(s.answer), promptSet(t), Options{}).Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			root := run.Topics[0].Root
			if got := shape(root); !slices.Equal(got, tc.wantShape) {
				t.Errorf("shape %q, want %q", got, tc.wantShape)
			}
			if got := s.kindsAt("root"); !slices.Equal(got, tc.wantKinds) {
				t.Errorf("judge calls %v, want %v", got, tc.wantKinds)
			}
			if got := len(s.requests); got != tc.wantCalls {
				t.Errorf("%d calls, want %d", got, tc.wantCalls)
			}
			// Verdicts forced by the budget must say so, not blame the round limit.
			for _, r := range s.requests {
				if kind(r) != "forced" {
					continue
				}
				if text := r.Messages[len(r.Messages)-1].Content; !strings.Contains(text, "token budget is spent") {
					t.Errorf("forced-verdict prompt does not say the budget is spent:\n%s", text)
				}
			}
			if root.Status == tree.Forced {
				if want := fmt.Sprintf(reason, tc.budget); root.StopReason != want {
					t.Errorf("stop reason %q, want %q", root.StopReason, want)
				}
				if len(root.Judgment.ForcedVerdicts) == 0 || root.Judgment.ForcedVerdicts[0].DivergenceID != "d1" {
					t.Errorf("judgment %+v", root.Judgment)
				}
			}
		})
	}
}
