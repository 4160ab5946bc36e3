package quality

import (
	"fmt"
	"strings"

	"github.com/debatehq/debate/render"
)

// TableColumns is the narrowest terminal the report's table fits; on a
// narrower one each arm is a block of its own.
const TableColumns = 80

// Text is the report as a person reads it, for a terminal of TableColumns.
func (r *Report) Text() string { return r.Format(TableColumns) }

// Format is the report for a terminal of width columns (0: TableColumns):
// the arms as a table, or stacked below TableColumns, the paired
// differences, the warnings and one line on how to read the result.
func (r *Report) Format(width int) string {
	if width <= 0 {
		width = TableColumns
	}
	var b strings.Builder
	b.WriteString(wrap(fmt.Sprintf("debate bench quality: task %s, %d of %d problems, seed %d", r.Task, r.Measured, r.Problems, r.Seed), width, ""))
	if d := r.Demo; d != nil {
		b.WriteString(wrap(fmt.Sprintf("demo: %d scripted agents, accuracy %g, conformity %g", d.Agents, d.AgentAccuracy, d.Conformity), width, ""))
	}
	b.WriteString("\n")
	narrow := width < TableColumns
	if narrow {
		r.stacked(&b)
	} else {
		r.table(&b)
	}
	if e := r.expected(); e != "" {
		if narrow {
			b.WriteString("\n")
		}
		b.WriteString(wrap(e, width, "  "))
	}
	b.WriteString(r.quoteLines(width))
	b.WriteString("\n")
	pad := 16
	for _, d := range r.Diffs {
		pad = max(pad, len([]rune(d.Name))+1)
	}
	for _, d := range r.Diffs {
		if narrow {
			fmt.Fprintf(&b, "%s  %+.3f\n  95%% interval %+.3f to %+.3f\n  McNemar p = %.3g\n", d.Name, d.Mean, d.Interval.Low, d.Interval.High, d.McNemarP)
			continue
		}
		fmt.Fprintf(&b, "%-*s %+.3f  95%% interval %+.3f to %+.3f  McNemar p = %.3g\n", pad, d.Name, d.Mean, d.Interval.Low, d.Interval.High, d.McNemarP)
	}
	b.WriteString("\n")
	if r.Flips != nil {
		b.WriteString(r.Flips.lines(width))
	}
	for _, w := range r.Warnings {
		b.WriteString(wrap(w.String(), width, "  "))
	}
	if r.Stopped != "" {
		b.WriteString(wrap("stopped: "+r.Stopped, width, "  "))
	}
	b.WriteString(wrap(r.Reading(), width, "  "))
	fmt.Fprintf(&b, "wall time %.1fs\n", r.WallMS/1000)
	return b.String()
}

// The table's columns, as fmt verbs: together with their gaps they take
// 79 columns.
const (
	rowFormat = "%-11s  %8s  %12s  %10s  %7s  %8s  %11s\n"
	// groups spans "per problem" over tokens and cost, "per correct" over
	// the last cost.
	groups = "%49s── per problem ──  per correct\n"
)

// table writes the arms as a table of TableColumns.
func (r *Report) table(b *strings.Builder) {
	fmt.Fprintf(b, groups, "")
	fmt.Fprintf(b, rowFormat, "arm", "accuracy", "95% interval", "unreadable", "tokens", "cost", "cost")
	for _, a := range r.Arms {
		fmt.Fprintf(b, rowFormat, a.Name, fmt.Sprintf("%.3f", a.Accuracy), interval(a.Interval), fmt.Sprint(a.Unreadable),
			render.Thousands(int(a.TokensPerProblem+0.5)), fmt.Sprintf("%.4f", a.CostPerProblem), perCorrect(a))
	}
}

// stacked writes the arms one block each, for a narrow terminal.
func (r *Report) stacked(b *strings.Builder) {
	for i, a := range r.Arms {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "%s\n  accuracy     %.3f (95%% interval %s)\n  unreadable   %d\n", a.Name, a.Accuracy, interval(a.Interval), a.Unreadable)
		fmt.Fprintf(b, "  per problem  %s tokens, cost %.4f\n  per correct  cost %s\n", render.Thousands(int(a.TokensPerProblem+0.5)), a.CostPerProblem, perCorrect(a))
	}
}

func interval(i Interval) string { return fmt.Sprintf("%.3f–%.3f", i.Low, i.High) }

// perCorrect is the cost per correct answer, "—" when none is correct.
func perCorrect(a ArmReport) string {
	if a.Correct == 0 {
		return "—"
	}
	return fmt.Sprintf("%.4f", a.CostPerCorrect)
}

// expected is the line of a demo's expected accuracies, "" without any.
func (r *Report) expected() string {
	var parts []string
	for _, a := range r.Arms {
		if a.Expected != nil {
			parts = append(parts, fmt.Sprintf("%s %.3f", a.Name, *a.Expected))
		}
	}
	if len(parts) == 0 || r.Demo == nil {
		return ""
	}
	line := fmt.Sprintf("expected: %s, for agents right %g%% of the time", strings.Join(parts, ", "), 100*r.Demo.AgentAccuracy)
	for _, a := range r.Arms {
		if a.ExpectedGivenAnswers != nil && r.LoneAnswers != nil {
			line += fmt.Sprintf("; their lone answers were right %s, and given them, %s %.3f",
				r.LoneAnswers.text(), a.Name, *a.ExpectedGivenAnswers)
		}
	}
	return line
}

// Reading is the one line that says how to read the result.
func (r *Report) Reading() string {
	var d *Diff
	for i := range r.Diffs {
		if r.Diffs[i].Baseline == ArmVote {
			d = &r.Diffs[i]
		}
	}
	switch {
	case len(r.Warnings) > 0:
		return "Reading: fix the unreadable answers first; their accuracy measures the format."
	case r.Measured == 0 || d == nil:
		return "Reading: nothing was measured."
	case d.Interval.Low > 0:
		return "Reading: debate − vote is above 0: debating beat a vote on these problems."
	case d.Interval.High < 0:
		return "Reading: debate − vote is below 0: a vote beat debating on these problems."
	}
	return fmt.Sprintf("Reading: debate − vote holds 0: %d problems cannot tell debate from a vote.", r.Measured)
}

// wrap breaks s at spaces into lines of at most width columns (a word
// longer than that keeps a line of its own), the later lines indented.
func wrap(s string, width int, indent string) string {
	var b strings.Builder
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case len([]rune(line))+1+len([]rune(w)) > width:
			b.WriteString(line + "\n")
			line = indent + w
		default:
			line += " " + w
		}
	}
	b.WriteString(line + "\n")
	return b.String()
}
