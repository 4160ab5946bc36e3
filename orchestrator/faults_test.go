package orchestrator

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
)

// TestFaultBattery: with 20 % and 50 % of the calls failing at random, six
// runs each, every topic ends with a status and a tree, and every position
// and rebuttal is credited to the model that wrote it.
func TestFaultBattery(t *testing.T) {
	for _, rate := range []float64{0.2, 0.5} {
		for seed := range uint64(6) {
			t.Run(fmt.Sprintf("%.0f%%/%d", rate*100, seed), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					cfg := testConfig(2, "t1", "t2")
					cfg.Fallback = configs.Fallback{}
					cfg.API = configs.API{BaseURL: scripted.MemoryURL, APIKey: "sk-test"}
					for i := range cfg.Debaters {
						cfg.Debaters[i].Fallback = cfg.Debaters[i].Model + "-fb"
					}
					cfg.Reviewer.Fallback = "model-j2"
					cfg.ApplyDefaults()
					var mu sync.Mutex
					rng := rand.New(rand.NewPCG(seed, 42))
					s := &script{judge: map[string][]string{"root": {splitAnswer("Divergence " + mark("d1"))}}}
					run, _ := runOnFake(t, cfg, s, func(c scripted.Call) (scripted.Reply, bool) {
						mu.Lock()
						fail := rng.Float64() < rate
						mu.Unlock()
						switch {
						case fail:
							return scripted.Status(503, "overloaded"), true
						case c.Model != "model-j" && c.Model != "model-j2":
							return scripted.Text("written by " + c.Model + " as its answer"), true
						}
						return scripted.Reply{}, false
					})
					for _, top := range run.Topics {
						if top.Root == nil || top.Status == tree.Pending || top.Status == "" {
							t.Errorf("%s: not reported: status %q", top.ID, top.Status)
							continue
						}
						top.Root.Walk(func(n *tree.Node) {
							for _, step := range []struct {
								texts, models map[string]string
							}{{n.Positions, n.Models}, {n.Rebuttals, n.RebuttalModels}} {
								for id, text := range step.texts {
									if want := "written by " + step.models[id] + " "; !strings.HasPrefix(text, want) {
										t.Errorf("%s/%s: %s's text %q credited to %q", top.ID, n.ID, id, text, step.models[id])
									}
								}
							}
						})
					}
				})
			})
		}
	}
}
