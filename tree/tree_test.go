package tree

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestChildParentAndDepth(t *testing.T) {
	tests := []struct {
		parent string
		i      int
		want   string
		depth  int
	}{
		{RootID, 0, "d1", 1},
		{RootID, 9, "d10", 1},
		{"d1", 0, "d1.1", 2},
		{"d2", 1, "d2.2", 2},
		{"d2.1", 2, "d2.1.3", 3},
		{"", 0, "d1", 1},
	}
	for _, tt := range tests {
		got := ChildID(tt.parent, tt.i)
		if got != tt.want {
			t.Errorf("ChildID(%q, %d) = %q, want %q", tt.parent, tt.i, got, tt.want)
		}
		if p := ParentID(got); p != cmp.Or(tt.parent, RootID) {
			t.Errorf("ParentID(%q) = %q, want %q", got, p, cmp.Or(tt.parent, RootID))
		}
		if d := DepthOf(got); d != tt.depth {
			t.Errorf("DepthOf(%q) = %d, want %d", got, d, tt.depth)
		}
	}
	if p := ParentID(RootID); p != "" {
		t.Errorf("ParentID(root) = %q, want none", p)
	}
	if DepthOf(RootID) != 0 {
		t.Error("root is not at depth 0")
	}
	n := NewNode("d1.2", "t", "c")
	if n.Depth != 2 || n.Round != 3 || n.Status != Pending {
		t.Errorf("NewNode: depth %d round %d status %s", n.Depth, n.Round, n.Status)
	}
}

// build makes a tree from "id status" pairs listed depth first (a status
// followed by " missing" marks a debater missing at the node); a node's
// parent is the one whose id is its id without the last part.
func build(t *testing.T, spec ...string) *Node {
	t.Helper()
	byID := map[string]*Node{}
	var root *Node
	for _, s := range spec {
		id, st, _ := strings.Cut(s, " ")
		st, missing := strings.CutSuffix(st, " missing")
		n := NewNode(id, id, "")
		n.Status = Status(st)
		if missing {
			n.Missing = []Absence{{Participant: "b", Step: StepPosition, Reason: "timeout"}}
		}
		byID[id] = n
		switch {
		case id == RootID:
			root = n
		case DepthOf(id) == 1:
			root.Children = append(root.Children, n)
		default:
			p := id[:len(id)-2]
			byID[p].Children = append(byID[p].Children, n)
		}
	}
	return root
}

func TestSummarize(t *testing.T) {
	tests := []struct {
		name string
		spec []string
		want Status
	}{
		{"single converged", []string{"root converged"}, Converged},
		{"converged children", []string{"root split", "d1 converged", "d2 converged"}, Converged},
		{"one forced leaf", []string{"root split", "d1 converged", "d2 forced"}, Forced},
		{"interrupted beats forced", []string{"root split", "d1 interrupted", "d2 forced"}, Interrupted},
		{"failed beats everything", []string{"root split", "d1 interrupted", "d2 split", "d2.1 failed", "d2.2 forced"}, Failed},
		{"still running", []string{"root split", "d1 pending", "d2 converged"}, Pending},
		{"a partial leaf beats forced", []string{"root split", "d1 partial", "d2 forced"}, Partial},
		{"interrupted beats partial", []string{"root split", "d1 partial", "d2 interrupted"}, Interrupted},
		{"a debater missing at a split", []string{"root split missing", "d1 converged", "d2 forced"}, Partial},
		{"a debater missing at a forced leaf", []string{"root split", "d1 converged", "d2 forced missing"}, Partial},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := build(t, tt.spec...).Summarize(); got != tt.want {
				t.Errorf("Summarize = %s, want %s", got, tt.want)
			}
		})
	}
	var nilNode *Node
	if nilNode.Summarize() != Pending {
		t.Error("a nil tree should be pending")
	}
}

func TestWalkStatsAndAggregation(t *testing.T) {
	root := build(t, "root split", "d1 converged", "d2 split", "d2.1 forced", "d2.2 failed")
	var order []string
	root.Walk(func(n *Node) { order = append(order, n.ID) })
	if want := []string{"root", "d1", "d2", "d2.1", "d2.2"}; !slices.Equal(order, want) {
		t.Errorf("walk order %v, want %v", order, want)
	}

	root.Judgment = &Judgment{
		Consensus:   []Consensus{{Point: "p1"}, {Point: "p2"}},
		Divergences: []Divergence{{ID: "d1"}, {ID: "d2"}},
	}
	root.Find("d1").Judgment = &Judgment{Consensus: []Consensus{{Point: "p3"}}}
	root.Find("d2").Judgment = &Judgment{Divergences: []Divergence{{ID: "d2.1"}, {ID: "d2.2"}}}
	root.Find("d2.1").Judgment = &Judgment{
		Divergences:    []Divergence{{ID: "d2.1.1", Title: "left"}},
		ForcedVerdicts: []Verdict{{DivergenceID: "d2.1.1", Recommendation: "go left"}, {DivergenceID: "unknown"}},
	}

	s := root.Stats()
	want := Stats{Nodes: 5, Depth: 2, Rounds: 3, Consensus: 3, Divergences: 5, Verdicts: 2, Failed: 1}
	if s != want {
		t.Errorf("Stats = %+v, want %+v", s, want)
	}
	var points []string
	for _, p := range root.AllConsensus() {
		points = append(points, p.Node+":"+p.Point)
	}
	if want := []string{"root:p1", "root:p2", "d1:p3"}; !slices.Equal(points, want) {
		t.Errorf("AllConsensus = %v, want %v", points, want)
	}
	v := root.AllVerdicts()
	if len(v) != 2 || v[0].Node != "d2.1" || v[0].Divergence.Title != "left" || v[1].Divergence.ID != "" {
		t.Errorf("AllVerdicts = %+v", v)
	}
	if root.Find("d2.2") == nil || root.Find("d9") != nil {
		t.Error("Find returned the wrong node")
	}
}

