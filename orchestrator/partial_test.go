package orchestrator

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/tree"
)

// TestDebaterTimingOutIsNotAgreement: of two debaters, one times out on
// every call. The judge finds nothing disputed in what the other wrote, but
// the node is partial, not converged: it names the missing debater and why,
// the topic is partial, the run is not finished (so "debate run" exits 1),
// and the report never reads "converged ✓" or "all debaters agreed".
func TestDebaterTimingOutIsNotAgreement(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(2, "t1")
		cfg.Debaters = cfg.Debaters[:2]
		cfg.Fallback = configs.Fallback{}
		cfg.API = configs.API{BaseURL: scripted.MemoryURL, APIKey: "sk-test", Timeout: 1000}
		cfg.ApplyDefaults()
		run, _ := runOnFake(t, cfg, &script{words: 3}, func(c scripted.Call) (scripted.Reply, bool) {
			return scripted.Reply{Delay: time.Hour}, c.Model == "model-b"
		})
		top := run.Topics[0]
		root := top.Root
		if root.Status != tree.Partial || top.Status != tree.Partial {
			t.Errorf("root %s, topic %s; want both partial", root.Status, top.Status)
		}
		if len(root.Missing) != 1 || root.Missing[0].Participant != "party-b" || root.Missing[0].Step != tree.StepPosition {
			t.Fatalf("missing %+v, want party-b at the position step", root.Missing)
		}
		if !strings.Contains(root.Missing[0].Reason, "timeout") && !strings.Contains(root.Missing[0].Reason, "timed out") {
			t.Errorf("the absence's reason %q does not say the debater timed out", root.Missing[0].Reason)
		}
		if run.Finished() {
			t.Error("the run counts as finished, so debate run would exit 0")
		}
		md := string(render.Topic(run, &top))
		for _, bad := range []string{"converged ✓", "all debaters agreed"} {
			if strings.Contains(md, bad) {
				t.Errorf("the report reads %q", bad)
			}
		}
		for _, want := range []string{"(partial: a debater missing)", "missing: Party B", "- Party B (position): "} {
			if !strings.Contains(md, want) {
				t.Errorf("the report lacks %q", want)
			}
		}
		summary := string(render.Summary(run, nil))
		if !strings.Contains(summary, "**undecided (partial)**") {
			t.Error("the summary does not show the topic as undecided for a debater missing")
		}
	})
}
