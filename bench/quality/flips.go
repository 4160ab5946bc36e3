package quality

import (
	"fmt"
	"math"

	"github.com/debatehq/debate/internal/stats"
	"github.com/debatehq/debate/tree"
)

// Rate is a count out of a total with its 95 % Wilson interval and, in a
// demo, the rate the scripted agents should show.
type Rate struct {
	stats.Share
	Expected *float64 `json:"expected,omitempty"`
}

func rate(k, n int) Rate { return Rate{Share: stats.NewShare(k, n)} }

// Flips are how the debaters of the debate arm changed their answers: from
// each stated answer (position or rebuttal) to the next, right to wrong of
// the steps from a right answer and wrong to right of those from a wrong
// one; the round-0 plurality's accuracy beside the final one; and the
// problems where a right answer was stated at round 0 but the debate did
// not conclude it.
type Flips struct {
	RightToWrong Rate `json:"rightToWrong"`
	WrongToRight Rate `json:"wrongToRight"`
	Round0       Rate `json:"round0Majority"`
	Final        Rate `json:"finalMajority"`
	LostFromPool Rate `json:"lostFromPool"`
	// Adopted counts the wrong round-0 answers that faced a right
	// majority (more than half of the round-0 answers right) and became
	// right at the next step, of those that faced one.
	Adopted Rate `json:"adoptedRightMajority"`
}

// flipCounts are the raw numbers behind Flips.
type flipCounts struct {
	rightSteps, rightToWrong, wrongSteps, wrongToRight int
	problems, round0, final, lost                      int
	faced, adopted                                     int
}

// addTopic counts one problem's debate: t its tree, ids the debaters, want
// the right answer, concluded whether the debate concluded it, tie the seed
// of the round-0 plurality's tie draw.
func (f *flipCounts) addTopic(t *tree.Topic, ids []string, want string, concluded bool, tie uint64) {
	if t.Root == nil {
		return
	}
	var round0 []string
	for _, id := range ids {
		if a, ok := ReadAnswer(t.Root.Positions[id]); ok {
			round0 = append(round0, a)
		}
		var prev string
		seen := false
		t.Root.Walk(func(n *tree.Node) {
			for _, text := range []string{n.Positions[id], n.Rebuttals[id]} {
				a, ok := ReadAnswer(text)
				if !ok {
					continue
				}
				if seen {
					f.step(Same(prev, want), Same(a, want))
				}
				prev, seen = a, true
			}
		})
	}
	f.facing(t.Root, ids, want, count(sameAs(round0, want)), len(round0))
	f.problems++
	if len(round0) > 0 && Same(Plurality(round0, tie), want) {
		f.round0++
	}
	if last := LastAnswers(t, ids); len(last) > 0 && Same(Plurality(last, tie+1), want) {
		f.final++
	}
	if count(sameAs(round0, want)) > 0 && !concluded {
		f.lost++
	}
}

// facing counts, when more than half of the n round-0 answers (right of
// them) are right, each wrong one and whether its rebuttal took the right
// answer.
func (f *flipCounts) facing(root *tree.Node, ids []string, want string, right, n int) {
	if 2*right <= n {
		return
	}
	for _, id := range ids {
		a, ok := ReadAnswer(root.Positions[id])
		if !ok || Same(a, want) {
			continue
		}
		f.faced++
		if b, ok := ReadAnswer(root.Rebuttals[id]); ok && Same(b, want) {
			f.adopted++
		}
	}
}

// step counts one change from an answer right or not to the next.
func (f *flipCounts) step(wasRight, isRight bool) {
	if wasRight {
		f.rightSteps++
		if !isRight {
			f.rightToWrong++
		}
		return
	}
	f.wrongSteps++
	if isRight {
		f.wrongToRight++
	}
}

func (f flipCounts) flips() *Flips {
	if f.problems == 0 {
		return nil
	}
	return &Flips{
		RightToWrong: rate(f.rightToWrong, f.rightSteps), WrongToRight: rate(f.wrongToRight, f.wrongSteps),
		Round0: rate(f.round0, f.problems), Final: rate(f.final, f.problems), LostFromPool: rate(f.lost, f.problems),
		Adopted: rate(f.adopted, f.faced),
	}
}

// expectFlips sets the rates the demo's n agents of accuracy p and
// conformity c should show in one rebuttal: a right agent never sees a
// wrong majority (wrong answers never agree), so it never flips; a wrong
// one adopts the right majority, there when more than half of all n
// answers are right, with probability c (its adoption rate when it faces
// one); the round-0 plurality is the vote's.
func (f *Flips) expectFlips(n int, p, c float64) {
	zero, wr, r0 := 0.0, c*majorityRight(n, p), VoteAccuracy(n, p)
	f.RightToWrong.Expected, f.WrongToRight.Expected, f.Round0.Expected, f.Adopted.Expected = &zero, &wr, &r0, &c
}

// majorityRight is the chance that more than half of n answers are right
// when one known wrong answer is among them and each of the other n−1 is
// right with probability p.
func majorityRight(n int, p float64) float64 {
	sum := 0.0
	for k := 0; k <= n-1; k++ {
		if 2*k > n {
			sum += math.Exp(logChoose(n-1, k)) * math.Pow(p, float64(k)) * math.Pow(1-p, float64(n-1-k))
		}
	}
	return sum
}

// text is the flips as the report prints them.
func (f *Flips) text() string {
	one := func(name string, r Rate) string {
		s := fmt.Sprintf("%s %d/%d = %.3f (95%% %.3f–%.3f", name, r.Count, r.Of, r.Value(), r.Interval.Low, r.Interval.High)
		if r.Expected != nil {
			s += fmt.Sprintf("; expected %.3f", *r.Expected)
		}
		return s + ")"
	}
	return fmt.Sprintf("debate flips: %s, %s (facing a right majority %s); round-0 majority %s → final %s; a right answer at round 0 lost at the end: %s",
		one("right→wrong", f.RightToWrong), one("wrong→right", f.WrongToRight), one("", f.Adopted)[1:],
		one("", f.Round0)[1:], one("", f.Final)[1:], one("", f.LostFromPool)[1:])
}
