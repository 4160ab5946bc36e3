package web

import (
	"strings"
	"unicode/utf8"
)

// Bounds of a diff, so that a page stays small whatever two versions hold.
const (
	// maxDiffCells bounds the table of the line diff (rows × columns of the
	// part that differs, 4 bytes each); larger changes are shown as
	// everything removed and added.
	maxDiffCells = 1 << 20
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

// diffLine is one line of a diff: Op is ' ' (in both), '-' (only in the
// old text) or '+' (only in the new one); in a diffView, Op '@' stands for
// Skip unchanged lines that are not shown.
type diffLine struct {
	Op   byte
	Text string
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
	lines := diffLines(old, new)
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
func shownLines(lines []diffLine) (shown []diffLine, cut int) {
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
				shown = append(shown, diffLine{Op: '@', Skip: 1})
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
		shown = append(shown, l)
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

// countLines is the number of lines splitLines finds in s.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}

// diffLines returns a shortest line diff from old to new: the common prefix
// and suffix as they are, and the middle by a longest common subsequence.
func diffLines(old, new string) []diffLine {
	a, b := splitLines(old), splitLines(new)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	out := make([]diffLine, 0, len(a)+len(b)-pre-suf)
	for _, l := range a[:pre] {
		out = append(out, diffLine{Op: ' ', Text: l})
	}
	out = append(out, lcsDiff(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		out = append(out, diffLine{Op: ' ', Text: l})
	}
	return out
}

// lcsDiff diffs a and b by dynamic programming over their longest common
// subsequence; past maxDiffCells it gives up and replaces a by b.
func lcsDiff(a, b []string) []diffLine {
	n, m := len(a), len(b)
	var out []diffLine
	if n*m > maxDiffCells {
		for _, l := range a {
			out = append(out, diffLine{Op: '-', Text: l})
		}
		for _, l := range b {
			out = append(out, diffLine{Op: '+', Text: l})
		}
		return out
	}
	// lcs[i*(m+1)+j] is the length of the LCS of a[i:] and b[j:].
	lcs := make([]int32, (n+1)*(m+1))
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case a[i] == b[j]:
				lcs[i*(m+1)+j] = lcs[(i+1)*(m+1)+j+1] + 1
			default:
				lcs[i*(m+1)+j] = max(lcs[(i+1)*(m+1)+j], lcs[i*(m+1)+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			out = append(out, diffLine{Op: ' ', Text: a[i]})
			i++
			j++
		case lcs[(i+1)*(m+1)+j] >= lcs[i*(m+1)+j+1]:
			out = append(out, diffLine{Op: '-', Text: a[i]})
			i++
		default:
			out = append(out, diffLine{Op: '+', Text: b[j]})
			j++
		}
	}
	for ; i < n; i++ {
		out = append(out, diffLine{Op: '-', Text: a[i]})
	}
	for ; j < m; j++ {
		out = append(out, diffLine{Op: '+', Text: b[j]})
	}
	return out
}

// splitLines splits text into lines without their line breaks; a final line
// break does not start another line.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(strings.ReplaceAll(s, "\r\n", "\n"), "\n"), "\n")
}