func TestUsage(t *testing.T) {
	u := Usage{PromptTokens: 10, CompletionTokens: 5, Calls: 1, Cost: 0.5}.Add(Usage{PromptTokens: 1, CompletionTokens: 2, Calls: 2, Failures: 1, Cost: 0.25})
	if u != (Usage{PromptTokens: 11, CompletionTokens: 7, Calls: 3, Failures: 1, Cost: 0.75}) || u.Total() != 18 {
		t.Errorf("Add = %+v, total %d", u, u.Total())
	}
	if (Participant{ID: "a"}).Name() != "a" || (Participant{ID: "a", Label: "A"}).Name() != "A" {
		t.Error("Name should prefer the label")
	}
}

func TestRunFinished(t *testing.T) {
	tests := []struct {
		name    string
		topics  []Status
		motions []Status
		want    bool
	}{
		{"empty", nil, nil, true},
		{"converged and forced", []Status{Converged, Forced}, []Status{Converged}, true},
		{"a failed topic", []Status{Converged, Failed}, nil, false},
		{"an interrupted motion", []Status{Forced}, []Status{Interrupted}, false},
		{"a partial topic", []Status{Converged, Partial}, nil, false},
	}
	for _, tt := range tests {
		r := &Run{}
		for _, s := range tt.topics {
			r.Topics = append(r.Topics, Topic{Status: s})
		}
		for _, s := range tt.motions {
			r.Motions = append(r.Motions, Motion{Status: s})
		}
		if got := r.Finished(); got != tt.want {
			t.Errorf("%s: Finished = %v, want %v", tt.name, got, tt.want)
		}
	}
	// A forced topic whose judge gave no verdict is not finished.
	r := &Run{Topics: []Topic{{Status: Forced, Root: &Node{Status: Forced, Judgment: &Judgment{ForcedVerdicts: []Verdict{{Missing: true}}}}}}}
	r.Topics[0].Settle()
	if r.Finished() {
		t.Error("a run whose judge gave no verdict is finished")
	}
}

func TestRunInterrupted(t *testing.T) {
	t.Parallel()
	root := func(children ...Status) *Node {
		n := NewNode(RootID, "q", "")
		n.Status = Split
		for _, s := range children {
			n.Children = append(n.Children, &Node{Status: s})
		}
		return n
	}
	tests := []struct {
		name    string
		topics  []Topic
		motions []Status
		want    bool
	}{
		{"empty", nil, nil, false},
		{"finished with a failed node", []Topic{{Status: Failed, Root: root(Converged, Failed)}}, []Status{Forced}, false},
		{"a topic never started", []Topic{{Status: Pending}}, nil, true},
		{"an interrupted topic", []Topic{{Status: Interrupted, Root: root()}}, nil, true},
		{"an interrupted node", []Topic{{Status: Failed, Root: root(Converged, Interrupted)}}, nil, true},
		{"a pending node", []Topic{{Status: Failed, Root: root(Pending)}}, nil, true},
		{"an interrupted motion", nil, []Status{Converged, Interrupted}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := &Run{Topics: tt.topics}
			for _, s := range tt.motions {
				r.Motions = append(r.Motions, Motion{Status: s})
			}
			if got := r.Interrupted(); got != tt.want {
				t.Errorf("Interrupted = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestUsageAddSaturates: sums stop at the bounds instead of wrapping.
func TestUsageAddSaturates(t *testing.T) {
	t.Parallel()
	big := Usage{PromptTokens: math.MaxInt - 1, Cost: math.MaxFloat64, Failures: math.MinInt + 1}
	sum := big.Add(big)
	if sum.PromptTokens != math.MaxInt || sum.Cost != math.MaxFloat64 || sum.Failures != math.MinInt {
		t.Errorf("sum %+v: want saturated at the bounds", sum)
	}
	if got := (Usage{Cost: math.NaN()}).Add(Usage{Cost: 1}).Cost; got != 1 {
		t.Errorf("NaN + 1 = %v, want 1", got)
	}
}
