package web

import (
	"strings"
	"unicode/utf8"

	"github.com/debatehq/debate/internal/linediff"
)

// Bounds of a diff, so that a page stays small whatever two versions hold.
const (
	// maxDiffLines bounds the lines of both versions together that are
	// compared at all; longer versions are only linked.
	maxDiffLines = 50_000
	// diffContext is the number of unchanged lines shown around a change.
	diffContext = 3
	// maxShownLines and maxShownBytes bound the lines of a diff shown on a
	// page and their text; the rest is counted and left to the versions.
	maxShownLines = 1000
	maxShownBytes = 128 << 10
)

// diffLine is one line of a diff as a page shows it: a line of
// linediff.Texts, or, with Op '@', Skip unchanged lines that are not shown.
type diffLine struct {
	linediff.Line
	Skip int
}

// diffView is a diff as a page shows it: the changes with diffContext
// unchanged lines around each, within maxShownLines and maxShownBytes.
type diffView struct {
	Lines          []diffLine
	Added, Removed int
	// TooLong: the versions have more than maxDiffLines lines together and
	// were not compared; OldLines and NewLines count them, MaxLines is the
	// bound.
	TooLong                      bool
	OldLines, NewLines, MaxLines int
	// Entire: the versions have no line in common and more text than a page
	// shows; no line is shown.
	Entire bool
	// Cut counts the changed lines left out past the bounds.
	Cut int
}

// viewDiff compares old and new for a page, within the bounds above.
func viewDiff(old, new string) diffView {
	v := diffView{OldLines: countLines(old), NewLines: countLines(new), MaxLines: maxDiffLines}
	if v.OldLines+v.NewLines > maxDiffLines {
		v.TooLong = true
		return v
	}
	lines := linediff.Texts(old, new)
	common, size := false, 0
	for _, l := range lines {
		switch l.Op {
		case '+':
			v.Added++
		case '-':
			v.Removed++
		default:
			common = true
		}
		size += len(l.Text)
	}
	if !common && v.Added > 0 && v.Removed > 0 && size > maxShownBytes {
		v.Entire = true
		return v
	}
	v.Lines, v.Cut = shownLines(lines)
	return v
}

// shownLines returns the lines of a diff a page shows: each change with
// diffContext unchanged lines around it, longer runs of unchanged lines as
// one '@' line, and nothing past maxShownLines lines or maxShownBytes of
// text; cut counts the changed lines left out.
func shownLines(lines []linediff.Line) (shown []diffLine, cut int) {
	near := make([]bool, len(lines)) // within diffContext lines of a change
	for i, l := range lines {
		if l.Op != ' ' {
			for j := max(0, i-diffContext); j <= min(len(lines)-1, i+diffContext); j++ {
				near[j] = true
			}
		}
	}
	budget := maxShownBytes
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case !near[i]:
			if n := len(shown); n > 0 && shown[n-1].Op == '@' {
				shown[n-1].Skip++
			} else {
				shown = append(shown, diffLine{Line: linediff.Line{Op: '@'}, Skip: 1})
			}
			continue
		case len(shown) >= maxShownLines || budget <= 0:
			for _, l := range lines[i:] {
				if l.Op != ' ' {
					cut++
				}
			}
			return shown, cut
		case len(l.Text) > budget:
			l.Text = truncate(l.Text, budget)
		}
		budget -= len(l.Text)
		shown = append(shown, diffLine{Line: l})
	}
	return shown, 0
}

// truncate cuts s to at most n bytes, on a character boundary, and marks the
// cut with an ellipsis.
func truncate(s string, n int) string {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// countLines is the number of lines linediff.Split finds in s.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}
