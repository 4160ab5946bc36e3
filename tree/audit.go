package tree

import (
	"cmp"
	"slices"
	"unicode/utf8"

	"github.com/debatehq/debate/internal/modelfamily"
	"github.com/debatehq/debate/internal/stats"
)

// Check is one share of the judge audit beside what it would be under no
// bias: Expected is the mean over the verdicts of the chance the share
// counts (1/k for a position among k debaters). Its interval is the exact
// (Clopper–Pearson) 95 % one, and Flagged is set when that interval
// excludes Expected: when an exact binomial test at Expected rejects no
// bias at 95 %. (Where the verdicts' chances differ, the binomial at their
// mean is the wider distribution, so the test errs toward no flag.) Fewer
// verdicts than Needed are never flagged, whatever they show.
type Check struct {
	Share
	Expected float64 `json:"expected"`
	Flagged  bool    `json:"flagged,omitempty"`
}

// Needed is the fewest verdicts from which the check can be flagged: fewer
// cannot show a bias at 95 % even when every one of them counts (2 of 2
// where 1/3 is expected happens to an unbiased judge one time in nine).
func (c Check) Needed() int { return stats.MinTrials(c.Expected) }

// JudgeAudit is the audit of one judge model's verdicts that favour a
// debater: where the favoured debater stood in what the judge read, whether
// it wrote the longest answer, whether it shares the judge's model family,
// and with the order check how often the judge's choice changed.
type JudgeAudit struct {
	Model      string `json:"model"`
	First      Check  `json:"first"`
	Middle     Check  `json:"middle"`
	Last       Check  `json:"last"`
	Longest    Check  `json:"longest"`
	SameFamily Check  `json:"sameFamily"`
	// OrderFlips counts the verdicts asked again in reverse order whose
	// choice changed, of those asked again.
	OrderFlips Share `json:"orderFlips"`
}

// Flagged reports whether any check of the audit is flagged.
func (a JudgeAudit) Flagged() bool {
	return a.First.Flagged || a.Middle.Flagged || a.Last.Flagged || a.Longest.Flagged || a.SameFamily.Flagged
}

// tallyCheck counts hits out of n with expectations summing to expSum.
type tallyCheck struct {
	hits, n int
	expSum  float64
}

func (c *tallyCheck) add(hit bool, expected float64) {
	c.n++
	c.expSum += expected
	if hit {
		c.hits++
	}
}

func (c tallyCheck) check() Check {
	s := Share{Count: c.hits, Of: c.n, Interval: stats.ClopperPearson(c.hits, c.n)}
	exp := 0.0
	if c.n > 0 {
		exp = c.expSum / float64(c.n)
	}
	return Check{Share: s, Expected: exp, Flagged: c.n > 0 && stats.Excludes(c.hits, c.n, exp)}
}

// judgeTally is the running audit of one judge model.
type judgeTally struct {
	first, middle, last, longest, family tallyCheck
	checked, flips                       int
}

// audit is the tally as the audit of model.
func (j *judgeTally) audit(model string) JudgeAudit {
	return JudgeAudit{Model: model, First: j.first.check(), Middle: j.middle.check(), Last: j.last.check(),
		Longest: j.longest.check(), SameFamily: j.family.check(), OrderFlips: share(j.flips, j.checked)}
}

// observe counts one verdict favouring favors, as read in the order read, at
// node n, by a judge of model judge.
func (j *judgeTally) observe(n *Node, judge, favors string, read []string, models map[string]string) {
	k := len(read)
	at := slices.Index(read, favors)
	if k == 0 || at < 0 {
		return
	}
	j.first.add(at == 0, 1/float64(k))
	j.last.add(at == k-1, 1/float64(k))
	if k > 2 {
		j.middle.add(at > 0 && at < k-1, float64(k-2)/float64(k))
	}
	longest := true
	mine := answerLen(n, favors)
	fam, same := modelfamily.Of(judge), 0
	for _, id := range read {
		if id != favors && answerLen(n, id) >= mine {
			longest = false
		}
		if fam != "" && modelfamily.Of(models[id]) == fam {
			same++
		}
	}
	j.longest.add(longest, 1/float64(k))
	j.family.add(fam != "" && modelfamily.Of(models[favors]) == fam, float64(same)/float64(k))
}

// answerLen is the length in characters of what id wrote at n.
func answerLen(n *Node, id string) int {
	return utf8.RuneCountInString(n.Positions[id]) + utf8.RuneCountInString(n.Rebuttals[id])
}

// audit returns the judge audit of the run's forced verdicts, per judge
// model in model order; nil when no verdict favoured a debater.
func (r *Run) audit() []JudgeAudit {
	a := auditor{}
	r.tallyVerdicts(a, func(*Node) bool { return true })
	return a.audits()
}

// auditor is the running audit of many judge models.
type auditor map[string]*judgeTally

// get returns the tally of model, made when it has none.
func (a auditor) get(model string) *judgeTally {
	if a[model] == nil {
		a[model] = &judgeTally{}
	}
	return a[model]
}

// audits returns the audit of each judge model that favoured a debater, in
// model order; nil when none did.
func (a auditor) audits() []JudgeAudit {
	var out []JudgeAudit
	for model, j := range a {
		if j.first.n > 0 || j.checked > 0 {
			out = append(out, j.audit(model))
		}
	}
	slices.SortFunc(out, func(a, b JudgeAudit) int { return cmp.Compare(a.Model, b.Model) })
	return out
}

// tallyVerdicts counts into a the forced verdicts of the nodes of r that
// keep takes.
func (r *Run) tallyVerdicts(a auditor, keep func(*Node) bool) {
	for i := range r.Topics {
		r.Topics[i].Root.Walk(func(n *Node) {
			if n.Judgment == nil || !keep(n) {
				return
			}
			for _, v := range n.Judgment.ForcedVerdicts {
				r.auditVerdict(n, v, a.get)
			}
		})
	}
}

// auditVerdict counts verdict v at n: each vote's choice, and the order
// check's second choice read in reverse; a verdict without votes is the
// judge's own.
func (r *Run) auditVerdict(n *Node, v Verdict, get func(string) *judgeTally) {
	models := n.Models
	if len(v.Votes) == 0 {
		if v.Favors != "" && v.Favors != "none" {
			judge := cmpOr(n.Models[r.Judge.ID], r.Judge.Model)
			get(judge).observe(n, judge, v.Favors, v.Read, models)
		}
		return
	}
	for _, x := range v.Votes {
		if x.Status == VoteDropped || len(x.Read) == 0 {
			continue
		}
		j := get(x.Model)
		j.observe(n, x.Model, x.Favors, x.Read, models)
		if x.SwapFavors == "" {
			continue
		}
		j.checked++
		if x.SwapFavors != x.Favors {
			j.flips++
		}
		rev := slices.Clone(x.Read)
		slices.Reverse(rev)
		j.observe(n, x.Model, x.SwapFavors, rev, models)
	}
}
