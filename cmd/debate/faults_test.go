package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/debatehq/debate/providers/providertest"

	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
)

// TestRunUnderFaults: with a fifth of all calls failing in every way a real
// API fails (5xx, 429, timeouts, cut connections, judge answers without JSON),
// every topic still gets its report, the run ends with a documented exit code,
// and run.json accounts for every node.
func TestRunUnderFaults(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3} {
		t.Run("seed "+itoa(int(seed)), func(t *testing.T) {
			t.Parallel()
			srv := providertest.New(t)
			var mu sync.Mutex
			rng := rand.New(rand.NewPCG(seed, 42))
			faults := []scripted.Reply{
				scripted.Status(500, "internal"),
				scripted.Status(503, "overloaded"),
				scripted.RateLimited("0"),
				{Delay: 2 * time.Second, Text: "too late"},
				scripted.Cut(),
				scripted.Raw(502, "<html>bad gateway</html>"),
			}
			srv.On(func(c scripted.Call) bool {
				mu.Lock()
				defer mu.Unlock()
				return rng.Float64() < 0.2
			}, func(c scripted.Call) scripted.Reply {
				mu.Lock()
				defer mu.Unlock()
				if c.Model == "m-judge" && rng.IntN(2) == 0 {
					return scripted.Text("I would rather not answer in JSON.")
				}
				return faults[rng.IntN(len(faults))]
			})
			scriptJudges(srv)
			cfgPath := writeConfig(t, srv, 3, `, {"id": "t2", "title": "Second question"}, {"id": "t3", "title": "Third question"}`)
			// Short per-call timeout so that delayed replies count as timeouts.
			b, _ := os.ReadFile(cfgPath)
			os.WriteFile(cfgPath, []byte(strings.Replace(string(b), `"timeout": 10000`, `"timeout": 300`, 1)), 0o644)

			r := invoke(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfgPath)
			if r.code != exitOK && r.code != exitFailed {
				t.Fatalf("exit %d, want 0 or 1\n%s", r.code, r.stderr)
			}
			out := filepath.Join(filepath.Dir(cfgPath), "out")
			run := readRun(t, filepath.Join(out, "run.json"))
			if srv.Count() <= run.Usage.Calls {
				t.Fatalf("%d requests for %d successful calls: no fault was injected", srv.Count(), run.Usage.Calls)
			}
			if len(run.Topics) != 3 {
				t.Fatalf("%d topics in run.json, want 3", len(run.Topics))
			}
			// Exit 1 says that a node failed, or that a debater was missing
			// from a step (a partial node): the faults make either happen.
			failed, partial := false, false
			for _, topic := range run.Topics {
				if _, err := os.Stat(filepath.Join(out, "topic-"+topic.ID+"-"+strings.ReplaceAll(strings.ToLower(strings.TrimSuffix(topic.Title, "?")), " ", "-")+".md")); err != nil {
					t.Errorf("no report for topic %s: %v", topic.ID, err)
				}
				topic.Root.Walk(func(n *tree.Node) {
					switch n.Status {
					case tree.Pending, tree.Interrupted, "":
						t.Errorf("topic %s node %s ended %q", topic.ID, n.ID, n.Status)
					case tree.Partial:
						partial = true
					case tree.Failed:
						failed = true
						if n.StopReason == "" {
							t.Errorf("topic %s node %s failed without a reason", topic.ID, n.ID)
						}
					}
				})
			}
			if (failed || partial) != (r.code == exitFailed) {
				t.Errorf("exit %d, but a node failed: %v, a node went on without a debater: %v", r.code, failed, partial)
			}
			assertNoKey(t, out, r)
		})
	}
}
