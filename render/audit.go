package render

import "github.com/debatehq/debate/tree"

// tooFew returns the verdicts a judge's audit counted and the fewest from
// which any of its checks could be flagged, when they are fewer; 0, 0 when
// they are enough. A check that no verdict could count or that every one
// must (expected 0 or 100 %: no debater of the judge's family, or only
// such) tells nothing and is left out.
func tooFew(a tree.JudgeAudit) (n, need int) {
	for _, c := range []tree.Check{a.First, a.Middle, a.Last, a.Longest, a.SameFamily} {
		if c.Of > 0 && c.Expected > 0 && c.Expected < 1 && (need == 0 || c.Needed() < need) {
			need = c.Needed()
		}
	}
	if n = a.First.Of; need == 0 || n >= need {
		return 0, 0
	}
	return n, need
}

// Audit returns the stance figures and the judge audit of one or many runs
// as Markdown, in the language lang ("zh" or English): the figures, a table
// per judge model and a warning for each check whose exact interval
// excludes what no bias would give, or a note that the verdicts are too
// few for any check to be flagged.
func Audit(stances *tree.StanceFigures, audits []tree.JudgeAudit, lang string) []byte {
	w := language(lang)
	r := &report{w: w}
	if stances != nil && (stances.Moved.Of > 0 || stances.MajorityVerdicts.Of > 0) {
		r.printf("## %s\n\n%s%s %s\n\n", w.stances, w.stances, w.colon, w.stanceSummary(stances))
		r.stanceFigures(stances)
	}
	r.audit(audits)
	if r.b.Len() == 0 {
		r.printf("%s\n", w.nothingAudited)
	}
	return r.bytes()
}

// audit writes the judge audit section; nothing when no verdict favoured a
// debater.
func (r *report) audit(audits []tree.JudgeAudit) {
	if len(audits) == 0 {
		return
	}
	w := r.w
	r.printf("## %s\n\n%s\n\n", w.judgeAudit, w.auditNote)
	for _, a := range audits {
		r.printf("### %s\n\n", inlineText(a.Model))
		checks := []struct {
			name string
			c    tree.Check
		}{{w.auditFirst, a.First}, {w.auditMiddle, a.Middle}, {w.auditLast, a.Last}, {w.auditLongest, a.Longest}, {w.auditFamily, a.SameFamily}}
		for _, c := range checks {
			if c.c.Flagged {
				r.printf("> ⚠ %s\n", w.auditFlagFmt(inlineText(a.Model), c.name, c.c.Count, c.c.Of,
					100*c.c.Interval.Low, 100*c.c.Interval.High, 100*c.c.Expected))
			}
		}
		if a.Flagged() {
			r.b.WriteString("\n")
		}
		if n, need := tooFew(a); n > 0 {
			format := w.auditTooFewFmt
			if n == 1 {
				format = w.auditTooFewOne
			}
			r.printf("> %s\n\n", format(n, need))
		}
		r.printf("| %s | %s | %s | %s |\n|---|--:|--:|--:|\n", w.figure, w.count, w.interval95, w.expected)
		for _, c := range checks {
			if c.c.Of == 0 {
				continue
			}
			mark := ""
			if c.c.Flagged {
				mark = " ⚠"
			}
			r.printf("| %s%s | %s | %s | %.0f %% |\n", c.name, mark, shareCount(c.c.Share), shareInterval(c.c.Share), 100*c.c.Expected)
		}
		if a.OrderFlips.Of > 0 {
			r.printf("| %s | %s | %s | 0 %% |\n", w.auditFlips, shareCount(a.OrderFlips), shareInterval(a.OrderFlips))
		}
		r.b.WriteString("\n")
	}
}
