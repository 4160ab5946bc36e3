package bench

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/debatehq/debate/providers/scripted"
	"github.com/debatehq/debate/tree"
)

// Node titles carry a marker «id» so that the fake can tell from a prompt
// which node a call belongs to: the deepest marker in the messages is the
// node's (its ancestors' titles are shown too). They also carry their topic's
// id, ‹id›, so that no two calls of a run are alike: a request that repeats
// an earlier one is a retry.
func mark(id string) string { return "«" + id + "»" }

func topicMark(id string) string { return "‹" + id + "›" }

// topicOf returns the first topic id marked in the messages.
func topicOf(msgs []scripted.Message) string {
	for _, m := range msgs {
		if _, rest, ok := strings.Cut(m.Content, "‹"); ok {
			if id, _, ok := strings.Cut(rest, "›"); ok {
				return id
			}
		}
	}
	return ""
}

// nodeOf returns the deepest node id marked in the messages.
func nodeOf(msgs []scripted.Message) string {
	best := tree.RootID
	for _, m := range msgs {
		for rest := m.Content; ; {
			i := strings.Index(rest, "«")
			if i < 0 {
				break
			}
			rest = rest[i+len("«"):]
			j := strings.Index(rest, "»")
			if j < 0 {
				break
			}
			if id := rest[:j]; tree.DepthOf(id) > tree.DepthOf(best) {
				best = id
			}
			rest = rest[j:]
		}
	}
	return best
}

// judgeModel and its fallback answer as the reviewer; every other model is a
// debater's.
const (
	judgeModel    = "bench-judge"
	judgeFallback = "bench-judge-fallback"
)

// workload answers the fake's calls: debaters with a fixed text, the judge by
// splitting every node above the last level into fanout divergences and
// settling the last level with consensus only. A share of the calls (faults)
// fails in one of the ways providers.Classify sorts failures into, picked by
// a seeded generator.
type workload struct {
	fanout  int
	faults  float64
	timeout time.Duration // a timeout fault outlasts it

	mu  sync.Mutex
	rng *rand.Rand

	injected atomic.Int64 // calls answered with a fault
	retries  atomic.Int64 // calls that repeat an earlier one (same model and messages)
}

func (w *workload) reply(c scripted.Call) scripted.Reply {
	if c.Attempt > 1 {
		w.retries.Add(1)
	}
	judge := c.Model == judgeModel || c.Model == judgeFallback
	if r, ok := w.fault(judge); ok {
		w.injected.Add(1)
		return r
	}
	node := nodeOf(c.Messages)
	if !judge {
		return scripted.Text(fmt.Sprintf("Position at %s. %s", node, strings.Repeat("An argument with its reasons. ", 30)))
	}
	var titles []string
	if !strings.Contains(c.Messages[0].Content, "forcedVerdicts") {
		for i := range w.fanout {
			titles = append(titles, "Divergence "+topicMark(topicOf(c.Messages))+" "+mark(tree.ChildID(node, i)))
		}
	}
	return judgment(titles)
}

// fault picks the fault of one call, if it gets one.
func (w *workload) fault(judge bool) (scripted.Reply, bool) {
	if w.faults <= 0 {
		return scripted.Reply{}, false
	}
	w.mu.Lock()
	hit, kind := w.rng.Float64() < w.faults, w.rng.IntN(6)
	w.mu.Unlock()
	if !hit {
		return scripted.Reply{}, false
	}
	switch kind {
	case 0:
		return scripted.Status(503, "overloaded"), true
	case 1:
		return scripted.Status(500, "internal error"), true
	case 2:
		return scripted.RateLimited("0"), true
	case 3:
		return scripted.Reply{Delay: w.timeout + time.Second, Text: "too late"}, true
	case 4:
		return scripted.Cut(), true
	}
	if judge {
		return scripted.Text("I weighed both sides carefully and find the matter finely balanced."), true
	}
	return scripted.Status(502, "bad gateway"), true
}

// judgment is a judge's answer with one divergence per title (none: the
// debaters agree), as fenced JSON after a sentence, the way models write it.
func judgment(titles []string) scripted.Reply {
	j := tree.Judgment{Consensus: []tree.Consensus{{Point: "common ground", Detail: "the parties agree on the facts"}}, Divergences: []tree.Divergence{}}
	for i, t := range titles {
		j.Divergences = append(j.Divergences, tree.Divergence{
			ID: fmt.Sprintf("x%d", i+1), Title: t,
			Sides: map[string]string{"debater-1": "one view of " + t, "debater-2": "another view of " + t},
		})
	}
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		panic(err) // a fixed struct always encodes
	}
	return scripted.Text("My assessment.\n\n```json\n" + string(b) + "\n```\n")
}
