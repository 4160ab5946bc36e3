package orchestrator

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/debatehq/debate/configs"
	"github.com/debatehq/debate/internal/prefix"
	"github.com/debatehq/debate/providers"
	"github.com/debatehq/debate/tree"
)

// binaryTree scripts a judge that splits every node above depth limit-1 into
// two divergences.
func binaryTree(levels int) map[string][]string {
	judge := map[string][]string{}
	var grow func(id string)
	grow = func(id string) {
		if tree.DepthOf(id) >= levels-1 {
			return
		}
		a, b := tree.ChildID(id, 0), tree.ChildID(id, 1)
		judge[id] = []string{splitAnswer("Divergence "+mark(a), "Divergence "+mark(b))}
		grow(a)
		grow(b)
	}
	grow(tree.RootID)
	return judge
}

// freshMeans returns, per node depth, the mean number of bytes of a call's
// prompt that are not cache-eligible: what is left after the longest prefix
// already sent to the same model and endpoint, counted in call order as the
// run's usage counts it.
func freshMeans(cfg *configs.Config, reqs []providers.Request) map[int]float64 {
	var book prefix.Book
	size, count := map[int]int{}, map[int]int{}
	for _, r := range reqs {
		parts := promptParts(r.Messages)
		d := tree.DepthOf(nodeOf(r))
		size[d] += len(strings.Join(parts, "")) - book.Add(cacheKey(cfg, r.Participant, r.Model), parts...)
		count[d]++
	}
	out := map[int]float64{}
	for d, n := range count {
		out[d] = float64(size[d]) / float64(n)
	}
	return out
}

// withAncestry returns reqs as they would be if every call also carried, at
// its end, what was said at each node of its path above it.
func withAncestry(reqs []providers.Request) []providers.Request {
	out := make([]providers.Request, len(reqs))
	for i, r := range reqs {
		node := nodeOf(r)
		var said strings.Builder
		for _, a := range ancestry(node) {
			if a != node {
				said.WriteString(strings.Repeat("what was said at "+a+". ", 100))
			}
		}
		msgs := slices.Clone(r.Messages)
		msgs[len(msgs)-1].Content += said.String()
		r.Messages = msgs
		out[i] = r
	}
	return out
}

// TestContextControl builds a five-level tree (depths 0 to 4, maxRounds 5)
// and checks from the recorded requests that a node's prompts hold nothing of
// any node off its own path, and that the mean prompt size at depth d, in
// bytes that are not cache-eligible, stays within 1.5 times that of depth 1
// (SPEC Part 3). The same measure of the requests made to carry their whole
// ancestry must exceed it.
func TestContextControl(t *testing.T) {
	t.Parallel()
	const levels = 5
	s := &script{judge: binaryTree(levels), words: 300}
	cfg := testConfig(levels, "t1")
	run, err := english(cfg, completer(s.answer), promptSet(t), Options{}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st := run.Topics[0].Root.Stats(); st.Nodes != 31 || st.Depth != 4 {
		t.Fatalf("tree of %d nodes, depth %d; want 31, 4", st.Nodes, st.Depth)
	}
	for _, r := range s.requests {
		node := nodeOf(r)
		for _, m := range markers(r.Messages) {
			if !slices.Contains(ancestry(node), m) {
				t.Errorf("a %s call at %s shows node %s, which is off its path", r.Participant, node, m)
			}
		}
	}

	worst := func(name string, mean map[int]float64) float64 {
		w := 0.0
		for d := range levels {
			t.Logf("%s: depth %d: mean prompt not cache-eligible %.0f bytes (%.2f× depth 1)", name, d, mean[d], mean[d]/mean[1])
			if d >= 2 {
				w = max(w, mean[d]/mean[1])
			}
		}
		return w
	}
	if r := worst("run", freshMeans(cfg, s.requests)); r > 1.5 {
		t.Errorf("mean prompt not cache-eligible at some depth is %.2f× that of depth 1, want ≤ 1.5", r)
	}
	if r := worst("with the ancestry", freshMeans(cfg, withAncestry(s.requests))); r <= 1.5 {
		t.Errorf("prompts carrying their whole ancestry measure %.2f× depth 1 at worst; the measure no longer sees growth", r)
	}
}
