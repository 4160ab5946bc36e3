// Package linediff is the one line diff of the module: a shortest edit
// script between two texts' lines, shown by the web UI between versions of a
// document and by golden-file tests when a rendered artifact differs.
package linediff

import "strings"

// maxDiffCells bounds the table of the line diff (rows × columns of the part
// that differs); larger changes are shown as everything removed and added.
const maxDiffCells = 4 << 20

// Line is one line of a diff: Op is ' ' (in both), '-' (only in the old
// text) or '+' (only in the new one).
type Line struct {
	Op   byte
	Text string
}

// Texts returns a shortest line diff from old to new, split into lines by
// Split.
func Texts(old, new string) []Line {
	return Lines(Split(old), Split(new))
}

// Lines returns a shortest diff from the lines a to the lines b: the common
// prefix and suffix as they are, and the middle by a longest common
// subsequence. Past maxDiffCells the middle is shown as a removed and b
// added.
func Lines(a, b []string) []Line {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	out := make([]Line, 0, len(a)+len(b)-pre-suf)
	for _, l := range a[:pre] {
		out = append(out, Line{' ', l})
	}
	out = append(out, lcsDiff(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		out = append(out, Line{' ', l})
	}
	return out
}

// lcsDiff diffs a and b by dynamic programming over their longest common
// subsequence; past maxDiffCells it gives up and replaces a by b.
func lcsDiff(a, b []string) []Line {
	n, m := len(a), len(b)
	var out []Line
	if n*m > maxDiffCells {
		for _, l := range a {
			out = append(out, Line{'-', l})
		}
		for _, l := range b {
			out = append(out, Line{'+', l})
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
			out = append(out, Line{' ', a[i]})
			i++
			j++
		case lcs[(i+1)*(m+1)+j] >= lcs[i*(m+1)+j+1]:
			out = append(out, Line{'-', a[i]})
			i++
		default:
			out = append(out, Line{'+', b[j]})
			j++
		}
	}
	for ; i < n; i++ {
		out = append(out, Line{'-', a[i]})
	}
	for ; j < m; j++ {
		out = append(out, Line{'+', b[j]})
	}
	return out
}

// Split splits text into lines without their line breaks ("\n" or
// "\r\n"); a final line break does not start another line.
func Split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(strings.ReplaceAll(s, "\r\n", "\n"), "\n"), "\n")
}
