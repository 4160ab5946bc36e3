package orchestrator

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// TestSynthesis: after each topic's tree the judge writes its conclusion
// (not for a topic whose root failed); after all topics it proposes edits to
// the shared documents from the conclusions. Failures there are never fatal.
func TestSynthesis(t *testing.T) {
	for _, tc := range []struct {
		name       string
		docs       bool
		failEdits  bool
		wantEdits  bool
		wantCalls  int // synthesis and edits calls
		wantFailed int // failed calls reported
	}{
		{name: "with documents", docs: true, wantEdits: true, wantCalls: 2},
		{name: "without documents", wantCalls: 1},
		// The failing edits call is tried 1 + api.maxRetries times.
		{name: "edits call fails", docs: true, failEdits: true, wantCalls: 1 + 1 + configs.DefaultMaxRetries, wantFailed: 1 + configs.DefaultMaxRetries},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &script{judge: map[string][]string{
				// Topic "bad" has a judge that never answers in JSON.
				"bad/root": {"no JSON"},
			}, words: 5}
			s.fail = func(r providers.Request) error {
				if tc.failEdits && r.Origin.Step == string(tree.StepEdits) {
					return &providers.Error{Class: providers.ClassServerError, Status: 500, Err: errors.New("internal error")}
				}
				return nil
			}
			cfg := testConfig(2, "good")
			cfg.Topics = append(cfg.Topics, configs.Topic{ID: "bad", Title: "Topic bad"})
			cfg.Params.Synthesis = nil
			if tc.docs {
				cfg.SharedContext.Documents = []configs.Document{{Path: "decisions.md", Content: "the decisions"}}
			}
			rec := &recorder{}
			run, err := english(cfg, completer(s.answer), promptSet(t), Options{Events: rec.add}).Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			good, bad := run.Topics[0], run.Topics[1]
			if good.Status != tree.Converged || good.Synthesis != "conclusion of root" {
				t.Errorf("good topic: %s, synthesis %q", good.Status, good.Synthesis)
			}
			if bad.Status != tree.Failed || bad.Synthesis != "" {
				t.Errorf("bad topic: %s, synthesis %q", bad.Status, bad.Synthesis)
			}
			if got := (run.Edits != ""); got != tc.wantEdits {
				t.Errorf("edits %q", run.Edits)
			}
			// The run names its shared documents, edited or not.
			if got := strings.Join(run.Documents, ","); got != map[bool]string{true: "decisions.md"}[tc.docs] {
				t.Errorf("documents %q", got)
			}
			final := func(e tree.Event) bool { return e.Step == tree.StepSynthesis || e.Step == tree.StepEdits }
			if got := rec.count(tree.CallStarted, final); got != tc.wantCalls {
				t.Errorf("%d synthesis and edits calls, want %d", got, tc.wantCalls)
			}
			if got := rec.count(tree.CallFailed, final); got != tc.wantFailed {
				t.Errorf("%d failed synthesis and edits calls reported, want %d", got, tc.wantFailed)
			}
			var sum tree.Usage
			for _, top := range run.Topics {
				sum = sum.Add(top.Usage)
			}
			if extra := run.Usage.Calls - sum.Calls; tc.wantEdits && extra != 1 {
				t.Errorf("the edits call is not in the run's usage (%d extra calls)", extra)
			}
		})
	}
}
