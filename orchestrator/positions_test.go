package orchestrator

import (
	"context"
	"slices"
	"testing"

	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// TestPositionsOnly: a positions-only run asks each debater once per topic
// and nothing else, ends each root there, and prices the calls as any run.
func TestPositionsOnly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		failing   string // a debater whose every call fails
		status    tree.Status
		calls     int // per topic, answered
		missing   []string
		wantPosed []string
	}{
		{name: "every debater answers", status: tree.Converged, calls: 3, wantPosed: []string{"party-a", "party-b", "party-c"}},
		{name: "one debater fails", failing: "party-b", status: tree.Partial, calls: 2, missing: []string{"party-b"}, wantPosed: []string{"party-a", "party-c"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := &script{judge: twoBranches(), words: 3, tokens: 10}
			s.fail = func(r providers.Request) error {
				participant := r.Participant
				if participant == tc.failing {
					return unavailable
				}
				return nil
			}
			cfg := testConfig(3, "t1", "t2")
			cfg.Fallback.RetryDelay = 1
			run, err := english(cfg, completer(s.answer), promptSet(t), Options{PositionsOnly: true, Jitter: func() float64 { return 0 }}).Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range s.requests {
				if r.Participant == "judge" {
					t.Fatalf("the judge was called in a positions-only run: %+v", r.Origin)
				}
			}
			for _, top := range run.Topics {
				root := top.Root
				if top.Status != tc.status || root.Status != tc.status {
					t.Errorf("%s: topic %s, root %s, want %s (%s)", top.ID, top.Status, root.Status, tc.status, root.StopReason)
				}
				if len(root.Rebuttals) != 0 || root.Judgment != nil || len(root.Children) != 0 {
					t.Errorf("%s: went past the position step: %d rebuttals, judgment %v, %d children", top.ID, len(root.Rebuttals), root.Judgment != nil, len(root.Children))
				}
				var posed, missing []string
				for id := range root.Positions {
					posed = append(posed, id)
				}
				for _, a := range root.Missing {
					missing = append(missing, a.Participant)
				}
				slices.Sort(posed)
				if !slices.Equal(posed, tc.wantPosed) || !slices.Equal(missing, tc.missing) {
					t.Errorf("%s: positions from %v, missing %v; want %v, %v", top.ID, posed, missing, tc.wantPosed, tc.missing)
				}
				if top.Usage.Calls != tc.calls || top.Usage.PromptTokens != 10*tc.calls {
					t.Errorf("%s: usage %+v, want %d calls of 10 prompt tokens", top.ID, top.Usage, tc.calls)
				}
			}
		})
	}
}
