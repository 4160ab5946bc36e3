package quality

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/debatehq/debate/internal/golden"
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
		{"concluded", true, Flips{Round0Answers: rate(2, 3), RightToWrong: rate(1, 2), WrongToRight: rate(1, 1), Round0: rate(1, 1), Final: rate(1, 1),
			LostFromPool: rate(0, 1), Adopted: rate(1, 1), round0Chance: 1}},
		{"lost", false, Flips{Round0Answers: rate(2, 3), RightToWrong: rate(1, 2), WrongToRight: rate(1, 1), Round0: rate(1, 1), Final: rate(1, 1),
			LostFromPool: rate(1, 1), Adopted: rate(1, 1), round0Chance: 1}},
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

// TestExpectFlips checks each stage's expectation given the one before it
// beside the one from the parameters: wrong→right is c times the share of
// wrong answers that faced a right majority in the run, not in general.
func TestExpectFlips(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                 string
		f                    Flips
		wrongToRight, round0 float64
	}{
		{"a low first stage", Flips{WrongToRight: rate(70, 501), Adopted: rate(70, 162), round0Chance: 0.7175}, 0.5 * 162 / 501, 0.7175},
		{"as the parameters", Flips{WrongToRight: rate(90, 500), Adopted: rate(90, 180), round0Chance: 0.744}, 0.18, 0.744},
		{"no wrong answer", Flips{WrongToRight: rate(0, 0), Adopted: rate(0, 0), round0Chance: 1}, 0, 1},
	}
	for _, tt := range tests {
		tt.f.expectFlips(3, 0.6, 0.5)
		f := tt.f
		for _, c := range []struct {
			what string
			got  *float64
			want float64
		}{
			{"round-0 answers", f.Round0Answers.Expected, 0.6},
			{"round-0 majority", f.Round0.Expected, tt.round0},
			{"round-0 majority from the parameters", f.Round0.FromParameters, VoteAccuracy(3, 0.6)},
			{"right→wrong", f.RightToWrong.Expected, 0},
			{"wrong→right", f.WrongToRight.Expected, tt.wrongToRight},
			{"wrong→right from the parameters", f.WrongToRight.FromParameters, 0.18},
			{"adoption", f.Adopted.Expected, 0.5},
		} {
			if c.got == nil || math.Abs(*c.got-c.want) > 1e-12 {
				t.Errorf("%s: %s expected %v, want %v", tt.name, c.what, c.got, c.want)
			}
		}
		if f.Final.Expected != nil || f.LostFromPool.Expected != nil {
			t.Errorf("%s: an expectation for the final majority or the lost answers, which the demo does not predict", tt.name)
		}
	}
}

// TestFlipsGolden pins the flip lines of a small demo run as a person reads
// them, on a terminal of 80 columns and a narrower one, and their JSON.
func TestFlipsGolden(t *testing.T) {
	t.Parallel()
	rep, err := RunDemo(context.Background(), Arithmetic(30, 1), DemoOptions{Agents: 3, AgentAccuracy: 0.6, Conformity: 0.5}, Options{Seed: 1, Concurrency: 8, Chunk: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, width := range []int{TableColumns, 60} {
		text := rep.Flips.lines(width)
		golden.Assert(t, filepath.Join("testdata", fmt.Sprintf("flips-%d.txt", width)), []byte(text))
		for _, line := range strings.Split(text, "\n") {
			if n := utf8.RuneCountInString(line); n > width {
				t.Errorf("a line of %d columns on a terminal of %d: %q", n, width, line)
			}
		}
	}
	b, err := json.MarshalIndent(rep.Flips, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, filepath.Join("testdata", "flips.json"), append(b, '\n'))
}
