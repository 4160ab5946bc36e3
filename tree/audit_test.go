package tree

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// judged returns a run of n topics, each a forced root node where three
// debaters answered with lengths drawn from rng and the judge read them in
// a drawn order and favoured pick(read, lengths).
func judged(n int, rng *rand.Rand, pick func(read []string, n *Node) string) *Run {
	ids := []string{"a", "b", "c"}
	run := &Run{Judge: Participant{ID: "j", Model: "gpt-5"}, Debaters: []Participant{{ID: "a"}, {ID: "b"}, {ID: "c"}}}
	for range n {
		root := NewNode(RootID, "t", "")
		for _, id := range ids {
			root.Positions[id] = strings.Repeat("x", 50+rng.IntN(300))
			root.Models[id] = map[string]string{"a": "gpt-4o", "b": "claude-opus-4", "c": "gemini-2.5-pro"}[id]
		}
		read := slices.Clone(ids)
		rng.Shuffle(len(read), func(i, j int) { read[i], read[j] = read[j], read[i] })
		root.Judgment = &Judgment{
			Divergences:    []Divergence{{ID: "d1", Sides: map[string]string{"a": "x", "b": "y", "c": "z"}}},
			ForcedVerdicts: []Verdict{{DivergenceID: "d1", Favors: pick(read, root), Read: read}},
		}
		run.Topics = append(run.Topics, Topic{ID: "t", Root: root})
	}
	return run
}

func longestOf(read []string, n *Node) string {
	best := read[0]
	for _, id := range read {
		if answerLen(n, id) > answerLen(n, best) {
			best = id
		}
	}
	return best
}

func TestAudit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		pick    func(rng *rand.Rand) func([]string, *Node) string
		flagged []string // the checks flagged
	}{
		{"always the first listed", func(*rand.Rand) func([]string, *Node) string {
			return func(read []string, _ *Node) string { return read[0] }
		}, []string{"first", "last", "middle"}},
		{"always the longest answer", func(*rand.Rand) func([]string, *Node) string { return longestOf }, []string{"longest"}},
		{"at random", func(rng *rand.Rand) func([]string, *Node) string {
			return func(read []string, _ *Node) string { return read[rng.IntN(len(read))] }
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(1, 2))
			run := judged(40, rng, tt.pick(rand.New(rand.NewPCG(3, 4))))
			run.Tally()
			if len(run.Audit) != 1 || run.Audit[0].Model != "gpt-5" {
				t.Fatalf("audit %+v, want one judge model", run.Audit)
			}
			a := run.Audit[0]
			var got []string
			for name, c := range map[string]Check{"first": a.First, "middle": a.Middle, "last": a.Last, "longest": a.Longest, "family": a.SameFamily} {
				if c.Of != 40 {
					t.Errorf("%s counted %d verdicts, want 40", name, c.Of)
				}
				if c.Flagged {
					got = append(got, name)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.flagged) {
				t.Errorf("flagged %v, want %v (audit %+v)", got, tt.flagged, a)
			}
			if c := Combine(run, run).Audit[0]; c.First != a.First {
				t.Errorf("a run combined with itself: %+v, want each verdict counted once: %+v", c.First, a.First)
			}
			again := judged(40, rand.New(rand.NewPCG(5, 6)), tt.pick(rand.New(rand.NewPCG(7, 8))))
			if c := Combine(run, again).Audit[0]; c.First.Of != 80 || c.First.Flagged != a.First.Flagged {
				t.Errorf("two runs combined: %+v, want the counts summed", c.First)
			}
		})
	}
}
