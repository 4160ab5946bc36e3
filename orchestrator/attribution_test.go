package orchestrator

import (
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/providers/providertest"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/tree"
)

// TestFallbackAtRebuttalKeepsPositionAuthor: a primary that answers once and
// then fails with 503 writes the position; its fallback writes the rebuttal.
// run.json credits each text to the model that wrote it, and the report's
// headings say so: the fallback never takes the position over.
func TestFallbackAtRebuttalKeepsPositionAuthor(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := seedConfig()
		cfg.Topics = cfg.Topics[:1]
		cfg.Params.MaxRounds = 1
		var primary atomic.Int32
		run, _ := runOnFake(t, cfg, &script{words: 3}, func(c scripted.Call) (scripted.Reply, bool) {
			return scripted.Status(503, "overloaded"), c.Model == "model-c" && primary.Add(1) > 1
		})
		top := run.Topics[0]
		root := top.Root
		if got := root.Models["party-c"]; got != "model-c" {
			t.Errorf("position credited to %q, want model-c, the primary that wrote it", got)
		}
		if got := root.RebuttalModels["party-c"]; got != "model-c2" {
			t.Errorf("rebuttal credited to %q, want model-c2, the fallback that wrote it", got)
		}
		if len(top.Fallbacks) != 1 || top.Fallbacks[0].Node != "root" {
			t.Fatalf("fallbacks %+v, want one at root", top.Fallbacks)
		}
		md := string(render.Topic(run, &top))
		for _, want := range []string{
			"#### Party C — model-c\n",
			"#### Rebuttal by Party C — model-c2 (fell back from model-c)\n",
		} {
			if !strings.Contains(md, want) {
				t.Errorf("the report has no heading %q", strings.TrimSpace(want))
			}
		}
		if strings.Contains(md, "#### Party C — model-c2") {
			t.Error("the report credits the position to the fallback")
		}
	})
}

// runOnFake runs cfg against the fake API, where override (if any) answers
// the calls it claims and s the others, without jitter. It returns the run
// and the fake, which holds every call made.
func runOnFake(t *testing.T, cfg *configs.Config, s *script, override func(scripted.Call) (scripted.Reply, bool)) (*tree.Run, *providertest.Server) {
	t.Helper()
	if override == nil {
		override = func(scripted.Call) (scripted.Reply, bool) { return scripted.Reply{}, false }
	}
	srv := providertest.New(t)
	srv.Script(func(c scripted.Call) scripted.Reply {
		if r, ok := override(c); ok {
			return r
		}
		return scriptReply(s, c)
	})
	client, err := providers.New(cfg, providers.Options{HTTPClient: srv.HTTPClient()})
	if err != nil {
		t.Fatal(err)
	}
	run, err := english(cfg, client, promptSet(t), Options{Jitter: func() float64 { return 0 }}).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return run, srv
}
