package quality

import (
	"fmt"
	"strings"

	"github.com/debatehq/debate/internal/stats"
	"github.com/debatehq/debate/render"
	"github.com/debatehq/debate/tree"
)

// QuoteShare is how many of an arm's quotes of the passages the engine
// verified, of those made, with the share's 95 % Wilson interval.
type QuoteShare struct {
	Made     int      `json:"made"`
	Verified int      `json:"verified"`
	Share    float64  `json:"share"`
	Interval Interval `json:"interval"`
}

// shareOf is the share of c's quotes verified; nil when none was made.
func shareOf(c tree.QuoteCount) *QuoteShare {
	if c.Made == 0 {
		return nil
	}
	return &QuoteShare{Made: c.Made, Verified: c.Verified, Share: float64(c.Verified) / float64(c.Made), Interval: stats.Wilson(c.Verified, c.Made)}
}

// quoteLines are the report's lines on the share of verified quotes per
// arm, for a terminal of width columns; "" when no arm quoted.
func (r *Report) quoteLines(width int) string {
	var b strings.Builder
	for _, a := range r.Arms {
		q := a.Quotes
		if q == nil {
			continue
		}
		line := fmt.Sprintf("  %-11s  %s of %s verified, share %.3f (95%% interval %s)",
			a.Name, render.Thousands(q.Verified), render.Thousands(q.Made), q.Share, interval(q.Interval))
		if len([]rune(line)) > width {
			line = fmt.Sprintf("  %s  %s of %s verified,\n    share %.3f (95%% interval %s)",
				a.Name, render.Thousands(q.Verified), render.Thousands(q.Made), q.Share, interval(q.Interval))
		}
		b.WriteString(line + "\n")
	}
	if b.Len() == 0 {
		return ""
	}
	head := "Quotes of the passages:"
	if d := r.Demo; d != nil && d.QuoteAccuracy != nil {
		head = fmt.Sprintf("Quotes of the passages (the demo's agents quote right %g%% of the time):", 100**d.QuoteAccuracy)
	}
	return "\n" + wrap(head, width, "  ") + b.String()
}
