package repo

import (
	"fmt"
	"strings"
)

// Listing lists the quotable files in at most limit bytes, a line each:
// every file when the whole list fits, else the files down to the deepest
// level of folders that fits and, below it, each folder as "dir/ (N
// files)" (a folder of one file is that file); when even the top level
// does not fit, its first lines and how many more there are.
func (f *Files) Listing(limit int) []string {
	depth := 0
	for _, n := range f.names {
		depth = max(depth, strings.Count(n, "/")+1)
	}
	for d := depth; d >= 1; d-- {
		lines := folded(f.names, d)
		if size(lines) <= limit {
			return lines
		}
	}
	all := folded(f.names, 1)
	lines := all
	for len(lines) > 0 && size(lines)+len("… and 99999 more\n") > limit {
		lines = lines[:len(lines)-1]
	}
	return append(lines, fmt.Sprintf("… and %d more", len(all)-len(lines)))
}

// folded lists names with everything below depth folders folded into its
// folder at that depth, with the number of files it holds; a folder of one
// file is that file.
func folded(names []string, depth int) []string {
	var out []string
	counts := map[string]int{}
	first := map[string]string{}
	for _, n := range names {
		parts := strings.SplitN(n, "/", depth+1)
		if len(parts) <= depth {
			out = append(out, n)
			continue
		}
		dir := strings.Join(parts[:depth], "/") + "/"
		if counts[dir] == 0 {
			out = append(out, dir)
			first[dir] = n
		}
		counts[dir]++
	}
	for i, l := range out {
		switch c := counts[l]; {
		case c == 1:
			out[i] = first[l]
		case c > 1:
			out[i] = fmt.Sprintf("%s (%d files)", l, c)
		}
	}
	return out
}

// size is the bytes lines take, one per line.
func size(lines []string) int {
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	return n
}
