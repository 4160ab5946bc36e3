package web

import "strings"

// maxDiffCells bounds the table of the line diff (rows × columns of the part
// that differs); larger changes are shown as everything removed and added.
const maxDiffCells = 4 << 20

// diffLine is one line of a diff: Op is ' ' (in both), '-' (only in the
// old text) or '+' (only in the new one).
type diffLine struct {
	Op   byte
	Text string
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
		out = append(out, diffLine{' ', l})
	}
	out = append(out, lcsDiff(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		out = append(out, diffLine{' ', l})
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
			out = append(out, diffLine{'-', l})
		}
		for _, l := range b {
			out = append(out, diffLine{'+', l})
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
			out = append(out, diffLine{' ', a[i]})
			i++
			j++
		case lcs[(i+1)*(m+1)+j] >= lcs[i*(m+1)+j+1]:
			out = append(out, diffLine{'-', a[i]})
			i++
		default:
			out = append(out, diffLine{'+', b[j]})
			j++
		}
	}
	for ; i < n; i++ {
		out = append(out, diffLine{'-', a[i]})
	}
	for ; j < m; j++ {
		out = append(out, diffLine{'+', b[j]})
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
