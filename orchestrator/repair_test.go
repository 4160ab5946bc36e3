package orchestrator

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/output"
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
			run, err := english(cfg, completer(s.answer), promptSet(t), Options{Events: rec.add}).Run(context.Background())
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
				if len(d1.Errors) != 1 || d1.Errors[0].Participant != "judge" || !strings.HasPrefix(d1.StopReason, "answer invalid after repair: ") {
					t.Errorf("d1 errors %+v, stop reason %q", d1.Errors, d1.StopReason)
				}
				if run.Topics[0].Status != tree.Failed {
					t.Errorf("topic %s, want failed", run.Topics[0].Status)
				}
			} else {
				if got := d1.Models["judge"]; got != tc.wantModels || d1.RawJudgment != "" {
					t.Errorf("d1 judged by %q (raw %q), want %q", got, d1.RawJudgment, tc.wantModels)
				}
				// The reason says once why the judge fell back.
				fb := run.Topics[0].Fallbacks
				if len(fb) != 1 || !strings.HasPrefix(fb[0].Reason, "answer invalid after repair: ") || strings.Count(fb[0].Reason, "after repair") != 1 {
					t.Errorf("fallbacks %+v, want one whose reason says once that the answer was invalid after repair", fb)
				}
			}

			// The repair continues the judge's conversation with the same
			// model: original prompt, its answer, then the error.
			for _, r := range s.requests {
				if r.Participant != "judge" || kind(r) != "repair" || nodeOf(r) != "root" {
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

// TestForcedVerdictKeepsConsensus: a forced-verdict answer whose consensus
// and divergences are valid but which misses a verdict, even after repair,
// keeps its consensus; the missing verdict is marked, and the node is
// forced, not failed, without spending the judge's fallback.
func TestForcedVerdictKeepsConsensus(t *testing.T) {
	partial := tree.Judgment{
		Consensus: []tree.Consensus{{Point: "keep the cache", Detail: "all agree"}},
		Divergences: []tree.Divergence{
			{ID: "k1", Title: "decided", Sides: map[string]string{"party-a": "yes", "party-b": "no"}, Uninvolved: []string{"party-c"}},
			{ID: "k2", Title: "undecided", Sides: map[string]string{"party-a": "up", "party-b": "down"}, Uninvolved: []string{"party-c"}},
		},
		ForcedVerdicts: []tree.Verdict{{DivergenceID: "k1", Recommendation: "do yes", Reasoning: "cheaper"}},
	}
	for _, tc := range []struct {
		name     string
		answers  []string
		wantKind []string
	}{
		{name: "missing twice", answers: []string{fence(partial)}, wantKind: []string{"forced", "repair"}},
		{name: "garbage, then missing", answers: []string{"no JSON", fence(partial)}, wantKind: []string{"forced", "repair"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &script{judge: map[string][]string{"root": tc.answers}, words: 5}
			cfg := testConfig(1, "t1")
			cfg.Reviewer.Fallback = "model-j2"
			run, err := english(cfg, completer(s.answer), promptSet(t), Options{}).Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			top := run.Topics[0]
			root := top.Root
			if root.Status != tree.Forced || top.Status != tree.Forced || len(root.Errors) != 0 {
				t.Fatalf("root %s (%s), topic %s, errors %+v; want forced", root.Status, root.StopReason, top.Status, root.Errors)
			}
			if !strings.HasSuffix(root.StopReason, "; 1 verdict missing after repair") {
				t.Errorf("stop reason %q does not say a verdict is missing", root.StopReason)
			}
			j := root.Judgment
			if len(j.Consensus) != 1 || j.Consensus[0].Point != "keep the cache" {
				t.Errorf("consensus %+v, want the judge's kept", j.Consensus)
			}
			want := []tree.Verdict{
				{DivergenceID: "d1", Recommendation: "do yes", Reasoning: "cheaper"},
				{DivergenceID: "d2", Missing: true},
			}
			if !reflect.DeepEqual(j.ForcedVerdicts, want) {
				t.Errorf("verdicts %+v, want %+v", j.ForcedVerdicts, want)
			}
			if got := s.kindsAt("root"); !slices.Equal(got, tc.wantKind) {
				t.Errorf("judge calls %v, want %v", got, tc.wantKind)
			}
			if len(top.Fallbacks) != 0 || root.Models["judge"] != "model-j" {
				t.Errorf("fallbacks %+v, judge model %q: the fallback was not needed", top.Fallbacks, root.Models["judge"])
			}
			dir := t.TempDir()
			if _, err := output.Write(dir, run, output.Options{}); err != nil {
				t.Fatal(err)
			}
			report, _ := filepath.Glob(filepath.Join(dir, "topic-t1-*.md"))
			if b, _ := os.ReadFile(report[0]); !strings.Contains(string(b), "missing: the judge gave no verdict") {
				t.Errorf("the report does not mark the missing verdict:\n%s", b)
			}
		})
	}
}
