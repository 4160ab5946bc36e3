package render

import (
	"fmt"
	"strings"

	"github.com/debatehq/debate/tree"
)

// Summary returns summary.md for a run: a header, a table with one row per
// topic (status, rounds reached, consensus points, divergences, forced
// verdicts, failed nodes, tokens, cost) and a total row, each topic's
// conclusion (its synthesis if present, else its consensus points and
// verdicts), the motions (see motions) and the proposed edits to the shared
// documents. A run of motions only gets the header and the motions.
func Summary(run *tree.Run) []byte {
	r := &report{run: run, w: wordsFor(run)}
	r.summary()
	return r.bytes()
}

func (r *report) summary() {
	w := r.w
	r.printf("# %s\n\n", w.summaryHeading)
	r.headerLine(w.date, r.date())
	if len(r.run.Topics) == 0 && len(r.run.Motions) > 0 {
		r.usageLines(r.run.Usage)
		r.b.WriteString("\n")
		r.motions()
		return
	}
	var debaters []string
	for _, p := range r.run.Debaters {
		debaters = append(debaters, fmt.Sprintf("%s — %s", inlineText(p.Name()), inlineText(p.Model)))
	}
	r.headerLine(w.debaters, strings.Join(debaters, "; "))
	r.headerLine(w.judge, fmt.Sprintf("%s — %s", inlineText(r.run.Judge.Name()), inlineText(r.run.Judge.Model)))
	r.headerLine(w.maxRounds, fmt.Sprint(r.run.MaxRounds))
	r.usageLines(r.run.Usage)
	r.b.WriteString("\n")

	cols := []string{w.colID, w.colTopic, w.colStatus, w.colRounds, w.colConsensus, w.colDivergences, w.colVerdicts, w.colFailures, w.colTokens, w.colCost}
	r.printf("| %s |\n|", strings.Join(cols, " | "))
	for i := range cols {
		if i < 3 {
			r.b.WriteString("---|")
		} else {
			r.b.WriteString("--:|")
		}
	}
	r.b.WriteString("\n")
	var sum tree.Stats
	var usage tree.Usage
	for i := range r.run.Topics {
		t := &r.run.Topics[i]
		s := t.Root.Stats()
		sum.Consensus += s.Consensus
		sum.Divergences += s.Divergences
		sum.Verdicts += s.Verdicts
		sum.Failed += s.Failed
		usage = usage.Add(t.Usage)
		r.printf("| %s | %s | %s | %d | %d | %d | %d | %d | %s | %s |\n",
			inlineText(t.ID), inlineText(t.Title), w.statusWord(topicStatus(t)), s.Rounds,
			s.Consensus, s.Divergences, s.Verdicts, s.Failed, groupDigits(t.Usage.Total()), costCell(t.Usage.Cost))
	}
	if len(r.run.Topics) > 1 {
		r.printf("| **%s** | | | | %d | %d | %d | %d | %s | %s |\n", w.total,
			sum.Consensus, sum.Divergences, sum.Verdicts, sum.Failed, groupDigits(usage.Total()), costCell(usage.Cost))
	}
	r.b.WriteString("\n")

	r.printf("## %s\n\n", w.conclusions)
	for i := range r.run.Topics {
		t := &r.run.Topics[i]
		r.printf("### %s: %s — %s\n\n", inlineText(t.ID), inlineText(t.Title), w.statusWord(topicStatus(t)))
		if s := t.Root.Stats(); s.Failed > 0 || s.Interrupted > 0 {
			r.printf("> ⚠ "+w.incompleteFmt+"\n\n", s.Failed, s.Interrupted)
		}
		if strings.TrimSpace(t.Synthesis) != "" {
			r.block(t.Synthesis, 3)
			continue
		}
		r.printf("**%s:**\n\n", w.consensus)
		r.points(t.Root)
		r.printf("\n**%s:**\n\n", w.verdicts)
		r.decisions(t.Root, false)
		r.b.WriteString("\n")
	}

	r.motions()
	r.printf("## %s\n\n", w.proposedEdits)
	if strings.TrimSpace(r.run.Edits) == "" {
		r.printf("%s\n", w.noEdits)
		return
	}
	r.block(r.run.Edits, 2)
}

// costCell formats a cost for the summary table, "—" when unpriced.
func costCell(c float64) string {
	if c == 0 {
		return "—"
	}
	return formatCost(c)
}
