package orchestrator

import (
	"fmt"
	"strings"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/tree"
)

// TestMaxDivergences: a judge that answers with 200 divergences, though told
// the limit, opens only params.maxDivergences children; the rest are
// recorded at the node as forced verdicts over the limit, shown in the
// report, and the call count stays that of a five-child tree.
func TestMaxDivergences(t *testing.T) {
	cfg := testConfig(2, "t1")
	cfg.API = configs.API{BaseURL: scripted.MemoryURL, APIKey: "sk-test"}
	cfg.ApplyDefaults()
	if cfg.Params.MaxDivergences != 5 {
		t.Fatalf("params.maxDivergences defaults to %d, want 5", cfg.Params.MaxDivergences)
	}
	titles := make([]string, 200)
	for i := range titles {
		titles[i] = fmt.Sprintf("Divergence %s", mark(tree.ChildID(tree.RootID, i)))
	}
	s := &script{judge: map[string][]string{"root": {splitAnswer(titles...)}}, words: 3}
	run, srv := runOnFake(t, cfg, s, nil)
	root := run.Topics[0].Root
	if len(root.Children) != 5 {
		t.Fatalf("%d children, want 5", len(root.Children))
	}
	over := 0
	for _, v := range root.Judgment.ForcedVerdicts {
		if v.OverLimit {
			over++
		}
	}
	if over != 195 {
		t.Errorf("%d divergences recorded over the limit, want 195", over)
	}
	// 3 positions, 3 rebuttals and a judge at the root and at each child.
	if got, want := srv.Count(), 6*7; got != want {
		t.Errorf("%d calls, want %d", got, want)
	}
	if run.Topics[0].Status != tree.Forced {
		t.Errorf("topic %s, want forced: 195 divergences were cut, not agreed", run.Topics[0].Status)
	}
	triage := srv.Calls()[0]
	for _, c := range srv.Calls() {
		if c.Model == "model-j" {
			triage = c
			break
		}
	}
	if !triage.Contains("List at most 5 divergences") {
		t.Error("the triage prompt does not tell the judge the limit")
	}
	md := string(render.Topic(run, &run.Topics[0]))
	for _, want := range []string{
		"200 divergences: 5 split into child debates, 195 beyond params.maxDivergences (5) left undecided",
		"not debated: beyond this node's limit of child debates",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}
