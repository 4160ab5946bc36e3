package orchestrator

import (
	"context"
	"slices"
	"testing"

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

// TestContextControl builds a five-level tree (depths 0 to 4, maxRounds 5)
// and checks from the recorded requests that a node's prompts hold nothing of
// any node off its own path, and that the mean prompt size at depth d stays
// within 1.5 times that of depth 1.
func TestContextControl(t *testing.T) {
	const levels = 5
	s := &script{judge: binaryTree(levels), words: 300}
	run, err := New(testConfig(levels, "t1"), completer(s.answer), promptSet(t), Options{}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st := run.Topics[0].Root.Stats(); st.Nodes != 31 || st.Depth != 4 {
		t.Fatalf("tree of %d nodes, depth %d; want 31, 4", st.Nodes, st.Depth)
	}

	size := map[int]int{}
	count := map[int]int{}
	for _, r := range s.requests {
		node := nodeOf(r.Messages)
		for _, m := range markers(r.Messages) {
			if !slices.Contains(ancestry(node), m) {
				t.Errorf("a %s call at %s shows node %s, which is off its path", r.Participant, node, m)
			}
		}
		n := 0
		for _, m := range r.Messages {
			n += len(m.Content)
		}
		d := tree.DepthOf(node)
		size[d] += n
		count[d]++
	}
	mean := func(d int) float64 { return float64(size[d]) / float64(count[d]) }
	for d := range levels {
		t.Logf("depth %d: %d calls, mean prompt %.0f bytes (%.2f× depth 1)", d, count[d], mean(d), mean(d)/mean(1))
	}
	for d := 2; d < levels; d++ {
		if r := mean(d) / mean(1); r > 1.5 {
			t.Errorf("mean prompt at depth %d is %.2f× that of depth 1, want ≤ 1.5", d, r)
		}
	}
}
