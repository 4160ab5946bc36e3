package quality

import (
	"math"
	"testing"

	"github.com/debatehq/debate/tree"
)

// TestFlips counts the changes of answer of a debate's debaters: a keeps
// the right answer, b moves from wrong to right, c from right to wrong.
func TestFlips(t *testing.T) {
	t.Parallel()
	root := tree.NewNode(tree.RootID, "q", "")
	for id, steps := range map[string][2]string{"a": {"42", "42"}, "b": {"41", "42"}, "c": {"42", "7"}} {
		root.Positions[id] = "work\n\nAnswer: " + steps[0]
		root.Rebuttals[id] = "rebut\n\nAnswer: " + steps[1]
	}
	tests := []struct {
		name      string
		concluded bool
		want      Flips
	}{
		{"concluded", true, Flips{RightToWrong: rate(1, 2), WrongToRight: rate(1, 1), Round0: rate(1, 1), Final: rate(1, 1), LostFromPool: rate(0, 1), Adopted: rate(1, 1)}},
		{"lost", false, Flips{RightToWrong: rate(1, 2), WrongToRight: rate(1, 1), Round0: rate(1, 1), Final: rate(1, 1), LostFromPool: rate(1, 1), Adopted: rate(1, 1)}},
	}
	for _, tt := range tests {
		var f flipCounts
		f.addTopic(&tree.Topic{Root: root}, []string{"a", "b", "c"}, "42", tt.concluded, 1)
		if got := *f.flips(); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestMajorityRight checks the chance of a right majority around a wrong
// answer against counting by hand.
func TestMajorityRight(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n    int
		p    float64
		want float64
	}{
		{3, 0.6, 0.36},     // both others right
		{4, 0.5, 0.125},    // all three others right
		{5, 0.5, 5.0 / 16}, // three or four of four others
		{1, 0.9, 0},        // alone and wrong
		{2, 0.7, 0},        // one of two is no majority
	}
	for _, tt := range tests {
		if got := majorityRight(tt.n, tt.p); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("majorityRight(%d, %v) = %v, want %v", tt.n, tt.p, got, tt.want)
		}
	}
}
