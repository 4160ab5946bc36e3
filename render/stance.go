package render

import (
	"fmt"
	"strings"

	"github.com/debatehq/debate/tree"
)

// stanceSummary is figures in one line: "1 of 3 moved (conformity 1)".
func (w *words) stanceSummary(f *tree.StanceFigures) string {
	s := w.movedFmt(f.Moved.Count, f.Moved.Of)
	var parts []string
	if f.Conformity.Count > 0 {
		parts = append(parts, w.conformityFmt(f.Conformity.Count))
	}
	if f.Persuasion.Count > 0 {
		parts = append(parts, w.persuasionFmt(f.Persuasion.Count))
	}
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}

// stanceLine writes the header line of stance figures, when the ledger
// holds anyone.
func (r *report) stanceLine(f *tree.StanceFigures) {
	if f != nil && f.Moved.Of > 0 {
		r.headerLine(r.w.stances, r.w.stanceSummary(f))
	}
}

// stanceFigures writes the figures of a ledger as a table, each share with
// its count and 95 % interval; nothing when the ledger is empty.
func (r *report) stanceFigures(f *tree.StanceFigures) {
	if f == nil || f.Moved.Of == 0 && f.MajorityVerdicts.Of == 0 {
		return
	}
	w := r.w
	r.printf("| %s | %s | %s |\n|---|--:|--:|\n", w.figure, w.count, w.interval95)
	for _, row := range []struct {
		name string
		s    tree.Share
	}{
		{w.figMoved, f.Moved}, {w.figConformity, f.Conformity}, {w.figPersuasion, f.Persuasion},
		{w.figLone, f.LoneConceded}, {w.figMajority, f.MajorityVerdicts},
	} {
		r.printf("| %s | %s | %s |\n", row.name, shareCount(row.s), shareInterval(row.s))
	}
	r.b.WriteString("\n")
}

func shareCount(s tree.Share) string { return fmt.Sprintf("%d / %d", s.Count, s.Of) }

func shareInterval(s tree.Share) string {
	if s.Of == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f %% (%.0f–%.0f %%)", 100*s.Value(), 100*s.Interval.Low, 100*s.Interval.High)
}

// ledger writes a topic's stance ledger: per child node and debater its
// side, its closing line and the judge's reading, a disagreement marked.
func (r *report) ledger(t *tree.Topic) {
	if len(t.Ledger) == 0 {
		return
	}
	w := r.w
	r.printf("## %s\n\n", w.ledger)
	r.stanceFigures(t.Stances)
	r.printf("| %s | %s | %s | %s | %s | %s |\n|---|---|---|---|---|---|\n", w.colNode, w.colDebater, w.colSide, w.colLine, w.colJudgeRead, w.colMove)
	for _, e := range t.Ledger {
		move := ""
		if e.Moved {
			move = w.stanceWord(tree.StanceMoved)
			if e.Toward != "" {
				move = w.movedTowardFmt(inlineText(r.name(e.Toward)))
			}
			if e.Kind != "" {
				move += " · " + w.kindWord(e.Kind)
			}
		}
		if e.Disagree {
			move = strings.TrimPrefix(move+" · ⚠ "+w.disagree, " · ")
		}
		side := e.Side
		if side == "" {
			side = w.noSide
		}
		r.printf("| %s | %s | %s | %s | %s | %s |\n", inlineText(e.Node), inlineText(r.name(e.Debater)), cell(side),
			cell(r.stanceText(e.Own, e.Line)), cell(r.stanceText(e.Judge, "")), move)
	}
	r.b.WriteString("\n")
}

// stanceText is a stance as the ledger shows it: the line as written when
// there is one, else the stance and whom it moved toward.
func (r *report) stanceText(s tree.Stance, line string) string {
	if line != "" {
		return line
	}
	text := r.w.stanceWord(s.Stance)
	if s.Toward != "" {
		text = r.w.movedTowardFmt(r.name(s.Toward))
	}
	return text
}

// cell is text fit for one Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(inlineText(s), "|", `\|`) }

func (w *words) stanceWord(k tree.StanceKind) string {
	switch k {
	case tree.StanceKept:
		return w.kept
	case tree.StanceMoved:
		return w.moved
	}
	return w.notStated
}

func (w *words) kindWord(kind string) string {
	if kind == tree.Conformity {
		return w.conformity
	}
	return w.persuasion
}
