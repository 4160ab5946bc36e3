package quality

import (
	"fmt"
	"math"
	"strings"

	"github.com/debatehq/debate/internal/stats"
	"github.com/debatehq/debate/tree"
)

// Rate is a count out of a total with its 95 % Wilson interval and, in a
// demo, the rate the scripted agents should show: Expected given what the
// stage before it drew, the figure the interval is checked against, and
// FromParameters from the demo's parameters alone, where the two differ.
type Rate struct {
	stats.Share
	Expected       *float64 `json:"expected,omitempty"`
	FromParameters *float64 `json:"expectedFromParameters,omitempty"`
}

func rate(k, n int) Rate { return Rate{Share: stats.NewShare(k, n)} }

// Flips are how the debaters of the debate arm changed their answers: the
// share of right round-0 answers; from each stated answer (position or
// rebuttal) to the next, right to wrong of the steps from a right answer
// and wrong to right of those from a wrong one; the round-0 plurality's
// accuracy beside the final one; and the problems where a right answer was
// stated at round 0 but the debate did not conclude it.
type Flips struct {
	Round0Answers Rate `json:"round0Answers"`
	RightToWrong  Rate `json:"rightToWrong"`
	WrongToRight  Rate `json:"wrongToRight"`
	Round0        Rate `json:"round0Majority"`
	Final         Rate `json:"finalMajority"`
	LostFromPool  Rate `json:"lostFromPool"`
	// Adopted counts the wrong round-0 answers that faced a right
	// majority (more than half of the round-0 answers right) and became
	// right at the next step, of those that faced one.
	Adopted Rate `json:"adoptedRightMajority"`
	// round0Chance is the round-0 plurality's accuracy expected from the
	// round-0 answers: the mean over the problems of its chance to draw
	// the right answer.
	round0Chance float64
}

// flipCounts are the raw numbers behind Flips.
type flipCounts struct {
	answers, right                                     int
	rightSteps, rightToWrong, wrongSteps, wrongToRight int
	problems, round0, final, lost                      int
	faced, adopted                                     int
	round0Chance                                       float64
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
	right := count(sameAs(round0, want))
	f.answers, f.right = f.answers+len(round0), f.right+right
	f.facing(t.Root, ids, want, right, len(round0))
	f.problems++
	if len(round0) > 0 && Same(Plurality(round0, tie), want) {
		f.round0++
	}
	f.round0Chance += pluralityChance(round0, want)
	if last := LastAnswers(t, ids); len(last) > 0 && Same(Plurality(last, tie+1), want) {
		f.final++
	}
	if right > 0 && !concluded {
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
		Round0Answers: rate(f.right, f.answers),
		RightToWrong:  rate(f.rightToWrong, f.rightSteps), WrongToRight: rate(f.wrongToRight, f.wrongSteps),
		Round0: rate(f.round0, f.problems), Final: rate(f.final, f.problems), LostFromPool: rate(f.lost, f.problems),
		Adopted: rate(f.adopted, f.faced), round0Chance: f.round0Chance / float64(f.problems),
	}
}

// expectFlips sets the rates the demo's n agents of accuracy p and
// conformity c should show, each stage given what the stage before it drew,
// since each is checked on its own and a low draw at round 0 would
// otherwise pull every later measure away from expectations made from the
// parameters alone (those are kept beside them):
//   - a round-0 answer is right with probability p;
//   - the round-0 plurality is right with the chance counted from each
//     problem's round-0 answers (1 when most are right, 1/k when the right
//     one ties k ways) rather than VoteAccuracy(n, p̂): it conditions on
//     exactly what the plurality counts, so the check tests the plurality
//     and its tie alone, and it needs no assumption that the agents are
//     right equally often and independently of each other on a problem;
//     from the parameters, the vote's accuracy;
//   - a right agent never sees a wrong majority (wrong answers never
//     agree), so it never flips;
//   - a wrong one adopts the right majority, there when more than half of
//     all n answers are right, with probability c (its adoption rate when
//     it faces one), so wrong→right is c times the share of wrong answers
//     that faced a right majority in this run; from the parameters, c
//     times that share's chance, majorityRight(n, p).
//
// It holds for the demo's debate, whose one step per debater is its
// round-0 position to its rebuttal.
func (f *Flips) expectFlips(n int, p, c float64) {
	zero, wr := 0.0, 0.0
	if f.WrongToRight.Of > 0 {
		wr = c * float64(f.Adopted.Of) / float64(f.WrongToRight.Of)
	}
	r0, wrParams, r0Params := f.round0Chance, c*majorityRight(n, p), VoteAccuracy(n, p)
	f.Round0Answers.Expected, f.RightToWrong.Expected, f.Adopted.Expected = &p, &zero, &c
	f.Round0.Expected, f.Round0.FromParameters = &r0, &r0Params
	f.WrongToRight.Expected, f.WrongToRight.FromParameters = &wr, &wrParams
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

// lines are the flips as the report prints them for a terminal of width
// columns, one stage a line, in the order the debate draws them.
func (f *Flips) lines(width int) string {
	var b strings.Builder
	b.WriteString("debate flips, stage by stage:\n")
	for _, s := range []struct {
		name string
		r    Rate
	}{
		{"round-0 answers right", f.Round0Answers},
		{"round-0 majority right", f.Round0},
		{"right→wrong", f.RightToWrong},
		{"wrong→right", f.WrongToRight},
		{"wrong→right facing a right majority", f.Adopted},
		{"final majority right", f.Final},
		{"right at round 0, lost at the end", f.LostFromPool},
	} {
		b.WriteString(indent(wrap(s.name+" "+s.r.text(), width-2, "  "), "  "))
	}
	return b.String()
}

// text is one rate as the report prints it: "k/n = v (95% lo–hi; expected
// e given round 0; f from the parameters)" (every stage a demo expects
// something of given the stage before follows round 0).
func (r Rate) text() string {
	s := fmt.Sprintf("%d/%d = %.3f (95%% %.3f–%.3f", r.Count, r.Of, r.Value(), r.Interval.Low, r.Interval.High)
	switch {
	case r.Expected != nil && r.FromParameters != nil:
		s += fmt.Sprintf("; expected %.3f given round 0; %.3f from the parameters", *r.Expected, *r.FromParameters)
	case r.Expected != nil:
		s += fmt.Sprintf("; expected %.3f", *r.Expected)
	}
	return s + ")"
}

// indent puts prefix before every line of s.
func indent(s, prefix string) string {
	lines := strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n")
	return prefix + strings.Join(lines, prefix) + "\n"
}
